/**
 * Each request's statements are cancelled when the request is abandoned: its connection closes
 * before the reply was written (the client gave up, or retries on a new connection), or it runs
 * past REQUEST_TIMEOUT_SECONDS. See db/query-scope.ts; a statement also ends at
 * STATEMENT_TIMEOUT_MS on PostgreSQL whatever happens to its request.
 *
 * The signal is made when the request's first statement asks for it: a call answered from memory (most reads, and
 * every health check) sends none, and pays for no controller, timer or listeners.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import { runInQueryScope } from "../db/query-scope";

export function registerQueryScope(app: FastifyInstance): void {
  const limitMs = app.env.REQUEST_TIMEOUT_SECONDS * 1000;
  app.addHook("onRequest", (request, reply, done) => {
    runInQueryScope(lazySignal(request.raw, reply.raw, performance.now() + limitMs), done);
  });
}

/** The request's signal, made on first use: aborted when the request is abandoned (already, or later) or at `deadline`. */
function lazySignal(request: IncomingMessage, response: ServerResponse, deadline: number): () => AbortSignal {
  let controller: AbortController | undefined;
  return () => {
    if (controller) return controller.signal;
    const made = new AbortController();
    controller = made;
    const abandoned = () => !response.writableFinished;
    // Closed already: abandoned, or answered (work the request left running after its reply is not cut, as it was
    // not when the signal was made at the request's start and its timer cleared at the close).
    if (response.closed) {
      if (abandoned()) made.abort();
      return made.signal;
    }
    const left = deadline - performance.now();
    if (request.errored || left <= 0) {
      made.abort();
      return made.signal;
    }
    const timer = setTimeout(() => made.abort(), left);
    timer.unref();
    response.once("close", () => {
      clearTimeout(timer);
      if (abandoned()) made.abort();
    });
    request.once("error", () => made.abort());
    return made.signal;
  };
}
