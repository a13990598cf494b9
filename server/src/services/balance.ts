/**
 * The caller's balances, current currency and the cabinet's statistics (user calls,
 * docs/cabinet-rules.md#api-calls).
 */
import { type BalanceReply, type Currency, EARNING_OPERATION_TYPES, type StatisticsReply } from "@contract";
import { and, count, eq, inArray, sql } from "drizzle-orm";
import { type Awaitable, andThen, type KeptLink, userChanging } from "../db/change-feed";
import type { Database } from "../db/client";
import { deposits, operationTotals, referralLineTotals, users } from "../db/schema";
import { normalizeDecimal } from "../decimal";
import { AppError } from "../errors";
import { userMoney, zeroAmounts } from "./ledger";

/**
 * `GET /user/balance`: the kept reply itself (services/ledger.ts, `userMoney`), at once when kept; found through
 * `link` (the caller's kept session) when given.
 */
export function getBalance(db: Database, userId: string, link?: KeptLink): Awaitable<BalanceReply> {
  return andThen(userMoney(db, userId, link), (money) => {
    // The account is gone (sessions cascade with it, so only in a race): the session is over.
    if (!money) throw new AppError("SESSION_TIMEOUT");
    return money;
  });
}

/** `POST /user/balance`: the currency the cabinet shows first. */
export async function setCurrentCurrency(db: Database, userId: string, currency: Currency): Promise<BalanceReply> {
  userChanging(userId);
  await db.update(users).set({ currentCurrency: currency }).where(eq(users.id, userId));
  return getBalance(db, userId);
}

/**
 * `GET /user/statistics`: `earned` is the sum of the income operations (accrual, referral,
 * matching, bonus) per currency, never converted; `referrals` counts the users the caller invited
 * directly; `amountOnDeposit` is the principal of the active deposits per currency; `everDeposited`
 * whether any deposit of the caller exists, whatever its status (one indexed row at most). Both counts
 * and `earned` come from the kept totals (`operation_totals`, `referral_line_totals`), not from
 * the ledger.
 */
export async function getStatistics(db: Database, userId: string): Promise<StatisticsReply> {
  const earned = zeroAmounts();
  const earnedRows = await db
    .select({ currency: operationTotals.currency, total: sql<string>`sum(${operationTotals.credited})::text` })
    .from(operationTotals)
    .where(and(eq(operationTotals.userId, userId), inArray(operationTotals.type, [...EARNING_OPERATION_TYPES])))
    .groupBy(operationTotals.currency);
  for (const r of earnedRows) earned[r.currency as Currency] = normalizeDecimal(r.total);

  const amountOnDeposit = zeroAmounts();
  let activeDeposits = 0;
  const depositRows = await db
    .select({
      currency: deposits.currency,
      n: count(),
      total: sql<string>`sum(${deposits.amount})::text`,
    })
    .from(deposits)
    .where(and(eq(deposits.userId, userId), eq(deposits.status, "active")))
    .groupBy(deposits.currency);
  for (const r of depositRows) {
    amountOnDeposit[r.currency as Currency] = normalizeDecimal(r.total);
    activeDeposits += r.n;
  }

  // With an active deposit, the answer is known; else one row of the user's deposits, if any.
  const everDeposited =
    activeDeposits > 0 ||
    (await db.select({ id: deposits.id }).from(deposits).where(eq(deposits.userId, userId)).limit(1)).length > 0;

  const [invited] = await db
    .select({ n: referralLineTotals.members })
    .from(referralLineTotals)
    .where(and(eq(referralLineTotals.userId, userId), eq(referralLineTotals.line, 1)));
  return {
    currentCurrency: (await getBalance(db, userId)).currentCurrency,
    earned,
    referrals: invited?.n ?? 0,
    activeDeposits,
    amountOnDeposit,
    everDeposited,
  };
}
