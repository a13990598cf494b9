/**
 * The transaction a request runs in, when it runs in one (an idempotent money call: plugins/idempotency.ts);
 * the route's services get it as their `db` (routes/define.ts). Code that reaches the database through a
 * handle of its own rather than the request's (the rate limiter's counters) asks `ambientDatabase(db)`: inside
 * such a request it gets the request's transaction, so it takes no second connection while the transaction
 * holds one (on PGlite, with its one connection, it would wait for the very transaction it runs in), and what
 * it counts commits with it.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Database } from "./client";

const ambient = new AsyncLocalStorage<Database>();

/** Runs `fn` (and everything it starts) with `tx` as the ambient transaction. */
export function withAmbientTransaction<T>(tx: Database, fn: () => T): T {
  return ambient.run(tx, fn);
}

/** The ambient transaction, if any. */
export function ambientTransaction(): Database | undefined {
  return ambient.getStore();
}

/** The ambient transaction when there is one, else `db`. */
export function ambientDatabase(db: Database): Database {
  return ambient.getStore() ?? db;
}
