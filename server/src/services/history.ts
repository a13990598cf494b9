/**
 * What a history row opens (docs/cabinet-rules.md#money): one of the caller's withdrawals by id, with its
 * transaction hash and payment system, so the app links the hash to the network's block explorer. Only the
 * caller's own; a cancelled application (never listed) reads as unknown.
 */
import type { Withdrawal } from "@contract";
import { and, eq, ne } from "drizzle-orm";
import type { Database } from "../db/client";
import { withdrawals } from "../db/schema";
import { AppError } from "../errors";
import { isUuid } from "./deposit-rows";
import { toWithdrawal } from "./withdrawals";

/** `GET /funds/payments/{id}`: another user's, a cancelled one or an unknown id is 404 NOT_FOUND. */
export async function getOwnWithdrawal(db: Database, userId: string, id: string): Promise<Withdrawal> {
  if (!isUuid(id)) throw new AppError("NOT_FOUND");
  const [row] = await db
    .select()
    .from(withdrawals)
    .where(and(eq(withdrawals.id, id), eq(withdrawals.userId, userId), ne(withdrawals.status, "cancelled")))
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND");
  return toWithdrawal(row);
}
