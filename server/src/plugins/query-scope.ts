/**
 * Each request's statements are cancelled when the request is abandoned: its connection closes
 * before the reply was written (the client gave up, or retries on a new connection), or it runs
 * past REQUEST_TIMEOUT_SECONDS. See db/query-scope.ts; a statement also ends at
 * STATEMENT_TIMEOUT_MS on PostgreSQL whatever happens to its request.
 */
import type { FastifyInstance } from "fastify";
import { runInQueryScope } from "../db/query-scope";

export function registerQueryScope(app: FastifyInstance): void {
  const limitMs = app.env.REQUEST_TIMEOUT_SECONDS * 1000;
  app.addHook("onRequest", (request, reply, done) => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), limitMs);
    timer.unref();
    reply.raw.once("close", () => {
      clearTimeout(timer);
      if (!reply.raw.writableFinished) controller.abort();
    });
    request.raw.once("error", () => controller.abort());
    runInQueryScope(controller.signal, done);
  });
}
