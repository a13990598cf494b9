/**
 * The currency exchange as numbers, shared so the app's preview is exactly what `POST /user/exchange`
 * credits. Rates are the USD price of one coin (the `exchangeRates` server setting, served by
 * `GET /user/exchange-rate`); the fee is a percentage kept by the house.
 *
 *   debited  = amount truncated to scale(from)
 *   received = roundDown(debited × rate(from) / rate(to) × (1 − feePercent / 100), scale(to))
 *
 * Evaluated as one division, debited × rate(from) × (100 − feePercent) / (rate(to) × 100), so the
 * only rounding is the final truncation to the target currency's scale.
 */

import Big from "big.js";
import type { Currency } from "./enums";
import { compareAmounts, money, roundDown, toDecimalString } from "./money-math";

export interface ExchangeRates {
  /** USD price of one coin, per currency (decimal strings, > 0). */
  rates: Record<Currency, string>;
  /** Percent of the converted value kept as the fee (0 ≤ fee < 100). */
  feePercent: string;
}

export interface ExchangeQuoteInput extends ExchangeRates {
  from: Currency;
  to: Currency;
  /** As typed; truncated to the scale of `from`. */
  amount: string;
}

export interface ExchangeQuote {
  /** What leaves the `from` balance. */
  debited: string;
  /** What reaches the `to` balance. */
  received: string;
}

/** The amount credited in `to` for `amount` of `from` (see the module comment). */
export function exchangeResult(input: ExchangeQuoteInput): string {
  return exchangeQuote(input).received;
}

export function exchangeQuote(input: ExchangeQuoteInput): ExchangeQuote {
  const debited = roundDown(input.amount, input.from);
  const numerator = money(debited).times(input.rates[input.from]).times(money(100).minus(input.feePercent));
  const denominator = money(input.rates[input.to]).times(100);
  return { debited, received: roundDown(numerator.div(denominator), input.to) };
}

/**
 * The fee as an amount of `to`: what the same exchange would credit without the fee, less what it credits, so
 * received + fee is the fee-free result exactly (both truncated to the scale of `to`).
 */
export function exchangeFee(input: ExchangeQuoteInput): string {
  const free = exchangeQuote({ ...input, feePercent: "0" }).received;
  return toDecimalString(money(free).minus(exchangeQuote(input).received));
}

/** Whether an exchange of this amount is allowed: a positive amount that yields more than zero. */
export function exchangeAmountIssue(input: ExchangeQuoteInput): "amountNegative" | "amountBelowMinimum" | null {
  if (compareAmounts(input.amount, 0) < 0) return "amountNegative";
  const quote = exchangeQuote(input);
  if (compareAmounts(quote.debited, 0) <= 0 || compareAmounts(quote.received, 0) <= 0) return "amountBelowMinimum";
  return null;
}

/** Significant digits a shown exchange rate keeps. */
export const RATE_SIGNIFICANT_DIGITS = 6;

/**
 * An exchange rate as shown: rounded half-up to `digits` significant digits, never dropping a digit of
 * the whole part ("0.181818181" → "0.181818", "65432.789" → "65432.8", "123456789.5" → "123456790").
 * Exact decimal in and out, never a JS number. For showing only: the exchange itself uses the full rates.
 */
export function displayRate(value: string, digits: number = RATE_SIGNIFICANT_DIGITS): string {
  const big = money(value);
  if (big.eq(0)) return "0";
  // big.js keeps the exponent in `e`: the number of whole digits is e + 1 for values of 1 or more.
  const wholeDigits = big.abs().gte(1) ? big.e + 1 : 0;
  return toDecimalString(big.prec(Math.max(digits, wholeDigits), Big.roundHalfUp));
}
