/**
 * Bounded work on PostgreSQL: the statements a request runs belong to the request. The app's
 * onRequest hook runs the rest of the request inside `runInQueryScope(signal)`; `cancellable()`
 * wraps the postgres.js client so that when a request is abandoned (its client went away before
 * the reply, or it ran out of time) a statement of it still running on the server after a short
 * grace is cancelled there (PostgreSQL's cancel request), and a statement or transaction it would
 * start after is refused (`query_canceled`, 57014) before it reaches the pool. What it already
 * started ends as it ends, and the request sees that outcome: a write that committed is answered
 * as committed (its Idempotency-Key keeps the reply). PGlite runs each statement to its
 * end in this process's own thread; there the bound is that every query the app runs reads a
 * bounded number of rows.
 *
 * What is never done: cancelling a postgres.js query that is not running on a connection yet.
 * postgres.js (3.4) marks such a query cancelled and, when the pool hands it to a connection
 * later — an idle one, or one still opening with the query as its first — sends nothing and parks
 * the connection as "full" (or "connecting") for good: nothing ever answers on it again. Ten of
 * those and every query of the instance waited forever, also calls served from memory that
 * touched the database once, while PostgreSQL showed every connection idle (server/README.md,
 * "Performance"). A statement the pool has not started yet is left to run; the statement
 * timeout bounds it.
 *
 * A cancel can also land on the statement after the one it was meant for (`hitByStrayCancel`): that
 * statement, or its transaction, runs again.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Sql } from "postgres";

/** The scope's signal, made when a statement first asks for it (plugins/query-scope.ts). */
const scope = new AsyncLocalStorage<() => AbortSignal>();

/** Runs `fn` (and everything it starts) with its statements tied to the signal `signal()` gives. */
export function runInQueryScope<T>(signal: () => AbortSignal, fn: () => T): T {
  return scope.run(signal, fn);
}

/** How long a statement still running after its request was abandoned is given before it is cancelled. */
const CANCEL_GRACE_MS = 50;

/** The error a statement of an abandoned request rejects with (SQLSTATE query_canceled, as PostgreSQL's own). */
class StatementAbandonedError extends Error {
  readonly code = "57014";
  constructor() {
    super("canceling statement: its request was abandoned");
    this.name = "StatementAbandonedError";
  }
}

/**
 * A cancel request is sent from outside the connection and cancels whatever that connection's session
 * runs when PostgreSQL gets it: a statement of an abandoned request that ended just before (still
 * running when `track` looked, at the end of its grace) leaves the cancel to the next statement the pool
 * gave that connection, another request's. The app never cancels a statement whose scope is not
 * abandoned, so a statement cancelled "due to user request" with its own scope still on was hit by such
 * a stray cancel: it (or its whole transaction, rolled back) runs once more rather than answering 500.
 * Not PostgreSQL's statement timeout (the same code, 57014, "due to statement timeout").
 */
function hitByStrayCancel(error: unknown, signal: AbortSignal | undefined): boolean {
  if (signal?.aborted || error instanceof StatementAbandonedError) return false;
  for (let e = error, depth = 0; e && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (code === "57014") return typeof message === "string" && /user request/.test(message);
  }
  return false;
}

/** How many times a statement or transaction hit by a stray cancel runs again. */
const STRAY_CANCEL_RETRIES = 2;

/** `run(attempt)`, run again when a stray cancel hit it (`hitByStrayCancel`), at most `STRAY_CANCEL_RETRIES` times. */
async function againOnStrayCancel<T>(
  run: (attempt: number) => PromiseLike<T>,
  signal: AbortSignal | undefined,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await run(attempt);
    } catch (error) {
      if (attempt >= STRAY_CANCEL_RETRIES || !hitByStrayCancel(error, signal)) throw error;
    }
  }
}

/**
 * `first`, a postgres.js query as drizzle uses it (`.values()` then awaited), sent again by `send` when a stray
 * cancel hit it.
 */
function queryAgainOnStrayCancel<Q extends PromiseLike<unknown> & { values(): unknown }>(
  first: Q,
  send: () => Q,
  signal: AbortSignal | undefined,
): Q {
  let arrayMode = false;
  let outcome: Promise<unknown> | undefined;
  const settle = () => {
    outcome ??= againOnStrayCancel((attempt) => {
      if (attempt === 0) return first;
      const query = send();
      if (arrayMode) query.values();
      return query;
    }, signal);
    return outcome;
  };
  const wrapped: Q = new Proxy(first, {
    get(target, property, receiver) {
      if (property === "values")
        return () => {
          arrayMode = true;
          target.values();
          return wrapped;
        };
      if (property === "then")
        return (onDone?: (value: unknown) => unknown, onFailed?: (error: unknown) => unknown) =>
          settle().then(onDone, onFailed);
      if (property === "catch") return (onFailed?: (error: unknown) => unknown) => settle().catch(onFailed);
      if (property === "finally") return (onEnd?: () => void) => settle().finally(onEnd);
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return wrapped;
}

/** The parts of a postgres.js query used here (`active`: the statement its connection runs now). */
interface PendingQuery {
  active?: boolean;
  cancel(): unknown;
  then(onDone: () => void, onFailed: () => void): unknown;
}

/** Cancels `query` on the server when `signal` aborts while the query still runs there. */
function track(query: PendingQuery, signal: AbortSignal): void {
  let timer: NodeJS.Timeout | undefined;
  const onAbort = () => {
    // Only a statement its connection is running may be cancelled (see the module comment); one
    // that ends within the grace was short anyway, and its cancel request could hit the next.
    timer = setTimeout(() => {
      if (query.active) query.cancel();
    }, CANCEL_GRACE_MS);
    timer.unref();
  };
  signal.addEventListener("abort", onAbort, { once: true });
  // Attached after the caller chose how to read the rows (drizzle calls `.values()` first): a
  // postgres.js query starts when it is awaited.
  queueMicrotask(() => {
    const done = () => {
      signal.removeEventListener("abort", onAbort);
      clearTimeout(timer);
    };
    query.then(done, done);
  });
}

/**
 * A statement as a prepared statement of its connection. Drizzle sends every statement unnamed,
 * and postgres.js then asks the server for its parameter types before each one (Parse, Describe,
 * wait, then Bind, Execute): two round trips a statement, and nothing pipelined behind it. Named,
 * the description is kept per connection after its first use: one round trip, pipelined (a
 * refill's transaction went from eight round trips to three). The app's statements come in a
 * bounded number of shapes (values are always parameters), so each connection keeps a bounded
 * set; `plan_cache_mode = force_custom_plan` (db/client.ts) keeps planning each with its values.
 */
function prepared(sql: Sql, [query, parameters, options]: Parameters<Sql["unsafe"]>) {
  return sql.unsafe(query, parameters ?? [], { ...options, prepare: true });
}

/** A statement of a transaction that has already ended (its connection closed under it). */
class TransactionEndedError extends Error {
  constructor() {
    super("the transaction has ended: its connection closed");
    this.name = "TransactionEndedError";
  }
}

/** postgres.js's codes of a statement lost with its connection. */
const CONNECTION_LOST = new Set(["CONNECTION_CLOSED", "CONNECTION_ENDED", "CONNECTION_DESTROYED"]);

/**
 * Runs a transaction's callback so that nothing more reaches its connection once that connection
 * has closed under it (PostgreSQL ended the session: idle_in_transaction_session_timeout, a
 * restart). postgres.js (3.4) rejects the transaction at once but lets the callback go on; a
 * statement the callback sends afterwards, or the rollback postgres.js sends when the callback
 * fails, goes to the closed connection, where postgres.js throws from a timer: an uncaught
 * exception that stops the process. So once the connection is lost, further statements are
 * refused, and the callback's own end is never handed back to postgres.js.
 */
function untilConnectionLost(sql: Sql, fn: (sql: Sql) => unknown, transaction: Promise<unknown>): Promise<unknown> {
  let lost = false;
  const end = () => {
    lost = true;
  };
  transaction.then(end, end);
  const guarded = new Proxy(sql, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property === "unsafe") {
        return (...args: Parameters<Sql["unsafe"]>) => {
          if (lost) throw new TransactionEndedError();
          const query = prepared(target, args);
          // Registered before the caller awaits it, so the loss is known before the callback sees
          // the statement fail. (A postgres.js query is handed to its connection a microtask after
          // its first `then`: drizzle's `.values()`, called right after, still comes first.)
          query.then(undefined, (error: unknown) => {
            if (CONNECTION_LOST.has((error as { code?: unknown })?.code as string)) lost = true;
          });
          return query;
        };
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return new Promise((resolve, reject) => {
    Promise.resolve()
      .then(() => fn(guarded))
      .then(
        (value) => {
          if (!lost) resolve(value);
        },
        (error: unknown) => {
          if (!lost) reject(error);
        },
      );
  });
}

/**
 * The postgres.js client with its statements bound to the request's scope. A transaction is left
 * alone once it runs: it ends by its own statements (or the statement timeout) and rolls back
 * whole; cancelling inside one from outside leaves postgres.js's reserved connection stuck. A
 * transaction an abandoned request would start is refused, and one whose request is abandoned
 * while it waits for a connection rolls back as soon as it gets one, having run nothing. Every
 * transaction (in a request or not) stops at the loss of its connection (`untilConnectionLost`).
 */
export function cancellable<T extends Sql>(client: T): T {
  return new Proxy(client, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property === "unsafe") {
        return (...args: Parameters<Sql["unsafe"]>) => {
          const signal = scope.getStore()?.();
          if (signal?.aborted) throw new StatementAbandonedError();
          const send = () => {
            const query = prepared(target, args);
            if (signal) track(query as unknown as PendingQuery, signal);
            return query;
          };
          return queryAgainOnStrayCancel(send(), send, signal);
        };
      }
      if (property === "begin") {
        return (...args: unknown[]) => {
          const signal = scope.getStore()?.();
          if (signal?.aborted) return Promise.reject(new StatementAbandonedError());
          const fn = args[args.length - 1] as (sql: Sql) => unknown;
          const run = () => {
            let transaction: Promise<unknown> | undefined;
            const inside = (sql: Sql) => {
              if (signal?.aborted) throw new StatementAbandonedError();
              return untilConnectionLost(sql, fn, transaction as Promise<unknown>);
            };
            transaction = (target.begin as (...a: unknown[]) => Promise<unknown>)(...args.slice(0, -1), inside);
            return transaction;
          };
          // A transaction hit by a stray cancel rolled back whole: it runs again from its start.
          return againOnStrayCancel(run, signal);
        };
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
