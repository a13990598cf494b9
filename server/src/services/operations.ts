/**
 * The caller's ledger, newest first (`GET /user/operations/`) and the operations of deposits opened
 * through a crypto case (`GET /user/case-operations`). Only ever the caller's own rows.
 */
import type {
  CaseOperationsQuery,
  Currency,
  LedgerOperationType,
  Operation,
  OperationDetails,
  OperationsQuery,
  OperationsReply,
} from "@contract";
import { DAY_MS } from "@contract";
import { and, count, desc, eq, gte, isNotNull, lt, lte, type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { deposits, operations, operationTotals } from "../db/schema";
import { normalizeDecimal } from "../decimal";

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** `from`: a day starts at 00:00 UTC; an instant is itself. */
function fromBound(value: string): Date {
  return new Date(DATE_ONLY.test(value) ? `${value}T00:00:00.000Z` : value);
}

/** `to` is inclusive: a day covers up to (not including) the next day's 00:00 UTC. */
function toBound(value: string): { date: Date; exclusive: boolean } {
  if (!DATE_ONLY.test(value)) return { date: new Date(value), exclusive: false };
  const start = new Date(`${value}T00:00:00.000Z`);
  return { date: new Date(start.getTime() + DAY_MS), exclusive: true };
}

type Row = {
  op: typeof operations.$inferSelect;
  caseId: string | null;
  planId: string | null;
  reinvestedInto: string | null;
};

function details(row: Row): OperationDetails | undefined {
  const meta = (row.op.meta ?? {}) as Record<string, unknown>;
  const d: OperationDetails = {};
  if (row.op.depositId) d.depositId = row.op.depositId;
  if (row.op.refillId) d.refillId = row.op.refillId;
  const planId = row.planId ?? (typeof meta.planId === "string" ? meta.planId : undefined);
  if (planId) d.planId = planId;
  if (row.caseId) d.caseId = row.caseId;
  if (row.op.type === "accrual" && typeof meta.days === "number") d.days = meta.days;
  if (typeof meta.forfeited === "string") d.forfeited = meta.forfeited;
  if (row.reinvestedInto && (row.op.type === "accrual" || row.op.type === "deposit_return")) {
    d.reinvestedInto = row.reinvestedInto;
  }
  if (typeof meta.withdrawalId === "string") d.withdrawalId = meta.withdrawalId;
  if (typeof meta.paymentSystemId === "string") d.paymentSystemId = meta.paymentSystemId;
  if (
    row.op.type === "withdrawal_return" &&
    (meta.status === "rejected" || meta.status === "error" || meta.status === "cancelled")
  ) {
    d.withdrawalOutcome = meta.status === "cancelled" && meta.reason === "code_expired" ? "expired" : meta.status;
  }
  if (row.op.type === "exchange" && typeof meta.from === "string" && typeof meta.to === "string") {
    d.exchange = {
      from: meta.from as Currency,
      to: meta.to as Currency,
      debited: String(meta.debited),
      received: String(meta.received),
    };
  }
  return Object.keys(d).length > 0 ? d : undefined;
}

function toOperation(row: Row): Operation {
  const op: Operation = {
    id: row.op.id,
    type: row.op.type as LedgerOperationType,
    currency: row.op.currency as Currency,
    amount: normalizeDecimal(row.op.amount),
    createdAt: row.op.createdAt.toISOString(),
  };
  const d = details(row);
  if (d) op.details = d;
  return op;
}

/** A page's last operation as the next page's `after`: its time in microseconds and its sequence. */
const cursorOf = (row: { micros: string; op: { seq: number } }) => `${row.micros}.${row.op.seq}`;

/** `after` as a condition: operations older than it in the list's order (created_at, seq). */
function afterCursor(after: string): SQL {
  const [micros, seq] = after.split(".");
  return sql`(${operations.createdAt}, ${operations.seq}) <
    (timestamptz 'epoch' + ${micros}::bigint * interval '1 microsecond', ${seq}::bigint)`;
}

async function page(
  db: Database,
  where: SQL | undefined,
  query: { page: number; limit: number; after?: string | undefined },
  onlyCases: boolean,
  keptTotal?: () => Promise<number>,
): Promise<OperationsReply> {
  const filter = onlyCases ? and(where, isNotNull(deposits.caseId)) : where;
  let total: number;
  if (keptTotal) total = await keptTotal();
  else {
    const base = db.select({ n: count() }).from(operations).leftJoin(deposits, eq(deposits.id, operations.depositId));
    total = (await base.where(filter))[0]?.n ?? 0;
  }
  // Nothing to read: no operation matches (the kept totals say so without a scan), or the page is past the end.
  if (total === 0 || (!query.after && (query.page - 1) * query.limit >= total))
    return { items: [], total, page: query.page, limit: query.limit, next: null };
  // One more row than the page tells whether another page follows.
  const rows = await db
    .select({
      op: operations,
      micros: sql<string>`(extract(epoch from ${operations.createdAt}) * 1000000)::bigint::text`,
      caseId: deposits.caseId,
      planId: deposits.planId,
      reinvestedInto: deposits.reinvestedInto,
    })
    .from(operations)
    .leftJoin(deposits, eq(deposits.id, operations.depositId))
    .where(query.after ? and(filter, afterCursor(query.after)) : filter)
    .orderBy(desc(operations.createdAt), desc(operations.seq))
    .limit(query.limit + 1)
    .offset(query.after ? 0 : (query.page - 1) * query.limit);
  const items = rows.slice(0, query.limit);
  const last = items[items.length - 1];
  return {
    items: items.map(toOperation),
    total,
    page: query.page,
    limit: query.limit,
    next: rows.length > query.limit && last ? cursorOf(last) : null,
  };
}

/**
 * The number of the user's operations of a currency and/or type, from the kept totals
 * (`operation_totals`): no count over the ledger.
 */
async function keptCount(db: Database, userId: string, currency?: string, type?: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<string>`coalesce(sum(${operationTotals.count}), 0)::text` })
    .from(operationTotals)
    .where(
      and(
        eq(operationTotals.userId, userId),
        currency ? eq(operationTotals.currency, currency) : undefined,
        type ? eq(operationTotals.type, type) : undefined,
      ),
    );
  return Number(row?.n ?? 0);
}

/** `GET /user/operations/`: filters by currency, type and an inclusive date range. */
export async function listOperations(db: Database, userId: string, query: OperationsQuery): Promise<OperationsReply> {
  const conditions: (SQL | undefined)[] = [eq(operations.userId, userId)];
  if (query.currency) conditions.push(eq(operations.currency, query.currency));
  if (query.type) conditions.push(eq(operations.type, query.type));
  if (query.from) conditions.push(gte(operations.createdAt, fromBound(query.from)));
  if (query.to) {
    const bound = toBound(query.to);
    conditions.push(bound.exclusive ? lt(operations.createdAt, bound.date) : lte(operations.createdAt, bound.date));
  }
  const dated = query.from !== undefined || query.to !== undefined;
  const kept = dated ? undefined : () => keptCount(db, userId, query.currency, query.type);
  return page(db, and(...conditions), query, false, kept);
}

/** `GET /user/case-operations`: operations of the caller's deposits opened through a crypto case. */
export async function listCaseOperations(
  db: Database,
  userId: string,
  query: CaseOperationsQuery,
): Promise<OperationsReply> {
  const conditions: (SQL | undefined)[] = [eq(operations.userId, userId)];
  if (query.caseId) conditions.push(eq(deposits.caseId, query.caseId));
  if (query.currency) conditions.push(eq(operations.currency, query.currency));
  return page(db, and(...conditions), query, true);
}
