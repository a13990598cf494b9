/**
 * Refills (docs/decisions.md#d6-refills). The user picks a payment system and an amount and gets the address to pay
 * to; the refill waits until the operator confirms it (`replenished`, with the amount that actually
 * arrived, credited to the balance by a `refill` operation in the same transaction) or rejects it.
 */
import {
  type Currency,
  compareAmounts,
  type Refill,
  type RefillCreateBody,
  type RefillStatus,
  type RefillsQuery,
  type RefillsReply,
  roundDown,
} from "@contract";
import { and, count, desc, eq, getTableColumns, sql } from "drizzle-orm";
import { PgDialect, type PreparedQueryConfig } from "drizzle-orm/pg-core";
import type { ServiceContext } from "../context";
import { catalogRows } from "../db/change-feed";
import type { Database } from "../db/client";
import { resultRows } from "../db/rows";
import { paymentSystems, refills, users } from "../db/schema";
import { normalizeDecimal } from "../decimal";
import { AppError } from "../errors";
import { isUuid } from "./deposit-rows";
import { post } from "./ledger";
import { notify } from "./notifications";
import { USER_ROW_LOCK } from "./users";

/** A user may have this many refills waiting at once (a guard against piles of abandoned ones). */
export const MAX_WAITING_REFILLS = 20;

type RefillRow = typeof refills.$inferSelect;

function toRefill(row: RefillRow): Refill {
  return {
    id: row.id,
    status: row.status as RefillStatus,
    currency: row.currency as Currency,
    paymentSystemId: row.paymentSystemId,
    network: row.network,
    address: row.address,
    amountRequested: normalizeDecimal(row.amountRequested),
    amountCredited: row.amountCredited === null ? null : normalizeDecimal(row.amountCredited),
    txHash: row.txHash,
    createdAt: row.createdAt.toISOString(),
    processedAt: row.processedAt ? row.processedAt.toISOString() : null,
  };
}

/** A statement turned into SQL text once: drizzle's placeholders stand where each call's values go. */
const dialect = new PgDialect();

/**
 * The transaction's statements find their rows by key, so their plan is the same whatever the values:
 * planned once per connection and kept (the app's connections otherwise plan every statement with
 * its values, db/client.ts). Planning them anew each time was a fifth of PostgreSQL's CPU per refill.
 */
const GENERIC_PLANS = dialect.sqlToQuery(sql`set local plan_cache_mode = force_generic_plan`);

/** The user's row, locked: one user's refills queue on it, so the cap below counts them one at a time. */
const LOCK_USER = dialect.sqlToQuery(
  sql`select ${users.id} from ${users} where ${users.id} = ${sql.placeholder("userId")} for ${sql.raw(USER_ROW_LOCK)}`,
);

const REFILL_FIELDS = Object.entries(getTableColumns(refills)).map(([key, column]) => ({
  path: [key],
  field: column,
}));

/** The refill, inserted only while the user has fewer than MAX_WAITING_REFILLS waiting; its row, or none. */
const INSERT_UNDER_CAP = dialect.sqlToQuery(
  sql`insert into ${refills} (user_id, payment_system_id, currency, network, address, amount_requested, tx_hash, status, created_at)
    select ${sql.placeholder("userId")}::uuid, ${sql.placeholder("paymentSystemId")}, ${sql.placeholder("currency")},
           ${sql.placeholder("network")}, ${sql.placeholder("address")}, ${sql.placeholder("amount")}::numeric,
           ${sql.placeholder("txHash")}::text, 'waiting', ${sql.placeholder("createdAt")}::timestamptz
     where exists (select 1 from ${users} where ${users.id} = ${sql.placeholder("userId")})
       and (select count(*) from ${refills} where ${refills.userId} = ${sql.placeholder("userId")} and ${refills.status} = 'waiting')
           < ${MAX_WAITING_REFILLS}
    returning ${sql.join(
      REFILL_FIELDS.map(({ field }) => sql.identifier(field.name)),
      sql`, `,
    )}`,
);

/**
 * `POST /funds/refills`. An unknown payment system, or one closed for refills, is 400
 * VALIDATION_FAILED on `paymentSystemId`; an amount that is zero on the currency's scale is
 * `amountBelowMinimum`; more than MAX_WAITING_REFILLS waiting is 429 RATE_LIMITED.
 */
export async function createRefill(
  deps: Pick<ServiceContext, "db" | "clock">,
  userId: string,
  body: RefillCreateBody,
): Promise<Refill> {
  const { db } = deps;
  const system = (await paymentSystemsOf(db)).get(body.paymentSystemId);
  if (!system?.refillEnabled) throw new AppError("VALIDATION_FAILED", { fields: { paymentSystemId: "required" } });
  const currency = system.currency as Currency;
  if (compareAmounts(body.amount, 0) < 0)
    throw new AppError("VALIDATION_FAILED", { fields: { amount: "amountNegative" } });
  const amount = roundDown(body.amount, currency);
  if (compareAmounts(amount, 0) <= 0) {
    throw new AppError("VALIDATION_FAILED", { fields: { amount: "amountBelowMinimum" } });
  }
  const values = {
    userId,
    paymentSystemId: system.id,
    currency,
    network: system.network,
    address: system.address,
    amount,
    txHash: body.txHash ?? null,
    createdAt: deps.clock.now().toISOString(),
  };
  // One transaction on both databases. The cap counts under the user's row lock: concurrent
  // requests of one user queue on it. The statements are sent at once (on PostgreSQL pipelined on
  // the transaction's connection) and run in this order; under READ COMMITTED the insert takes its
  // snapshot when it starts, after the lock was granted, so its count sees every refill committed
  // before. Nothing inserted: over the cap (or the user is gone). Their text is built once above, a
  // call only fills its values in (building it anew cost more CPU than the driver's work,
  // server/README.md, "Performance").
  const [present, created] = await db.transaction(async (tx) => {
    const session = tx._.session;
    const [, ...rows] = await Promise.all([
      session.prepareQuery(GENERIC_PLANS, undefined, undefined, false).execute(),
      session.prepareQuery(LOCK_USER, undefined, "refill_lock_user", false).execute(values),
      session
        .prepareQuery<{ execute: RefillRow[] } & PreparedQueryConfig>(
          INSERT_UNDER_CAP,
          REFILL_FIELDS,
          "refill_insert_under_cap",
          false,
        )
        .execute(values),
    ]);
    return rows;
  });
  if (resultRows(present).length === 0) throw new AppError("SESSION_TIMEOUT");
  const [row] = created;
  if (!row) throw new AppError("RATE_LIMITED");
  return toRefill(row);
}

type PaymentSystemRow = typeof paymentSystems.$inferSelect;

/** The payment systems by id, kept in memory until the table changes (db/change-feed.ts, `catalog`). */
function paymentSystemsOf(db: Database): Promise<ReadonlyMap<string, PaymentSystemRow>> {
  return catalogRows(db, "paymentSystems", () => db.select().from(paymentSystems));
}

/** The caller's refills, newest first. */
export async function listRefills(db: Database, userId: string, query: RefillsQuery): Promise<RefillsReply> {
  const where = and(
    eq(refills.userId, userId),
    query.currency ? eq(refills.currency, query.currency) : undefined,
    query.status ? eq(refills.status, query.status) : undefined,
  );
  const [total] = await db.select({ n: count() }).from(refills).where(where);
  const rows = await db
    .select()
    .from(refills)
    .where(where)
    .orderBy(desc(refills.createdAt), desc(refills.id))
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
  return { items: rows.map(toRefill), total: total?.n ?? 0, page: query.page, limit: query.limit };
}

/** One of the caller's refills; another user's or an unknown id is 404 NOT_FOUND. */
export async function getRefill(db: Database, userId: string, id: string): Promise<Refill> {
  if (!isUuid(id)) throw new AppError("NOT_FOUND");
  const [row] = await db
    .select()
    .from(refills)
    .where(and(eq(refills.id, id), eq(refills.userId, userId)))
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND");
  return toRefill(row);
}

/** `PATCH /funds/refills/:id`: sets the transaction hash while waiting; later 400 UPDATE_FAILED. */
export async function updateRefillTxHash(db: Database, userId: string, id: string, txHash: string): Promise<Refill> {
  if (!isUuid(id)) throw new AppError("NOT_FOUND");
  const [row] = await db
    .update(refills)
    .set({ txHash })
    .where(and(eq(refills.id, id), eq(refills.userId, userId), eq(refills.status, "waiting")))
    .returning();
  if (row) return toRefill(row);
  await getRefill(db, userId, id); // 404 when not the caller's
  throw new AppError("UPDATE_FAILED", { params: { error: "the refill is no longer waiting" } });
}

// ---------------------------------------------------------------------------------------------
// Operator

export interface OperatorRefill extends Refill {
  login: string;
  note: string | null;
}

export async function listRefillsForOperator(
  db: Database,
  filter: { status?: RefillStatus | undefined; limit?: number | undefined } = {},
): Promise<OperatorRefill[]> {
  const rows = await db
    .select({ refill: refills, login: users.login })
    .from(refills)
    .innerJoin(users, eq(users.id, refills.userId))
    .where(filter.status ? eq(refills.status, filter.status) : undefined)
    .orderBy(desc(refills.createdAt), desc(refills.id))
    .limit(filter.limit ?? 100);
  return rows.map((r) => ({ ...toRefill(r.refill), login: r.login, note: r.refill.note }));
}

async function lockWaiting(tx: Database, id: string): Promise<RefillRow> {
  const missing = () => new AppError("NOT_FOUND", { params: { refill: id } });
  if (!isUuid(id)) throw missing();
  const [row] = await tx.select().from(refills).where(eq(refills.id, id)).for("update");
  if (!row) throw missing();
  if (row.status !== "waiting")
    throw new AppError("UPDATE_FAILED", { params: { error: `the refill is ${row.status}` } });
  return row;
}

/**
 * Operator: the coins arrived. `amount` is what arrived (default: the amount requested), truncated
 * to the currency's scale; the refill becomes `replenished` and the balance is credited with a
 * `refill` operation, in one transaction. Only a waiting refill can be confirmed (else 400
 * UPDATE_FAILED), so a refill is credited once.
 */
export async function confirmRefill(
  deps: Pick<ServiceContext, "db" | "clock">,
  id: string,
  amount?: string,
): Promise<Refill> {
  return deps.db.transaction(async (tx) => {
    const row = await lockWaiting(tx, id);
    const currency = row.currency as Currency;
    const credited = roundDown(amount ?? row.amountRequested, currency);
    if (compareAmounts(credited, 0) <= 0) {
      throw new AppError("VALIDATION_FAILED", { fields: { amount: "amountBelowMinimum" } });
    }
    const now = deps.clock.now();
    const [updated] = await tx
      .update(refills)
      .set({ status: "replenished", amountCredited: credited, processedAt: now })
      .where(eq(refills.id, row.id))
      .returning();
    if (!updated) throw new Error("refill vanished while locked");
    await post(tx, {
      userId: row.userId,
      currency,
      type: "refill",
      amount: credited,
      refillId: row.id,
      meta: { paymentSystemId: row.paymentSystemId, ...(row.txHash ? { txHash: row.txHash } : {}) },
      at: now,
    });
    await notify(
      tx,
      row.userId,
      "refill_credited",
      { amount: normalizeDecimal(credited), currency, refillId: row.id },
      now,
    );
    return toRefill(updated);
  });
}

/** Operator: the coins did not arrive. Nothing reaches the balance. */
export async function rejectRefill(
  deps: Pick<ServiceContext, "db" | "clock">,
  id: string,
  note?: string,
): Promise<Refill> {
  return deps.db.transaction(async (tx) => {
    const row = await lockWaiting(tx, id);
    const now = deps.clock.now();
    const [updated] = await tx
      .update(refills)
      .set({ status: "rejected", processedAt: now, note: note ?? null })
      .where(eq(refills.id, row.id))
      .returning();
    if (!updated) throw new Error("refill vanished while locked");
    await notify(
      tx,
      row.userId,
      "refill_rejected",
      { amount: normalizeDecimal(row.amountRequested), currency: row.currency, refillId: row.id },
      now,
    );
    return toRefill(updated);
  });
}
