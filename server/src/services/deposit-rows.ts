/** Deposit rows: opening one with a plan's terms (contract/deposit-math.ts) and the contract's shape. */
import { randomUUID } from "node:crypto";
import {
  type Currency,
  type Deposit,
  type DepositStatus,
  depositEndsAt,
  depositTerms,
  type LocalizedText,
  totalAccrued,
  totalAtEnd,
} from "@contract";
import type { Database } from "../db/client";
import { deposits, type plans } from "../db/schema";
import { normalizeDecimal } from "../decimal";
import { post } from "./ledger";

export type DepositRow = typeof deposits.$inferSelect;
type PlanRow = typeof plans.$inferSelect;

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids in paths are checked before they reach SQL (a malformed uuid is "not found", not a 500). */
export const isUuid = (value: string) => UUID_PATTERN.test(value);

export interface NewDeposit {
  userId: string;
  plan: PlanRow;
  /** The principal, already on the currency's scale. */
  amount: string;
  autoInvest: boolean;
  caseId: string | null;
  startedAt: Date;
  /** When the row is written (the clock's now). */
  at: Date;
}

/**
 * Opens a deposit and debits its principal from the balance with a `plan` operation, inside `tx`.
 * A balance too low throws 409 INSUFFICIENT_FUNDS (and the caller's transaction rolls back).
 */
export async function insertDeposit(tx: Database, input: NewDeposit): Promise<DepositRow> {
  const currency = input.plan.currency as Currency;
  const terms = depositTerms({
    amount: input.amount,
    dailyYieldPercent: input.plan.dailyYieldPercent,
    durationDays: input.plan.durationDays,
    currency,
  });
  const id = randomUUID();
  const [row] = await tx
    .insert(deposits)
    .values({
      id,
      userId: input.userId,
      planId: input.plan.id,
      caseId: input.caseId,
      currency,
      amount: terms.amount,
      dailyYieldPercent: input.plan.dailyYieldPercent,
      durationDays: input.plan.durationDays,
      dailyIncome: terms.dailyIncome,
      autoInvest: input.autoInvest,
      status: "active",
      startedAt: input.startedAt,
      endsAt: depositEndsAt(input.startedAt, input.plan.durationDays),
      createdAt: input.at,
    })
    .returning();
  if (!row) throw new Error("deposit not recorded");
  await post(tx, {
    userId: input.userId,
    currency,
    type: "plan",
    amount: `-${terms.amount}`,
    depositId: id,
    meta: { planId: input.plan.id, ...(input.caseId ? { caseId: input.caseId } : {}) },
    at: input.at,
  });
  return row;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const decimalOrNull = (v: string | null) => (v === null ? null : normalizeDecimal(v));

export function toDeposit(row: DepositRow, planName: LocalizedText): Deposit {
  const amount = normalizeDecimal(row.amount);
  const dailyIncome = normalizeDecimal(row.dailyIncome);
  return {
    id: row.id,
    planId: row.planId,
    planName,
    caseId: row.caseId,
    currency: row.currency as Currency,
    amount,
    dailyYieldPercent: normalizeDecimal(row.dailyYieldPercent),
    durationDays: row.durationDays,
    dailyIncome,
    totalAtEnd: totalAtEnd(amount, totalAccrued(dailyIncome, row.durationDays)),
    accruedHeld: normalizeDecimal(row.accruedHeld),
    daysAccrued: row.daysAccrued,
    startedAt: row.startedAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    status: row.status as DepositStatus,
    autoInvest: row.autoInvest,
    closedAt: iso(row.closedAt),
    returned: decimalOrNull(row.returned),
    forfeited: decimalOrNull(row.forfeited),
    reinvestedInto: row.reinvestedInto,
  };
}
