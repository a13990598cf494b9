/**
 * The deposit rules as numbers (docs/cabinet-rules.md#money), shared so the app's preview is exactly what the
 * server does: the server opens, accrues and pays deposits with these functions.
 *
 * - principal   = the amount entered, truncated to the currency's scale
 * - dailyIncome = roundDown(principal × dailyYieldPercent / 100, scale)
 * - totalAccrued = dailyIncome × durationDays (held until the plan ends)
 * - totalAtEnd  = principal + totalAccrued
 * - endsAt      = startedAt + durationDays × 24 h; day k (1…durationDays) is due at startedAt + k × 24 h
 */
import type { Currency } from "./enums";
import type { ValidationCode } from "./errors";
import { addAmounts, compareAmounts, money, roundDown, toDecimalString } from "./money-math";

/** A plan day is 24 hours (not a calendar day: no daylight-saving surprises). */
export const DAY_MS = 86_400_000;

/** The principal a typed amount becomes: truncated to the currency's scale. */
export function depositPrincipal(amount: string, currency: Currency): string {
  return roundDown(amount, currency);
}

/** roundDown(amount × dailyYieldPercent / 100, scale of the currency). */
export function dailyIncome(amount: string, dailyYieldPercent: string, currency: Currency): string {
  return roundDown(money(amount).times(dailyYieldPercent).div(100), currency);
}

/** What the whole term accrues: dailyIncome × durationDays (exact, already on the currency's scale). */
export function totalAccrued(income: string, durationDays: number): string {
  return toDecimalString(money(income).times(durationDays));
}

export function totalAtEnd(amount: string, accrued: string): string {
  return addAmounts(amount, accrued);
}

/** startedAt + durationDays × 24 h. */
export function depositEndsAt(startedAt: Date | string, durationDays: number): Date {
  return new Date(new Date(startedAt).getTime() + durationDays * DAY_MS);
}

/** How many of the plan's days are due at `now` (0…durationDays). */
export function daysDue(startedAt: Date | string, now: Date | string, durationDays: number): number {
  const elapsed = new Date(now).getTime() - new Date(startedAt).getTime();
  if (elapsed <= 0) return 0;
  return Math.min(durationDays, Math.floor(elapsed / DAY_MS));
}

export interface DepositTermsInput {
  /** As typed; truncated to the currency's scale. */
  amount: string;
  dailyYieldPercent: string;
  durationDays: number;
  currency: Currency;
  /** When given, `endsAt` is filled in. */
  startedAt?: Date | string;
}

export interface DepositTerms {
  /** The principal (the amount truncated to the currency's scale). */
  amount: string;
  dailyIncome: string;
  totalAccrued: string;
  totalAtEnd: string;
  /** ISO 8601, when `startedAt` was given. */
  endsAt?: string;
}

/** The deposit screen's "computed result": what the plan pays for this amount. */
export function depositTerms(input: DepositTermsInput): DepositTerms {
  const amount = depositPrincipal(input.amount, input.currency);
  const income = dailyIncome(amount, input.dailyYieldPercent, input.currency);
  const accrued = totalAccrued(income, input.durationDays);
  const terms: DepositTerms = {
    amount,
    dailyIncome: income,
    totalAccrued: accrued,
    totalAtEnd: totalAtEnd(amount, accrued),
  };
  if (input.startedAt !== undefined) terms.endsAt = depositEndsAt(input.startedAt, input.durationDays).toISOString();
  return terms;
}

export interface PlanLimits {
  minAmount: string;
  maxAmount: string;
  currency: Currency;
}

/**
 * The amount rule (docs/cabinet-rules.md#field-rules) for the deposit form and the server: negative →
 * `amountNegative`; zero or below the plan's minimum (after truncation to the scale) → `amountBelowMinimum`;
 * above its maximum → `amountAboveMaximum`; else null.
 */
export function depositAmountIssue(
  amount: string,
  plan: PlanLimits,
): Extract<ValidationCode, "amountNegative" | "amountBelowMinimum" | "amountAboveMaximum"> | null {
  if (compareAmounts(amount, 0) < 0) return "amountNegative";
  const principal = depositPrincipal(amount, plan.currency);
  if (compareAmounts(principal, 0) <= 0 || compareAmounts(principal, plan.minAmount) < 0) return "amountBelowMinimum";
  if (compareAmounts(principal, plan.maxAmount) > 0) return "amountAboveMaximum";
  return null;
}

/** What closing a deposit early does: the principal comes back, the held accruals are forfeited. */
export function depositCloseOutcome(deposit: { amount: string; accruedHeld: string }): {
  returned: string;
  forfeited: string;
} {
  return { returned: toDecimalString(deposit.amount), forfeited: toDecimalString(deposit.accruedHeld) };
}
