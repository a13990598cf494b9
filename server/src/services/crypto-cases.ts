/**
 * Crypto cases: curated portfolios, each a named bundle of plans with a risk level. A deposit may
 * be opened through a case (on one of its plans); `GET /user/case-operations` lists the operations
 * of such deposits.
 */
import type { CryptoCase, RiskLevel } from "@contract";
import { asc, eq } from "drizzle-orm";
import { catalogRows } from "../db/change-feed";
import type { Database } from "../db/client";
import { cryptoCases } from "../db/schema";

export type CryptoCaseRow = typeof cryptoCases.$inferSelect;

export async function findCryptoCase(db: Database, id: string): Promise<CryptoCaseRow | undefined> {
  return (await catalogRows(db, "cryptoCases", () => db.select().from(cryptoCases))).get(id);
}

/** Active cases in display order. */
export async function listCryptoCases(db: Database): Promise<CryptoCase[]> {
  const rows = await db
    .select()
    .from(cryptoCases)
    .where(eq(cryptoCases.active, true))
    .orderBy(asc(cryptoCases.sort), asc(cryptoCases.id));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    description: r.description,
    riskLevel: r.riskLevel as RiskLevel,
    planIds: r.planIds,
  }));
}
