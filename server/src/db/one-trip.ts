/**
 * A short write transaction in one round trip on PostgreSQL: BEGIN, its statements and COMMIT are
 * sent together on a connection reserved from the pool, and the rows of each statement come back.
 * Statements run one after the other, each with a snapshot taken when it starts (READ COMMITTED),
 * so a statement after a `FOR UPDATE` sees everything committed before the lock was granted. When
 * a statement fails, the ones after it fail too (the transaction is aborted) and COMMIT rolls it
 * back: nothing of it stays. The caller decides from the rows, not between the statements; a
 * transaction that needs to decide halfway uses `db.transaction`.
 *
 * `null` on PGlite (one connection in this process: there is no round trip to save); the caller
 * then runs its usual transaction.
 */
import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Sql } from "postgres";
import type { Database } from "./client";

const dialect = new PgDialect();

/** postgres.js's codes of a statement lost with its connection. */
const CONNECTION_LOST = new Set(["CONNECTION_CLOSED", "CONNECTION_ENDED", "CONNECTION_DESTROYED"]);

export async function inOneRoundTrip(db: Database, statements: SQL[]): Promise<Record<string, unknown>[][] | null> {
  const client = (db as unknown as { $client?: Partial<Sql> }).$client;
  if (typeof client?.reserve !== "function") return null;
  const reserved = await client.reserve();
  const sent = [
    reserved.unsafe("begin"),
    ...statements.map((statement) => {
      const query = dialect.sqlToQuery(statement);
      return reserved.unsafe(query.sql, query.params as never[], { prepare: true });
    }),
    reserved.unsafe("commit"),
  ];
  const settled = await Promise.allSettled(sent);
  const failed = settled.find((result) => result.status === "rejected");
  const code = (failed?.reason as { code?: unknown } | undefined)?.code;
  // A connection that closed under the transaction is the pool's again already: releasing it too
  // would hand postgres.js a closed connection as an open one.
  if (!(typeof code === "string" && CONNECTION_LOST.has(code))) reserved.release();
  if (failed) throw failed.reason;
  return settled
    .slice(1, -1)
    .map((result) => [...((result as PromiseFulfilledResult<unknown>).value as Record<string, unknown>[])]);
}
