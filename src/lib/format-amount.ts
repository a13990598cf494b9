/**
 * How the app writes an amount (docs/decisions.md#d3-money): `Intl.NumberFormat` in the interface language, fed the
 * decimal STRING (Intl formats strings exactly), with the currency's display precision, truncated. Without React or
 * i18next: the app's money module (`money.ts`) and the launcher written into index.html (`app/launcher/`) both
 * format with it.
 */
import type { Currency } from "@contract";
import { CURRENCIES } from "@contract/enums";
import { currencyScale, roundDownTo, toDecimalString } from "@contract/money-math";
import { numberFormat } from "./intl";

/** How many decimals the interface shows for `currency` (USDT 2, BTC 8, ETH 6, TON 4). */
function displayDigits(currency: Currency): number {
  return CURRENCIES[currency].display;
}

/** `amount` truncated (towards zero, never rounded up) to the currency's display precision. */
export function truncateForDisplay(amount: string, currency: Currency): string {
  return roundDownTo(amount, displayDigits(currency));
}

export interface FormatAmountOptions {
  /** "+1.50" / "-1.50" (zero unsigned); for ledger entries. */
  signed?: boolean;
  /** Append the currency code (default true). */
  code?: boolean;
  /** Every kept decimal (the currency's scale) instead of the display precision; for exact previews. */
  exact?: boolean;
}

/**
 * The locale Intl formats numbers in. A browser whose ICU lacks Kazakh (Debian's Chromium does) would
 * fall back to English separators; Kazakhstan writes numbers as Russian does (space groups, comma).
 */
function numberLocale(lng: string): string {
  if (lng !== "kk") return lng;
  // Such a browser still claims the locale and formats with the root data: probe instead of asking.
  const probe = numberFormat(lng, { minimumFractionDigits: 1 }).format(1000.5);
  return probe === "1,000.5" ? "ru" : lng;
}

/** Formats an exact decimal string in `lng` with `digits` decimals (already truncated by the caller). */
function formatDecimal(value: string, lng: string, digits: number, signed = false): string {
  return numberFormat(numberLocale(lng), {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
    signDisplay: signed ? "exceptZero" : "auto",
  }).format(value as `${number}`);
}

/**
 * "123,456,789.12 USDT" (en), "123 456 789,12 USDT" (ru, kk), "123.456.789,12 USDT" (de): the amount
 * truncated to the currency's display precision, grouped and separated the language's way.
 */
export function formatAmount(amount: string, currency: Currency, lng: string, options: FormatAmountOptions = {}) {
  const digits = options.exact ? exactDigits(amount, currency) : displayDigits(currency);
  const text = formatDecimal(roundDownTo(amount, digits), lng, digits, options.signed);
  return options.code === false ? text : `${text} ${currency}`;
}

/** The display precision, or more when the exact value has more decimals (up to the scale). */
function exactDigits(amount: string, currency: Currency): number {
  const decimals = toDecimalString(roundDownTo(amount, currencyScale(currency))).split(".")[1]?.length ?? 0;
  return Math.max(displayDigits(currency), decimals);
}

/** A plain decimal (a percentage, a rate) in `lng`, every decimal it has kept. */
export function formatPlainDecimal(value: string, lng: string): string {
  const exact = toDecimalString(value);
  return formatDecimal(exact, lng, exact.split(".")[1]?.length ?? 0);
}
