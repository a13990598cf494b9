/**
 * PGlite's calls one per turn of the event loop. PGlite runs every statement on this thread, one call at a time, and
 * hands its lock to the next waiting call at once: with 32 requests waiting, their statements ran back to back in
 * one long turn. A busy Node process accepts one new connection per turn (libuv), so a connection opened meanwhile
 * waited for every request ahead of it: at the deposit bench's start (32 connections at once) the last was accepted
 * 1.3 s late, the whole of its p99. Here each call starts from `setImmediate`, after the loop's poll phase has
 * accepted connections and read requests: the calls keep their order (first come, first served), one at a time.
 *
 * Only the calls made on the client itself take turns: the statements inside a transaction (PGlite's own `tx`) run
 * within their transaction's turn, as PGlite holds its lock for the whole transaction anyway.
 */
import type { PGlite } from "@electric-sql/pglite";

type Call = (...args: never[]) => Promise<unknown>;

export function oneCallPerTurn(client: PGlite): PGlite {
  const waiting: (() => void)[] = [];
  let running = false;
  const next = () => {
    const start = waiting.shift();
    if (start) start();
    else running = false;
  };
  const inTurn =
    <F extends Call>(call: F) =>
    (...args: Parameters<F>): ReturnType<F> =>
      new Promise((resolve, reject) => {
        waiting.push(() => {
          call(...args)
            .then(resolve, reject)
            .finally(() => setImmediate(next));
        });
        if (!running) {
          running = true;
          setImmediate(next);
        }
      }) as ReturnType<F>;
  const target = client as unknown as Record<"query" | "exec" | "transaction", Call>;
  for (const name of ["query", "exec", "transaction"] as const) target[name] = inTurn(target[name].bind(client));
  return client;
}
