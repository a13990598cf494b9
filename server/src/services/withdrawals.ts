/**
 * Withdrawals (docs/decisions.md#d6-withdrawals; docs/api-money.md, "Withdrawals"). A request checks, in this order:
 * the payment system (known and open for withdrawals), a wallet for it (NO_WITHDRAWAL_WALLET), a
 * past replenished refill and a deposit (DEPOSIT_AND_REFILL_REQUIRED / DEPOSIT_REQUIRED), the
 * amount within the system's min/max; then, in one transaction, the amount leaves the balance (a
 * conditional debit: INSUFFICIENT_FUNDS) and the application is written as `awaiting_code`; then
 * a code (purpose `withdrawal`, target the application) goes out through the user's channel.
 * The validated code makes it `pending`; the operator moves it on. Cancelled (by the user, while
 * awaiting its code), rejected and error give the amount back with a reversing `withdrawal`
 * operation.
 */
import {
  type CodeSentReply,
  type Currency,
  compareAmounts,
  DAY_MS,
  money,
  roundDown,
  toDecimalString,
  type Withdrawal,
  type WithdrawalRequestBody,
  type WithdrawalRequestReply,
  type WithdrawalStatus,
  type WithdrawalsQuery,
  type WithdrawalsReply,
} from "@contract";
import { and, count, desc, eq, gte, inArray, lt, lte, ne, sql } from "drizzle-orm";
import type { ServiceContext } from "../context";
import { userChanging } from "../db/change-feed";
import type { Database } from "../db/client";
import {
  type CodePurpose,
  deposits,
  paymentSystems,
  refills,
  users,
  verificationCodes,
  type WithdrawalRowStatus,
  wallets,
  withdrawals,
} from "../db/schema";
import { normalizeDecimal } from "../decimal";
import { AppError } from "../errors";
import type { RequestMeta } from "./auth";
import { issueCode, verifyCode } from "./codes";
import { isUuid } from "./deposit-rows";
import { post } from "./ledger";
import { type NoticeSenderDeps, queueNotice, sendNoticesNow } from "./notice-outbox";
import { notify } from "./notifications";
import { getSetting } from "./settings";
import { lockUser, type UserRow } from "./users";

export type WithdrawalRow = typeof withdrawals.$inferSelect;

/** Applications a user may have awaiting their code at once (abandoned ones hold funds). */
export const MAX_AWAITING_WITHDRAWALS = 5;

/**
 * Wrong withdrawal codes a user may enter within a day, whatever ends each application (a voided
 * code, a cancel, an expiry): the one that spends the budget locks the user's withdrawals for
 * WITHDRAWAL_LOCK_MS (WITHDRAWALS_LOCKED, and the user is told by a notification and in the chat).
 * Counted from the codes themselves (their wrong tries), so cancelling and applying again resets nothing.
 */
export const WITHDRAWAL_WRONG_CODES_PER_DAY = 15;
const WITHDRAWAL_LOCK_MS = 24 * 3600_000;

const lockedError = (until: Date) => new AppError("WITHDRAWALS_LOCKED", { params: { until: until.toISOString() } });

/** 403 WITHDRAWALS_LOCKED while the user's withdrawals are locked. */
export async function assertWithdrawalsOpen(deps: Pick<ServiceContext, "db" | "clock">, userId: string): Promise<void> {
  const [user] = await deps.db
    .select({ until: users.withdrawalsLockedUntil })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (user?.until && user.until.getTime() > deps.clock.now().getTime()) throw lockedError(user.until);
}

/**
 * The wrong withdrawal codes of `user` within the last day (since the end of the last lock, when
 * that is later): the wrong tries of every withdrawal and withdrawal wallet code issued since then.
 */
async function wrongCodesToday(tx: Database, user: UserRow, now: Date): Promise<number> {
  const since = new Date(Math.max(now.getTime() - WITHDRAWAL_LOCK_MS, user.withdrawalsLockedUntil?.getTime() ?? 0));
  const [row] = await tx
    .select({ n: sql<number>`coalesce(sum(${verificationCodes.attempts}), 0)::int` })
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.userId, user.id),
        inArray(verificationCodes.purpose, WITHDRAWAL_CODE_PURPOSES),
        gte(verificationCodes.createdAt, since),
      ),
    );
  return Number(row?.n ?? 0);
}

/** Locks the user's withdrawals for WITHDRAWAL_LOCK_MS from `now` and tells the user. Returns the lock's end. */
async function lockWithdrawals(tx: Database, userId: string, now: Date): Promise<Date> {
  const until = new Date(now.getTime() + WITHDRAWAL_LOCK_MS);
  userChanging(userId);
  await tx.update(users).set({ withdrawalsLockedUntil: until }).where(eq(users.id, userId));
  await notify(
    tx,
    userId,
    "withdrawals_locked",
    { lockedUntil: until.toISOString().slice(0, 16).replace("T", " ") },
    now,
  );
  return until;
}

/**
 * The status the user sees (docs/decisions.md#withdrawal-statuses-inside-the-server): an application awaiting
 * its code reads `pending` (flagged).
 */
function publicStatus(status: WithdrawalRowStatus): WithdrawalStatus {
  return status === "awaiting_code" || status === "cancelled" ? "pending" : status;
}

export function toWithdrawal(row: WithdrawalRow): Withdrawal {
  return {
    id: row.id,
    status: publicStatus(row.status),
    awaitingCode: row.status === "awaiting_code",
    paymentSystemId: row.paymentSystemId,
    currency: row.currency as Currency,
    network: row.network,
    wallet: row.wallet,
    amount: normalizeDecimal(row.amount),
    fee: normalizeDecimal(row.fee),
    amountToReceive: normalizeDecimal(row.amountToReceive),
    txHash: row.txHash,
    createdAt: row.createdAt.toISOString(),
    processedAt: row.processedAt ? row.processedAt.toISOString() : null,
    // The operator's note on a decision (a cancellation's is the system's own, not shown).
    note: row.status === "cancelled" || !row.note?.trim() ? null : row.note.trim(),
  };
}

/**
 * Whether the user may withdraw: a replenished refill and a deposit, refused with the cabinet's two messages
 * (docs/cabinet-rules.md#access).
 */
async function checkEligibility(db: Database, userId: string): Promise<void> {
  const [refill] = await db
    .select({ id: refills.id })
    .from(refills)
    .where(and(eq(refills.userId, userId), eq(refills.status, "replenished")))
    .limit(1);
  const [deposit] = await db.select({ id: deposits.id }).from(deposits).where(eq(deposits.userId, userId)).limit(1);
  if (deposit && refill) return;
  // A refill without a deposit: only the deposit is missing. Anything else (neither, or a deposit
  // paid from referral income without any refill) lacks the refill: the message naming both.
  if (refill) throw new AppError("DEPOSIT_REQUIRED");
  throw new AppError("DEPOSIT_AND_REFILL_REQUIRED");
}

/** roundDown(amount × feePercent / 100) on the currency's scale. */
function withdrawalFee(amount: string, feePercent: string, currency: Currency): string {
  return roundDown(money(amount).times(feePercent).div(100), currency);
}

/** `POST /funds/payments/request` (and the older `POST /funds/payments`). */
export async function requestWithdrawal(
  deps: ServiceContext,
  userId: string,
  body: WithdrawalRequestBody,
): Promise<WithdrawalRequestReply> {
  const { db } = deps;
  await assertWithdrawalsOpen(deps, userId);
  const [system] = await db.select().from(paymentSystems).where(eq(paymentSystems.id, body.paymentSystemId)).limit(1);
  if (!system?.withdrawalEnabled) {
    throw new AppError("VALIDATION_FAILED", { fields: { paymentSystemId: "required" } });
  }
  const [wallet] = await db
    .select({ address: wallets.address })
    .from(wallets)
    .where(and(eq(wallets.userId, userId), eq(wallets.paymentSystemId, system.id)))
    .limit(1);
  if (!wallet) throw new AppError("NO_WITHDRAWAL_WALLET");
  await checkEligibility(db, userId);

  const currency = system.currency as Currency;
  if (compareAmounts(body.amount, 0) < 0)
    throw new AppError("VALIDATION_FAILED", { fields: { amount: "amountNegative" } });
  const amount = roundDown(body.amount, currency);
  if (compareAmounts(amount, 0) <= 0 || compareAmounts(amount, system.minWithdrawal) < 0) {
    throw new AppError("VALIDATION_FAILED", { fields: { amount: "amountBelowMinimum" } });
  }
  if (compareAmounts(amount, system.maxWithdrawal) > 0) {
    throw new AppError("VALIDATION_FAILED", { fields: { amount: "amountAboveMaximum" } });
  }
  const fee = withdrawalFee(amount, system.withdrawalFeePercent, currency);
  const amountToReceive = toDecimalString(money(amount).minus(fee));

  const now = deps.clock.now();
  const row = await db.transaction(async (tx) => {
    // The cap counts under the user's row lock: concurrent requests of one user queue here.
    const user = await lockUser(tx, userId);
    if (!user) throw new AppError("SESSION_TIMEOUT");
    const [awaiting] = await tx
      .select({ n: count() })
      .from(withdrawals)
      .where(and(eq(withdrawals.userId, userId), eq(withdrawals.status, "awaiting_code")));
    if ((awaiting?.n ?? 0) >= MAX_AWAITING_WITHDRAWALS) throw new AppError("RATE_LIMITED");
    const [created] = await tx
      .insert(withdrawals)
      .values({
        userId,
        paymentSystemId: system.id,
        currency,
        network: system.network,
        wallet: wallet.address,
        amount,
        fee,
        amountToReceive,
        status: "awaiting_code",
        createdAt: now,
      })
      .returning();
    if (!created) throw new Error("withdrawal not recorded");
    // Reserved at once: the conditional debit refuses (409) what the balance cannot pay.
    await post(tx, {
      userId,
      currency,
      type: "withdrawal",
      amount: `-${amount}`,
      meta: { withdrawalId: created.id, paymentSystemId: system.id, fee },
      at: now,
    });
    return created;
  });

  let code: CodeSentReply;
  try {
    code = await sendCode(deps, userId, row.id);
  } catch (error) {
    // Nobody can confirm an application whose code did not go out: give the funds back.
    await returnFunds(deps, row.id, ["awaiting_code"], "cancelled", { note: "code not sent" });
    throw error;
  }
  return { withdrawal: toWithdrawal(row), code };
}

async function sendCode(deps: ServiceContext, userId: string, withdrawalId: string): Promise<CodeSentReply> {
  const [user] = await deps.db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw new AppError("SESSION_TIMEOUT");
  const sent = await issueCode(deps, user, "withdrawal", { target: withdrawalId, scope: "target" });
  if (!sent) throw new Error("a withdrawal code is never skipped");
  return sent;
}

async function ownWithdrawal(db: Database, userId: string, id: string): Promise<WithdrawalRow> {
  if (!isUuid(id)) throw new AppError("NOT_FOUND");
  const [row] = await db
    .select()
    .from(withdrawals)
    .where(and(eq(withdrawals.id, id), eq(withdrawals.userId, userId)))
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND");
  return row;
}

/** The codes that guard money leaving: a withdrawal's, and a withdrawal wallet's. They share one budget. */
export const WITHDRAWAL_CODE_PURPOSES = ["withdrawal", "wallet"] as const satisfies readonly CodePurpose[];

/**
 * One entry of a withdrawal's code (purpose `withdrawal`, `target` the application) or a withdrawal
 * wallet's (purpose `wallet`, `target` the addresses) under the budgets every such entry shares:
 * RATE_LIMIT_WITHDRAWAL_CODE_ACCOUNT / _IP, and the day's WITHDRAWAL_WRONG_CODES_PER_DAY (wrong tries
 * of both purposes), whose last wrong code locks the user's withdrawals. Resolves when the code was
 * right (it is used up); `precheck` runs first, inside the budgets.
 */
export async function enterWithdrawalCode(
  deps: ServiceContext,
  userId: string,
  meta: RequestMeta,
  code: string,
  { purpose, target }: { purpose: (typeof WITHDRAWAL_CODE_PURPOSES)[number]; target: string },
  precheck: () => Promise<void> = async () => {},
): Promise<void> {
  const { db } = deps;
  const limits = deps.env.RATE_LIMITS;
  const accountKey = `withdrawal-code-account:${userId}`;
  const ipKey = `withdrawal-code-ip:${meta.ip}`;
  await assertWithdrawalsOpen(deps, userId);
  // Each entry takes a point of both budgets atomically (parallel guesses cannot slip past a
  // check); all but a wrong code give it back.
  await deps.limiter.consume(accountKey, limits.withdrawalCodeAccount);
  try {
    await deps.limiter.consume(ipKey, limits.withdrawalCodeIp);
  } catch (error) {
    await deps.limiter.refund(accountKey, limits.withdrawalCodeAccount);
    throw error;
  }
  let wrong = false;
  try {
    await precheck();
    // The refusal is returned, not thrown, so the wrong try it counted is committed with the lock.
    const refusal = await db.transaction(async (tx): Promise<AppError | null> => {
      const user = await lockUser(tx, userId);
      if (!user) return new AppError("SESSION_TIMEOUT");
      const now = deps.clock.now();
      if (user.withdrawalsLockedUntil && user.withdrawalsLockedUntil.getTime() > now.getTime()) {
        return lockedError(user.withdrawalsLockedUntil);
      }
      if ((await wrongCodesToday(tx, user, now)) >= WITHDRAWAL_WRONG_CODES_PER_DAY) {
        return lockedError(await lockWithdrawals(tx, userId, now));
      }
      try {
        await verifyCode({ ...deps, db: tx }, userId, purpose, code, target, "target");
        return null;
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        if (error.code !== "CODE_MISMATCH") return error;
        wrong = true;
        if ((await wrongCodesToday(tx, user, now)) < WITHDRAWAL_WRONG_CODES_PER_DAY) return error;
        return lockedError(await lockWithdrawals(tx, userId, now));
      }
    });
    if (refusal) throw refusal;
  } finally {
    if (!wrong) {
      await deps.limiter.refund(accountKey, limits.withdrawalCodeAccount);
      await deps.limiter.refund(ipKey, limits.withdrawalCodeIp);
    }
  }
}

/**
 * `POST /funds/payments/validate`. The code of that application: wrong → CODE_MISMATCH (with
 * `attemptsLeft`), too old → CODE_EXPIRED, used, voided (5 wrong tries), absent or the
 * application no longer awaiting it → CODE_INVALID. Another user's or an unknown id → CODE_INVALID
 * too (the call reveals nothing about other users' applications).
 * Guessing is bounded across applications (cancelling and applying again resets nothing): wrong
 * codes per user and per client address (RATE_LIMIT_WITHDRAWAL_CODE_ACCOUNT / _IP, 429
 * RATE_LIMITED), and the WITHDRAWAL_WRONG_CODES_PER_DAY-th wrong code within a day locks the
 * user's withdrawals for a day (403 WITHDRAWALS_LOCKED, the user told). A user's entries are
 * judged one at a time (under the user's row lock), so parallel guesses cannot pass the day's budget.
 */
export async function validateWithdrawal(
  deps: ServiceContext,
  userId: string,
  withdrawalId: string,
  code: string,
  meta: RequestMeta,
): Promise<Withdrawal> {
  const { db } = deps;
  await enterWithdrawalCode(deps, userId, meta, code, { purpose: "withdrawal", target: withdrawalId }, async () => {
    if (!isUuid(withdrawalId)) throw new AppError("CODE_INVALID");
    const [row] = await db
      .select({ status: withdrawals.status })
      .from(withdrawals)
      .where(and(eq(withdrawals.id, withdrawalId), eq(withdrawals.userId, userId)))
      .limit(1);
    if (row?.status !== "awaiting_code") throw new AppError("CODE_INVALID");
  });
  const now = deps.clock.now();
  const [confirmed] = await db
    .update(withdrawals)
    .set({ status: "pending", confirmedAt: now })
    .where(and(eq(withdrawals.id, withdrawalId), eq(withdrawals.status, "awaiting_code")))
    .returning();
  // Cancelled between the check and the code.
  if (!confirmed) throw new AppError("CODE_INVALID");
  return toWithdrawal(confirmed);
}

/** `POST /funds/payments/:id/resend` (added): a new code after the resend wait (429 before it). */
export async function resendWithdrawalCode(deps: ServiceContext, userId: string, id: string): Promise<CodeSentReply> {
  const row = await ownWithdrawal(deps.db, userId, id);
  if (row.status !== "awaiting_code") throw new AppError("CODE_INVALID");
  await assertWithdrawalsOpen(deps, userId);
  return sendCode(deps, userId, row.id);
}

/**
 * Moves an application from one of `from` to `to` and gives its amount back with a
 * `withdrawal_return` operation, in one transaction (the row locked). Returns null when it is in
 * another status.
 */
async function returnFunds(
  deps: Pick<ServiceContext, "db" | "clock">,
  id: string,
  from: WithdrawalRowStatus[],
  to: "cancelled" | "rejected" | "error",
  extra: { note?: string | undefined; userId?: string; notify?: WithdrawalOutcome } = {},
): Promise<WithdrawalRow | null> {
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(withdrawals)
      .where(and(eq(withdrawals.id, id), extra.userId ? eq(withdrawals.userId, extra.userId) : undefined))
      .for("update");
    if (!row || !from.includes(row.status)) return null;
    const now = deps.clock.now();
    const [updated] = await tx
      .update(withdrawals)
      .set({ status: to, processedAt: now, note: extra.note ?? null })
      .where(eq(withdrawals.id, id))
      .returning();
    if (!updated) throw new Error("withdrawal vanished while locked");
    await post(tx, {
      userId: row.userId,
      currency: row.currency as Currency,
      type: "withdrawal_return",
      amount: normalizeDecimal(row.amount),
      meta: {
        withdrawalId: row.id,
        paymentSystemId: row.paymentSystemId,
        reversal: true,
        status: to,
        // A cancel by the sweeper: the code expired unused (the history names it so).
        ...(extra.notify === "expired" ? { reason: "code_expired" } : {}),
      },
      at: now,
    });
    if (extra.notify) await notifyWithdrawal(tx, updated, now, extra.notify);
    return updated;
  });
}

/**
 * `POST /funds/payments/:id/cancel` (added): an application still awaiting its code (its code
 * expired, voided, or simply not wanted) is cancelled and the amount returns. Later: 400
 * WITHDRAWAL_FAILED (`params.reason`). Another user's: 404.
 */
export async function cancelWithdrawal(deps: ServiceContext, userId: string, id: string): Promise<Withdrawal> {
  const row = await ownWithdrawal(deps.db, userId, id);
  const cancelled = await returnFunds(deps, row.id, ["awaiting_code"], "cancelled", { userId, notify: "cancelled" });
  if (!cancelled) throw new AppError("WITHDRAWAL_FAILED", { params: { reason: "not_awaiting_code" } });
  await tellWithdrawal(deps, cancelled);
  return toWithdrawal(cancelled);
}

/**
 * The sweeper's part (scheduler.ts): applications still awaiting a code once their code's time is
 * over (older than the code's lifetime, and no unexpired code for them) are cancelled with the note
 * "code expired" and their amount returns (the investor told: inbox, chat, e-mail), each in its own transaction like a user's cancel (the
 * ledger stays balance = Σ operations). A code cannot be confirmed after it expired, so nothing is
 * taken from a user who was about to confirm. Returns the applications expired.
 */
export async function expireWithdrawals(
  deps: Pick<ServiceContext, "db" | "clock"> & Partial<NoticeDeps>,
  limit = 500,
): Promise<number> {
  const { db } = deps;
  const settings = await getSetting(db, "codes");
  const now = deps.clock.now();
  const stale = await db
    .select({ id: withdrawals.id })
    .from(withdrawals)
    .where(
      and(
        eq(withdrawals.status, "awaiting_code"),
        lte(withdrawals.createdAt, new Date(now.getTime() - settings.ttlSeconds * 1000)),
        sql`not exists (select 1 from ${verificationCodes} where ${verificationCodes.purpose} = 'withdrawal' and ${verificationCodes.target} = ${withdrawals.id}::text and ${verificationCodes.expiresAt} > ${sql.param(now, verificationCodes.expiresAt)})`,
      ),
    )
    .orderBy(withdrawals.createdAt)
    .limit(limit);
  let expired = 0;
  for (const { id } of stale) {
    const row = await returnFunds(deps, id, ["awaiting_code"], "cancelled", {
      note: "code expired",
      notify: "expired",
    });
    if (!row) continue;
    expired += 1;
    await tellWithdrawal(deps, row);
  }
  return expired;
}

/** A day without a time is the whole UTC day. */
function dayBound(value: string, end: boolean): Date {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const start = new Date(`${value}T00:00:00.000Z`);
    return end ? new Date(start.getTime() + DAY_MS) : start;
  }
  return end ? new Date(new Date(value).getTime() + 1) : new Date(value);
}

/** `GET /funds/payments`: the caller's applications, newest first; cancelled ones are not listed. */
export async function listWithdrawals(
  db: Database,
  userId: string,
  query: WithdrawalsQuery,
): Promise<WithdrawalsReply> {
  const statuses: WithdrawalRowStatus[] | null = query.status
    ? query.status === "pending"
      ? ["pending", "awaiting_code"]
      : [query.status]
    : null;
  const where = and(
    eq(withdrawals.userId, userId),
    ne(withdrawals.status, "cancelled"),
    statuses ? inArray(withdrawals.status, statuses) : undefined,
    query.currency ? eq(withdrawals.currency, query.currency) : undefined,
    query.from ? gte(withdrawals.createdAt, dayBound(query.from, false)) : undefined,
    query.to ? lt(withdrawals.createdAt, dayBound(query.to, true)) : undefined,
  );
  const [total] = await db.select({ n: count() }).from(withdrawals).where(where);
  const rows = await db
    .select()
    .from(withdrawals)
    .where(where)
    .orderBy(desc(withdrawals.createdAt), desc(withdrawals.id))
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
  return { items: rows.map(toWithdrawal), total: total?.n ?? 0, page: query.page, limit: query.limit };
}

// ---------------------------------------------------------------------------------------------
// Operator

export interface OperatorWithdrawal extends Withdrawal {
  login: string;
  /** The internal status (`awaiting_code` and `cancelled` included). */
  state: WithdrawalRowStatus;
  note: string | null;
}

export async function listWithdrawalsForOperator(
  db: Database,
  filter: { status?: WithdrawalRowStatus | undefined; limit?: number | undefined } = {},
): Promise<OperatorWithdrawal[]> {
  const rows = await db
    .select({ w: withdrawals, login: users.login })
    .from(withdrawals)
    .innerJoin(users, eq(users.id, withdrawals.userId))
    .where(filter.status ? eq(withdrawals.status, filter.status) : undefined)
    .orderBy(desc(withdrawals.createdAt), desc(withdrawals.id))
    .limit(filter.limit ?? 100);
  return rows.map((r) => ({ ...toWithdrawal(r.w), login: r.login, state: r.w.status, note: r.w.note }));
}

const notFound = (id: string) => new AppError("NOT_FOUND", { params: { withdrawal: id } });
const wrongStatus = (status: string) =>
  new AppError("UPDATE_FAILED", { params: { error: `the withdrawal is ${status}` } });

async function currentStatus(db: Database, id: string): Promise<WithdrawalRowStatus> {
  const [row] = await db.select({ status: withdrawals.status }).from(withdrawals).where(eq(withdrawals.id, id));
  if (!row) throw notFound(id);
  return row.status;
}

/**
 * What a withdrawal's notice names: its status after an operator's move, or for a cancelled one who cancelled it
 * (`cancelled`, the investor) or that its code expired unused (`expired`, the sweeper).
 */
type WithdrawalOutcome = WithdrawalRowStatus | "expired";

/**
 * Each operator move, the investor's cancel and a code's expiry tell the user (in their language) through a
 * notification (the inbox and the chat).
 */
async function notifyWithdrawal(
  tx: Database,
  row: WithdrawalRow,
  at: Date,
  outcome: WithdrawalOutcome = row.status,
): Promise<void> {
  const params = withdrawalParams(row, outcome);
  await notify(tx, row.userId, "withdrawal_status", params, at);
  // The code channel (e-mail, SMS) hears of it too, unless the chat already does: durably, with the move.
  await queueNotice(tx, row.userId, "withdrawal_status", params);
}

/** The notice queued with the move (`notifyWithdrawal`) is sent now when it can be; else the outbox job sends it. */
async function tellWithdrawal(
  deps: Pick<ServiceContext, "db"> & Partial<NoticeDeps>,
  row: WithdrawalRow,
): Promise<void> {
  await sendNoticesNow(deps, row.userId);
}

/**
 * What a withdrawal's notices say (the inbox, the chat and the e-mail): its outcome, amount and the operator's note
 * (a cancelled one's note is the system's own, not told).
 */
const withdrawalParams = (row: WithdrawalRow, outcome: WithdrawalOutcome = row.status) => ({
  status: outcome,
  amount: normalizeDecimal(row.amount),
  currency: row.currency,
  withdrawalId: row.id,
  ...(row.status !== "cancelled" && row.note?.trim() ? { note: row.note.trim() } : {}),
});

/** How the investor is told at once (the server's code channel, or the CLI's); without it the outbox job tells. */
type NoticeDeps = Pick<NoticeSenderDeps, "codeSender" | "log">;

export type OperatorWithdrawalAction = "inspect" | "success" | "reject" | "error";

/**
 * Operator moves: `inspect` pending → on_inspection; `success` pending | on_inspection → success
 * (needs the transaction hash); `reject` / `error` pending | on_inspection → rejected / error with
 * the amount returned. Anything else is 400 UPDATE_FAILED; an unknown id 404.
 */
export async function processWithdrawal(
  deps: Pick<ServiceContext, "db" | "clock"> & Partial<NoticeDeps>,
  id: string,
  action: OperatorWithdrawalAction,
  options: { txHash?: string | undefined; note?: string | undefined } = {},
): Promise<OperatorWithdrawal> {
  const { db } = deps;
  if (!isUuid(id)) throw notFound(id);
  const open: WithdrawalRowStatus[] = ["pending", "on_inspection"];
  let row: WithdrawalRow | null | undefined;
  if (action === "reject" || action === "error") {
    row = await returnFunds(deps, id, open, action === "reject" ? "rejected" : "error", {
      note: options.note,
      notify: action === "reject" ? "rejected" : "error",
    });
  } else if (action === "inspect") {
    row = await db.transaction(async (tx) => {
      const [moved] = await tx
        .update(withdrawals)
        .set({ status: "on_inspection" })
        .where(and(eq(withdrawals.id, id), eq(withdrawals.status, "pending")))
        .returning();
      if (moved) await notifyWithdrawal(tx, moved, deps.clock.now());
      return moved;
    });
  } else {
    const txHash = options.txHash;
    if (!txHash) throw new AppError("VALIDATION_FAILED", { fields: { txHash: "required" } });
    row = await db.transaction(async (tx) => {
      const now = deps.clock.now();
      const [moved] = await tx
        .update(withdrawals)
        .set({ status: "success", txHash, processedAt: now, note: options.note ?? null })
        .where(and(eq(withdrawals.id, id), inArray(withdrawals.status, open)))
        .returning();
      if (moved) await notifyWithdrawal(tx, moved, now);
      return moved;
    });
  }
  if (!row) throw wrongStatus(await currentStatus(db, id));
  await tellWithdrawal(deps, row);
  const [user] = await db.select({ login: users.login }).from(users).where(eq(users.id, row.userId));
  return { ...toWithdrawal(row), login: user?.login ?? "", state: row.status, note: row.note };
}
