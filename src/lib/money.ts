/**
 * The app's one money module (docs/decisions.md#d3-money). Amounts are decimal strings at every boundary and exact
 * decimals inside (the contract's big.js `money()` and money-math, the same the server uses); never a
 * JS `number`. Formatting follows the interface language with `Intl.NumberFormat`, fed the decimal
 * STRING (Intl formats strings exactly), with the currency's display precision, truncated.
 *
 * It imports the contract's money code and the enumerations' values (`money-math`, `enums`), not its schemas: the
 * cabinet's first screen uses it.
 */
import type { Currency } from "@contract";
import { CURRENCIES } from "@contract/enums";
import { addAmounts, compareAmounts, currencyScale, money, roundDownTo, toDecimalString } from "@contract/money-math";
import { useTranslation } from "react-i18next";
import { formatDate, formatDateTime } from "./dates";
import { numberFormat } from "./intl";
import "./money.css";

export type { Currency };
export { addAmounts, compareAmounts };

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

type AmountInputIssue = "required" | "decimal" | "tooManyDecimals";
export type ParsedAmount = { ok: true; value: string } | { ok: false; issue: AmountInputIssue };

/**
 * Reads what the user typed: "," or "." as the decimal separator, spaces ignored, a leading minus kept
 * (the form's rule says it is negative). More decimals than the currency keeps is refused, not cut.
 * The value is the exact decimal string ("0012,50" → "12.5").
 */
export function parseAmountInput(text: string, currency: Currency): ParsedAmount {
  const compact = text.replace(/[\s\u00a0\u202f]/g, "");
  if (compact === "") return { ok: false, issue: "required" };
  const match = /^(-?)(\d*)(?:[.,](\d*))?$/.exec(compact);
  if (!match || ((match[2] ?? "") === "" && (match[3] ?? "") === "")) return { ok: false, issue: "decimal" };
  const [, sign = "", whole = "", fraction = ""] = match;
  if (fraction.length > currencyScale(currency)) return { ok: false, issue: "tooManyDecimals" };
  const value = toDecimalString(money(`${sign}${whole || "0"}${fraction ? `.${fraction}` : ""}`));
  return { ok: true, value };
}

/** `a - b`, exactly. */
export function subtractAmounts(a: string, b: string): string {
  return toDecimalString(money(a).minus(b));
}

/** The test hooks every displayed amount carries: the raw decimal string and its currency. */
export function amountAttributes(amount: string, currency: Currency) {
  return { "data-amount": amount, "data-currency": currency } as const;
}

/** The formatters bound to the current interface language. */
export function useMoneyFormat() {
  const { i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? i18n.language;
  return {
    lng,
    amount: (amount: string, currency: Currency, options?: FormatAmountOptions) =>
      formatAmount(amount, currency, lng, options),
    decimal: (value: string) => formatPlainDecimal(value, lng),
    date: (iso: string) => formatDate(iso, lng),
    dateTime: (iso: string) => formatDateTime(iso, lng),
  };
}
