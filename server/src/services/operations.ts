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
import { and, count, desc, eq, gte, isNotNull, lt, lte, type SQL } from "drizzle-orm";
import type { Database } from "../db/client";
import { deposits, operations } from "../db/schema";
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

async function page(
  db: Database,
  where: SQL | undefined,
  query: { page: number; limit: number },
  onlyCases: boolean,
): Promise<OperationsReply> {
  const base = db.select({ n: count() }).from(operations).leftJoin(deposits, eq(deposits.id, operations.depositId));
  const [total] = await base.where(onlyCases ? and(where, isNotNull(deposits.caseId)) : where);
  const rows = await db
    .select({
      op: operations,
      caseId: deposits.caseId,
      planId: deposits.planId,
      reinvestedInto: deposits.reinvestedInto,
    })
    .from(operations)
    .leftJoin(deposits, eq(deposits.id, operations.depositId))
    .where(onlyCases ? and(where, isNotNull(deposits.caseId)) : where)
    .orderBy(desc(operations.createdAt), desc(operations.seq))
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
  return { items: rows.map(toOperation), total: total?.n ?? 0, page: query.page, limit: query.limit };
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
  return page(db, and(...conditions), query, false);
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
