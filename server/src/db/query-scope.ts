/**
 * Bounded work on PostgreSQL: the statements a request runs belong to the request. The app's
 * onRequest hook runs the rest of the request inside `runInQueryScope(signal)`; `cancellable()`
 * wraps the postgres.js client so that every statement started inside a scope is cancelled
 * (PostgreSQL's cancel request) when the scope's signal aborts: the client went away before its
 * reply, or the request ran out of time. PGlite runs each statement to its end in this process's
 * own thread; there the bound is that every query the app runs reads a bounded number of rows.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Sql } from "postgres";

const scope = new AsyncLocalStorage<AbortSignal>();

/** Runs `fn` (and everything it starts) with its statements tied to `signal`. */
export function runInQueryScope<T>(signal: AbortSignal, fn: () => T): T {
  return scope.run(signal, fn);
}

interface CancellableQuery {
  cancel(): unknown;
  then(onDone: () => void, onFailed: () => void): unknown;
}

function track(query: CancellableQuery): void {
  const signal = scope.getStore();
  if (!signal) return;
  if (signal.aborted) {
    query.cancel();
    return;
  }
  const cancel = () => query.cancel();
  signal.addEventListener("abort", cancel, { once: true });
  // Attached after the caller chose how to read the rows (drizzle calls `.values()` first): a
  // postgres.js query starts when it is awaited, and a finished one is never cancelled (its
  // connection may already run another statement).
  queueMicrotask(() => {
    const done = () => signal.removeEventListener("abort", cancel);
    query.then(done, done);
  });
}

/**
 * The postgres.js client with its statements cancellable by scope. Statements inside a transaction
 * are left alone: a transaction ends by its own statements (or the statement timeout) and rolls
 * back whole; cancelling inside one from outside left postgres.js's reserved connection stuck.
 */
export function cancellable<T extends Sql>(client: T): T {
  return new Proxy(client, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property === "unsafe") {
        return (...args: Parameters<Sql["unsafe"]>) => {
          const query = target.unsafe(...args);
          track(query as unknown as CancellableQuery);
          return query;
        };
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
