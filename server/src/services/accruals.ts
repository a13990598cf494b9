/**
 * Daily accruals (docs/decisions.md#d6-deposits). Day k (1…durationDays) of a deposit is due at startedAt + k × 24 h
 * and accrues `dailyIncome` into the deposit's held accruals, not the balance. Each deposit-day is
 * one `accruals` row, UNIQUE(deposit_id, day_index), written while the deposit row is locked, so
 * a re-run or two schedulers at once can never accrue a day twice; a run after downtime catches up
 * every day missed. When the last day is accrued the deposit completes and pays out in the same
 * transaction: an `accrual` operation for the held total and a `deposit_return` for the principal,
 * or, with auto-investment, a new deposit on the same plan for principal + accruals (see
 * `completeDeposit`).
 */
import { addAmounts, type Currency, compareAmounts, DAY_MS, daysDue, depositAmountIssue } from "@contract";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Clock } from "../clock";
import { userChanging } from "../db/change-feed";
import type { Database } from "../db/client";
import { accruals, deposits, plans } from "../db/schema";
import { normalizeDecimal } from "../decimal";
import { type DepositRow, insertDeposit } from "./deposit-rows";
import { post } from "./ledger";
import { notify } from "./notifications";

export interface DepositAccrual {
  /** Days accrued by this call. */
  days: number;
  completed: boolean;
  /** The deposit auto-investment opened, when it did. */
  reinvestedInto: string | null;
  /** The deposit after the call. */
  row: DepositRow;
}

/**
 * Accrues the days of `row` that are due at `now` and completes it when its term is over. `row`
 * must be an active deposit locked (`for update`) by the caller's transaction `tx`.
 */
export async function accrueLocked(tx: Database, row: DepositRow, now: Date): Promise<DepositAccrual> {
  let current = row;
  let days = 0;
  const due = daysDue(row.startedAt, now, row.durationDays);
  if (due > row.daysAccrued) {
    // The user's pulse and balances move (the change feed hears the commit; this process drops them now).
    userChanging(row.userId);
    const values = [];
    for (let day = row.daysAccrued + 1; day <= due; day++) {
      values.push({
        depositId: row.id,
        dayIndex: day,
        amount: row.dailyIncome,
        dueAt: new Date(row.startedAt.getTime() + day * DAY_MS),
        createdAt: now,
      });
    }
    const inserted = await tx
      .insert(accruals)
      .values(values)
      .onConflictDoNothing({ target: [accruals.depositId, accruals.dayIndex] })
      .returning({ dayIndex: accruals.dayIndex });
    days = inserted.length;
    // Held accruals are the sum of the deposit's accrual rows, by construction.
    const [updated] = await tx
      .update(deposits)
      .set({
        daysAccrued: due,
        accruedHeld: sql`(select coalesce(sum(${accruals.amount}), 0) from ${accruals} where ${accruals.depositId} = ${row.id})`,
      })
      .where(eq(deposits.id, row.id))
      .returning();
    if (!updated) throw new Error("deposit vanished while locked");
    current = updated;
  }
  if (current.daysAccrued < current.durationDays) return { days, completed: false, reinvestedInto: null, row: current };
  const completed = await completeDeposit(tx, current);
  return { days, completed: true, reinvestedInto: completed.reinvestedInto, row: completed };
}

/**
 * Pays out a deposit whose every day is accrued. The operations are dated at the end of the term
 * (`ends_at`), also when a catch-up pays them later. With auto-investment, principal + held
 * accruals open a new deposit on the same plan starting at the end of this one, when the plan is
 * still active, in the same currency, and the sum is within its minimum and maximum; otherwise
 * the deposit pays out as without auto-investment.
 */
async function completeDeposit(tx: Database, row: DepositRow): Promise<DepositRow> {
  const currency = row.currency as Currency;
  const at = row.endsAt;
  const principal = normalizeDecimal(row.amount);
  const held = normalizeDecimal(row.accruedHeld);
  const total = addAmounts(principal, held);

  let reinvestPlan: typeof plans.$inferSelect | undefined;
  if (row.autoInvest) {
    const [plan] = await tx.select().from(plans).where(eq(plans.id, row.planId)).limit(1);
    if (plan?.active && plan.currency === currency && depositAmountIssue(total, { ...plan, currency }) === null) {
      reinvestPlan = plan;
    }
  }

  if (compareAmounts(held, 0) > 0) {
    await post(tx, {
      userId: row.userId,
      currency,
      type: "accrual",
      amount: held,
      depositId: row.id,
      meta: { planId: row.planId, days: row.daysAccrued, ...(row.caseId ? { caseId: row.caseId } : {}) },
      at,
    });
  }
  await post(tx, {
    userId: row.userId,
    currency,
    type: "deposit_return",
    amount: principal,
    depositId: row.id,
    meta: { planId: row.planId, ...(row.caseId ? { caseId: row.caseId } : {}) },
    at,
  });

  let reinvestedInto: string | null = null;
  if (reinvestPlan) {
    const next = await insertDeposit(tx, {
      userId: row.userId,
      plan: reinvestPlan,
      amount: total,
      autoInvest: true,
      caseId: row.caseId,
      startedAt: row.endsAt,
      at,
    });
    reinvestedInto = next.id;
  }

  const [done] = await tx
    .update(deposits)
    .set({
      status: "completed",
      closedAt: row.endsAt,
      returned: reinvestedInto ? null : principal,
      reinvestedInto,
    })
    .where(eq(deposits.id, row.id))
    .returning();
  if (!done) throw new Error("deposit vanished while locked");
  const [plan] = await tx.select({ name: plans.name }).from(plans).where(eq(plans.id, row.planId)).limit(1);
  await notify(
    tx,
    row.userId,
    "deposit_ended",
    {
      plan: plan?.name.en ?? row.planId,
      ...(plan ? { plan_ru: plan.name.ru, plan_de: plan.name.de, plan_kk: plan.name.kk } : {}),
      amount: principal,
      income: held,
      currency,
      depositId: row.id,
    },
    at,
  );
  return done;
}

/** Locks one deposit and accrues it in its own transaction; null when it is not active (any more). */
async function accrueDeposit(db: Database, depositId: string, now: Date): Promise<DepositAccrual | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(deposits).where(eq(deposits.id, depositId)).for("update");
    if (row?.status !== "active") return null;
    return accrueLocked(tx, row, now);
  });
}

export interface AccrualRun {
  /** When the run counted days up to. */
  now: string;
  /** Deposits that had days due. */
  deposits: number;
  /** Deposit-days accrued. */
  days: number;
  /** Deposits that completed (paid out or reinvested). */
  completed: number;
  reinvested: number;
  /** Deposits that failed (logged; retried on the next run). */
  failed: { depositId: string; error: string }[];
}

export interface RunAccrualsOptions {
  /** Only this user's deposits. */
  userId?: string;
  /** Called for a deposit that failed, with the error. */
  onError?: (depositId: string, error: unknown) => void;
}

/**
 * Accrues every active deposit's due days at the clock's now, each deposit in its own transaction.
 * Safe to run at any time, repeatedly, and from several processes at once.
 */
export async function runAccruals(db: Database, clock: Clock, options: RunAccrualsOptions = {}): Promise<AccrualRun> {
  const now = clock.now();
  const run: AccrualRun = { now: now.toISOString(), deposits: 0, days: 0, completed: 0, reinvested: 0, failed: [] };
  const attempted = new Set<string>();
  // Rounds: a reinvested deposit starts where the old one ended and may itself be due already.
  for (;;) {
    const conditions = [
      eq(deposits.status, "active"),
      sql`${deposits.startedAt} + (${deposits.daysAccrued} + 1) * interval '86400 seconds' <= ${now.toISOString()}::timestamptz`,
    ];
    if (options.userId) conditions.push(eq(deposits.userId, options.userId));
    const due = await db
      .select({ id: deposits.id })
      .from(deposits)
      .where(and(...conditions))
      .orderBy(asc(deposits.startedAt), asc(deposits.id));
    const fresh = due.filter((d) => !attempted.has(d.id));
    if (fresh.length === 0) break;
    for (const { id } of fresh) {
      attempted.add(id);
      try {
        const result = await accrueDeposit(db, id, now);
        if (!result) continue;
        if (result.days > 0 || result.completed) run.deposits += 1;
        run.days += result.days;
        if (result.completed) run.completed += 1;
        if (result.reinvestedInto) run.reinvested += 1;
      } catch (error) {
        run.failed.push({ depositId: id, error: error instanceof Error ? error.message : String(error) });
        options.onError?.(id, error);
      }
    }
  }
  return run;
}
