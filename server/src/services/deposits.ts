/**
 * Deposits of the signed-in user (docs/decisions.md#d6-deposits): open one on a plan (the principal leaves the
 * balance as a `plan` operation), list them, close one early (principal back as `deposit_return`,
 * held accruals forfeited). Accruals and the payout at the end are in accruals.ts.
 */
import {
  type Currency,
  compareAmounts,
  type Deposit,
  type DepositCloseBody,
  type DepositCloseReply,
  type DepositCreateBody,
  type DepositsQuery,
  type DepositsReply,
  depositAmountIssue,
  depositPrincipal,
  type LocalizedText,
} from "@contract";
import { and, count, desc, eq, sql } from "drizzle-orm";
import type { ServiceContext } from "../context";
import { catalogRows } from "../db/change-feed";
import type { Database } from "../db/client";
import { deposits, plans } from "../db/schema";
import { normalizeDecimal } from "../decimal";
import { AppError } from "../errors";
import { accrueLocked } from "./accruals";
import { findCryptoCase } from "./crypto-cases";
import { type DepositRow, insertDeposit, isUuid, toDeposit } from "./deposit-rows";
import { post } from "./ledger";
import { payReferralIncome, referralTerms } from "./partners";
import { findUserById } from "./users";

const createFailed = (reason: string) => new AppError("DEPOSIT_CREATE_FAILED", { params: { reason } });
const closeFailed = (reason: string) => new AppError("DEPOSIT_CLOSE_FAILED", { params: { reason } });

type PlanRow = typeof plans.$inferSelect;

/** A plan by id, kept in memory until the catalogue changes (db/change-feed.ts, `catalog`); read from the table otherwise. */
async function planOf(db: Database, planId: string): Promise<PlanRow | undefined> {
  return (await catalogRows(db, "plans", () => db.select().from(plans))).get(planId);
}

async function planName(db: Database, planId: string): Promise<LocalizedText> {
  return (await planOf(db, planId))?.name ?? { en: planId, ru: planId, de: planId, kk: planId };
}

/**
 * Opens a deposit. Refusals, in this order: unknown or inactive plan, a payment currency other
 * than the plan's, or a crypto case that is unknown, inactive or without this plan → 400
 * DEPOSIT_CREATE_FAILED (`params.reason`); an amount out of the plan's limits → 400
 * VALIDATION_FAILED (`fields.amount`); a balance too low → 409 INSUFFICIENT_FUNDS.
 */
export async function openDeposit(
  deps: Pick<ServiceContext, "db" | "clock">,
  userId: string,
  body: DepositCreateBody,
): Promise<Deposit> {
  const { db } = deps;
  // The plan, the case and the partner programme's terms come from memory: the transaction below is the deposit's
  // writes alone, so 32 deposits at once on PGlite's one connection wait for each other's writes only.
  const plan = await planOf(db, body.planId);
  if (!plan?.active) throw createFailed("plan_unavailable");
  const currency = plan.currency as Currency;
  if (body.currency !== currency) throw createFailed("currency_mismatch");
  const caseId = body.caseId ?? null;
  if (caseId) {
    const crypto = await findCryptoCase(db, caseId);
    if (!crypto?.active || !crypto.planIds.includes(plan.id)) throw createFailed("case_unavailable");
  }
  const issue = depositAmountIssue(body.amount, { minAmount: plan.minAmount, maxAmount: plan.maxAmount, currency });
  if (issue) throw new AppError("VALIDATION_FAILED", { fields: { amount: issue } });

  const [terms, depositor] = await Promise.all([referralTerms(db), findUserById(db, userId)]);
  const now = deps.clock.now();
  const row = await db.transaction(async (tx) => {
    const opened = await insertDeposit(tx, {
      userId,
      plan,
      amount: depositPrincipal(body.amount, currency),
      autoInvest: body.autoInvest ?? false,
      caseId,
      startedAt: now,
      at: now,
    });
    // The uplines' referral, matching and bonus income belong to the same transaction (an investor nobody
    // invited has none).
    if (depositor?.inviterId) await payReferralIncome(tx, opened, now, terms);
    return opened;
  });
  return toDeposit(row, plan.name);
}

/** The caller's deposits: the active ones first, then those that ended; each newest first. */
export async function listDeposits(db: Database, userId: string, query: DepositsQuery): Promise<DepositsReply> {
  const where = and(eq(deposits.userId, userId), query.status ? eq(deposits.status, query.status) : undefined);
  const [total] = await db.select({ n: count() }).from(deposits).where(where);
  const rows = await db
    .select({ deposit: deposits, planName: plans.name })
    .from(deposits)
    .innerJoin(plans, eq(plans.id, deposits.planId))
    .where(where)
    // Active ones before those that ended, each newest first.
    .orderBy(
      sql`(${deposits.status} = 'active') desc`,
      desc(deposits.startedAt),
      desc(deposits.createdAt),
      desc(deposits.id),
    )
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
  return {
    items: rows.map((r) => toDeposit(r.deposit, r.planName)),
    total: total?.n ?? 0,
    page: query.page,
    limit: query.limit,
  };
}

type CloseOutcome =
  | { ok: true; row: DepositRow; returned: string; forfeited: string }
  | { ok: false; reason: string; returned?: string; forfeited?: string };

/**
 * Closes the caller's own active deposit early: the principal returns to the balance
 * (`deposit_return`) and the held accruals are forfeited. Days that fell due are accrued first; a
 * deposit whose term is already over completes and pays out in full instead, and the close is
 * refused. Not the caller's, unknown, or not active → 400 DEPOSIT_CLOSE_FAILED. When `expected` names the
 * amounts the investor agreed to and the server's differ (a day accrued since the investor looked), nothing is
 * closed: 400 DEPOSIT_CLOSE_FAILED with `reason` `amounts_changed` and the amounts a close would use now (the
 * accrual itself stays: it was due).
 */
export async function closeDeposit(
  deps: Pick<ServiceContext, "db" | "clock">,
  userId: string,
  depositId: string,
  expected: DepositCloseBody = {},
): Promise<DepositCloseReply> {
  if (!isUuid(depositId)) throw closeFailed("not_found");
  const now = deps.clock.now();
  const outcome = await deps.db.transaction(async (tx): Promise<CloseOutcome> => {
    const [locked] = await tx
      .select()
      .from(deposits)
      .where(and(eq(deposits.id, depositId), eq(deposits.userId, userId)))
      .for("update");
    if (!locked) return { ok: false, reason: "not_found" };
    if (locked.status !== "active") return { ok: false, reason: "not_active" };
    const accrued = await accrueLocked(tx, locked, now);
    // The term ended before the close: it paid out in full (committed), there is nothing to close.
    if (accrued.completed) return { ok: false, reason: "completed" };
    const row = accrued.row;
    const returned = normalizeDecimal(row.amount);
    const forfeited = normalizeDecimal(row.accruedHeld);
    const differs = (agreed: string | undefined, actual: string) =>
      agreed !== undefined && compareAmounts(agreed, actual) !== 0;
    if (differs(expected.returned, returned) || differs(expected.forfeited, forfeited)) {
      return { ok: false, reason: "amounts_changed", returned, forfeited };
    }
    await post(tx, {
      userId,
      currency: row.currency as Currency,
      type: "deposit_return",
      amount: returned,
      depositId: row.id,
      meta: { planId: row.planId, forfeited, early: true, ...(row.caseId ? { caseId: row.caseId } : {}) },
      at: now,
    });
    const [closed] = await tx
      .update(deposits)
      .set({ status: "closed", closedAt: now, returned, forfeited })
      .where(eq(deposits.id, row.id))
      .returning();
    if (!closed) throw new Error("deposit vanished while locked");
    return { ok: true, row: closed, returned, forfeited };
  });
  if (!outcome.ok) {
    const { reason, returned, forfeited } = outcome;
    if (returned === undefined || forfeited === undefined) throw closeFailed(reason);
    throw new AppError("DEPOSIT_CLOSE_FAILED", { params: { reason, returned, forfeited } });
  }
  return {
    deposit: toDeposit(outcome.row, await planName(deps.db, outcome.row.planId)),
    returned: outcome.returned,
    forfeited: outcome.forfeited,
  };
}
