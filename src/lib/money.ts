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
import { addAmounts, compareAmounts, currencyScale, money, toDecimalString } from "@contract/money-math";
import { useTranslation } from "react-i18next";
import { formatDate, formatDateTime } from "./dates";
import { type FormatAmountOptions, formatAmount, formatPlainDecimal } from "./format-amount";
import "./money.css";

export { type FormatAmountOptions, formatAmount, formatPlainDecimal, truncateForDisplay } from "./format-amount";
export type { Currency };
export { addAmounts, compareAmounts };

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
