/**
 * The ledger (docs/decisions.md#d3-money): every change of a balance is one `operations` row written in the same
 * transaction as the change, so a balance always equals the sum of its operations.
 *
 * - A credit is an upsert (`amount = amount + x`).
 * - A debit is a conditional update, `… set amount = amount - x where … and amount >= x returning`:
 *   PostgreSQL re-checks the condition on the latest row version after waiting for a concurrent
 *   writer, so two spends of the same funds can never both pass; no row back is 409
 *   INSUFFICIENT_FUNDS. The CHECK (amount >= 0) on `balances` is the last line of defence.
 * - Amounts are decimal strings on the currency's scale; arithmetic happens in SQL numeric.
 *
 * A transaction that touches two balance rows of one user (the exchange) posts them in currency
 * order, so two such transactions lock rows in the same order and cannot deadlock.
 */
import {
  type BalanceReply,
  CURRENCY_CODES,
  type Currency,
  type CurrencyAmounts,
  Currency as CurrencySchema,
  DEFAULT_BALANCE_TYPE,
  DEFAULT_CURRENCY,
  fitsScale,
  type LedgerOperationType,
  money,
  toDecimalString,
} from "@contract";
import { and, eq, sql } from "drizzle-orm";
import { type Awaitable, type KeptLink, keptOf, userChanging } from "../db/change-feed";
import type { Database } from "../db/client";
import { balances, operations, users } from "../db/schema";
import { normalizeDecimal } from "../decimal";
import { AppError } from "../errors";

export interface Posting {
  userId: string;
  currency: Currency;
  type: LedgerOperationType;
  /** Signed decimal string on the currency's scale: credits positive, debits negative; never zero. */
  amount: string;
  depositId?: string | null;
  refillId?: string | null;
  meta?: Record<string, unknown> | null;
  at: Date;
}

export interface Posted {
  operationId: string;
  /** The balance after the posting. */
  balance: string;
}

/** SQLSTATE 23514 (check_violation) on the balances' non-negative rule, from either driver. */
function isNegativeBalanceViolation(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const c = e as { code?: unknown; constraint?: unknown; constraint_name?: unknown };
    if (c.code === "23514" && (c.constraint ?? c.constraint_name) === "balances_amount_non_negative") return true;
  }
  return false;
}

/**
 * Applies one posting to the balance and records its operation. Call it inside a transaction
 * (`tx`) together with whatever else the change belongs to; a refused debit throws 409
 * INSUFFICIENT_FUNDS and the transaction rolls back.
 */
export async function post(tx: Database, posting: Posting): Promise<Posted> {
  const { userId, currency, at } = posting;
  userChanging(userId);
  const value = money(posting.amount);
  if (value.eq(0)) throw new Error("a ledger posting cannot be zero");
  if (!fitsScale(value, currency)) throw new Error(`${posting.amount} has more decimals than ${currency} keeps`);

  let balance: string | undefined;
  if (value.gt(0)) {
    const x = toDecimalString(value);
    const rows = await tx
      .insert(balances)
      .values({ userId, currency, amount: x, updatedAt: at })
      .onConflictDoUpdate({
        target: [balances.userId, balances.currency],
        set: { amount: sql`${balances.amount} + excluded.amount`, updatedAt: at },
      })
      .returning({ amount: balances.amount });
    balance = rows[0]?.amount;
  } else {
    const x = toDecimalString(value.abs());
    try {
      const rows = await tx
        .update(balances)
        .set({ amount: sql`${balances.amount} - ${x}::numeric`, updatedAt: at })
        .where(
          and(eq(balances.userId, userId), eq(balances.currency, currency), sql`${balances.amount} >= ${x}::numeric`),
        )
        .returning({ amount: balances.amount });
      balance = rows[0]?.amount;
    } catch (error) {
      if (isNegativeBalanceViolation(error)) throw new AppError("INSUFFICIENT_FUNDS", { cause: error });
      throw error;
    }
    if (balance === undefined) throw new AppError("INSUFFICIENT_FUNDS");
  }
  if (balance === undefined) throw new Error("balance row missing after a credit");

  const [row] = await tx
    .insert(operations)
    .values({
      userId,
      currency,
      type: posting.type,
      amount: toDecimalString(value),
      depositId: posting.depositId ?? null,
      refillId: posting.refillId ?? null,
      meta: posting.meta ?? null,
      createdAt: at,
    })
    .returning({ id: operations.id });
  if (!row) throw new Error("operation not recorded");
  return { operationId: row.id, balance: normalizeDecimal(balance) };
}

/** Posts several changes of one transaction in currency order (see the module comment). */
export async function postAll(tx: Database, postings: Posting[]): Promise<Posted[]> {
  const order = postings
    .map((p, i) => ({ p, i }))
    .sort((a, b) => a.p.currency.localeCompare(b.p.currency) || a.i - b.i);
  const results: Posted[] = new Array(postings.length);
  for (const { p, i } of order) results[i] = await post(tx, p);
  return results;
}

export function zeroAmounts(): CurrencyAmounts {
  return { USDT: "0", BTC: "0", ETH: "0", TON: "0" };
}

/** Every currency's balance of a user ("0" for currencies never held). */
export async function getBalances(db: Database, userId: string): Promise<CurrencyAmounts> {
  return { ...((await userMoney(db, userId))?.currencies ?? zeroAmounts()) };
}

/**
 * A user's money as the app keeps it (`kept.balances`, one entry a user): `GET /user/balance`'s reply itself — every
 * currency's balance and the currency the cabinet shows first (the user's row, `current_currency`), read in one
 * statement. Both move with `user:<id>` (an operation posted, the row updated), so this one entry answers the call
 * whole: the route keeps two entries an investor (the session and this), not the user's whole row besides for one
 * field (docs/database.md, "What the server keeps in memory"), and the reply's JSON is made once while it stays
 * (routes/reply-json.ts). Undefined when the user does not exist (not kept). Frozen: every caller shares it. At once
 * (not a promise) when kept; through `link` (the caller's session) without a lookup in the cache's map.
 */
export function userMoney(db: Database, userId: string, link?: KeptLink): Awaitable<BalanceReply | undefined> {
  const kept = keptOf(db);
  if (kept)
    return kept.balances.get(userId, () => readUserMoney(db, userId), link) as Awaitable<BalanceReply | undefined>;
  return readUserMoney(db, userId);
}

/** The balances and the current currency from the tables; the app keeps them until the user changes. */
async function readUserMoney(db: Database, userId: string): Promise<BalanceReply | undefined> {
  const rows = await db
    .select({ currentCurrency: users.currentCurrency, currency: balances.currency, amount: balances.amount })
    .from(users)
    .leftJoin(balances, eq(balances.userId, users.id))
    .where(eq(users.id, userId));
  const first = rows[0];
  if (!first) return undefined;
  const currencies = zeroAmounts();
  for (const row of rows) {
    if (row.currency !== null && row.amount !== null && (CURRENCY_CODES as string[]).includes(row.currency)) {
      currencies[row.currency as Currency] = normalizeDecimal(row.amount);
    }
  }
  const current = CurrencySchema.safeParse(first.currentCurrency);
  return Object.freeze({
    type: DEFAULT_BALANCE_TYPE,
    currentCurrency: current.success ? current.data : DEFAULT_CURRENCY,
    currencies: Object.freeze(currencies),
  });
}

export interface LedgerDiscrepancy {
  userId: string;
  currency: string;
  balance: string;
  operationsSum: string;
}

/**
 * Checks the invariant over the whole database: for every user and currency, the balance equals
 * the sum of its operations (a missing balance row counts as 0) and no balance is negative.
 * Returns the pairs that break it (none, always).
 */
export async function auditLedger(db: Database): Promise<LedgerDiscrepancy[]> {
  // One statement: the sums and the balances side by side in the database, only the pairs that differ sent back.
  const sums = db
    .select({
      userId: operations.userId,
      currency: operations.currency,
      total: sql<string>`sum(${operations.amount})`.as("total"),
    })
    .from(operations)
    .groupBy(operations.userId, operations.currency)
    .as("sums");
  const balance = sql`coalesce(${balances.amount}, 0)`;
  const total = sql`coalesce(${sums.total}, 0)`;
  const rows = await db
    .select({
      userId: sql<string>`coalesce(${balances.userId}, ${sums.userId})`,
      currency: sql<string>`coalesce(${balances.currency}, ${sums.currency})`,
      balance: sql<string>`${balance}::text`,
      operationsSum: sql<string>`${total}::text`,
    })
    .from(balances)
    .fullJoin(sums, and(eq(sums.userId, balances.userId), eq(sums.currency, balances.currency)))
    .where(sql`${balance} <> ${total} or ${balance} < 0`);
  return rows.map((e) => ({
    userId: String(e.userId),
    currency: e.currency,
    balance: normalizeDecimal(e.balance),
    operationsSum: normalizeDecimal(e.operationsSum),
  }));
}
