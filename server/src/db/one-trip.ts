/**
 * A short write transaction in one round trip on PostgreSQL: BEGIN, its statements and COMMIT are
 * sent together on a connection reserved from the pool, and the rows of each statement come back.
 * Statements run one after the other, each with a snapshot taken when it starts (READ COMMITTED),
 * so a statement after a `FOR UPDATE` sees everything committed before the lock was granted. When
 * a statement fails, the ones after it fail too (the transaction is aborted) and COMMIT rolls it
 * back: nothing of it stays. The caller decides from the rows, not between the statements; a
 * transaction that needs to decide halfway uses `db.transaction`.
 *
 * The statements are written once, with drizzle's `sql.placeholder(name)` where a value goes
 * (`oneTripStatement`), and turned into SQL text then; a call only puts its values in the
 * placeholders' places. Building the text with drizzle on every call cost more CPU than the
 * driver's whole work for the statement (server/README.md, "Performance").
 *
 * They are planned once per connection and that plan kept (`plan_cache_mode = force_generic_plan`
 * for the transaction; the app's connections otherwise plan every statement with its values, see
 * db/client.ts): a one-trip statement finds its rows by key, its plan is the same whatever the
 * values, and planning it anew each time was a fifth of PostgreSQL's CPU per refill
 * (server/README.md, "Performance").
 *
 * `null` on PGlite (one connection in this process: there is no round trip to save); the caller
 * then runs its usual transaction.
 */
import { Placeholder, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Sql } from "postgres";
import type { Database } from "./client";
import { againOnStrayCancel } from "./query-scope";

const dialect = new PgDialect();

/** A statement's SQL text and, per parameter, the placeholder whose value goes there (or a constant). */
export interface OneTripStatement<K extends string = string> {
  readonly text: string;
  readonly params: readonly ({ placeholder: K } | { constant: unknown })[];
}

/** Turns a statement written with `sql.placeholder(name)` for its values into text, once. */
export function oneTripStatement<K extends string>(statement: SQL): OneTripStatement<K> {
  const query = dialect.sqlToQuery(statement);
  return {
    text: query.sql,
    params: query.params.map((param) =>
      param instanceof Placeholder ? { placeholder: param.name as K } : { constant: param },
    ),
  };
}

/** postgres.js's codes of a statement lost with its connection. */
const CONNECTION_LOST = new Set(["CONNECTION_CLOSED", "CONNECTION_ENDED", "CONNECTION_DESTROYED"]);

export async function inOneRoundTrip<K extends string>(
  db: Database,
  statements: readonly OneTripStatement<K>[],
  values: Readonly<Record<K, unknown>>,
): Promise<Record<string, unknown>[][] | null> {
  const client = (db as unknown as { $client?: Partial<Sql> }).$client;
  if (typeof client?.reserve !== "function") return null;
  // Hit by a cancel meant for the statement before it on that connection (db/query-scope.ts): the
  // transaction rolled back whole, and runs again.
  return againOnStrayCancel(() => once(client as Sql, statements, values), undefined);
}

async function once<K extends string>(
  client: Sql,
  statements: readonly OneTripStatement<K>[],
  values: Readonly<Record<K, unknown>>,
): Promise<Record<string, unknown>[][]> {
  const reserved = await client.reserve();
  const sent = [
    reserved.unsafe("begin"),
    reserved.unsafe("set local plan_cache_mode = force_generic_plan"),
    ...statements.map((statement) =>
      reserved.unsafe(
        statement.text,
        statement.params.map((param) =>
          "placeholder" in param ? values[param.placeholder] : param.constant,
        ) as never[],
        { prepare: true },
      ),
    ),
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
    .slice(2, -1)
    .map((result) => [...((result as PromiseFulfilledResult<unknown>).value as Record<string, unknown>[])]);
}
