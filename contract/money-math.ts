/**
 * Exact decimal arithmetic on money, shared by the app's previews and the server (docs/decisions.md#d3-money).
 * Amounts are decimal strings outside and `big.js` values inside; never JS numbers.
 *
 * Rounding rule: an amount is kept with its currency's `scale` decimals (CURRENCIES). Anything the
 * cabinet computes and pays to the user (daily income, exchange result) is rounded **down**
 * (truncated) to that scale, so the house never pays out a fraction it does not have, and an
 * amount the user enters with more decimals than the scale is truncated the same way (the debit is
 * never more than what was typed).
 */
import Big from "big.js";
import { CURRENCIES, type Currency } from "./enums";

/**
 * A private constructor, so a global `Big.DP` set elsewhere cannot change these results. Divisions
 * keep 40 decimals and truncate (RM 0); truncating again to a currency's scale is then the same as
 * truncating the exact quotient once, so no double rounding can creep in.
 */
const Money = Big();
Money.DP = 40;
Money.RM = Big.roundDown;
// Plain notation always: "0.00000001", never "1e-8".
Money.NE = -60;
Money.PE = 60;

/** A decimal string or a big.js value (a JS number only for small integers such as day counts). */
export type MoneySource = Big.BigSource;

/** An exact value for arithmetic; throws on a string that is not a number. */
export function money(value: MoneySource): Big {
  return new Money(value);
}

/** Decimals kept for `currency` (USDT 6, BTC 8, ETH 8, TON 9). */
export function currencyScale(currency: Currency): number {
  return CURRENCIES[currency].scale;
}

/** The shortest exact decimal string ("10", "0.5", "-3.25"); never exponent notation, never "-0". */
export function toDecimalString(value: MoneySource): string {
  const big = money(value);
  return big.eq(0) ? "0" : big.toString();
}

/** Truncates `value` to `scale` decimals (towards zero). */
export function roundDownTo(value: MoneySource, scale: number): string {
  return toDecimalString(money(value).round(scale, Big.roundDown));
}

/** Truncates `value` to the currency's scale: the rule for every amount paid to the user. */
export function roundDown(value: MoneySource, currency: Currency): string {
  return roundDownTo(value, currencyScale(currency));
}

/** Whether `value` has no more decimals than the currency keeps. */
export function fitsScale(value: MoneySource, currency: Currency): boolean {
  const big = money(value);
  return big.eq(big.round(currencyScale(currency), Big.roundDown));
}

export function addAmounts(...values: MoneySource[]): string {
  return toDecimalString(values.reduce<Big>((sum, v) => sum.plus(money(v)), money(0)));
}

/** -1, 0 or 1 as `a` is less than, equal to or greater than `b`. */
export function compareAmounts(a: MoneySource, b: MoneySource): -1 | 0 | 1 {
  return money(a).cmp(money(b)) as -1 | 0 | 1;
}
