/**
 * Puts the database handle, the clock and the configuration on the app instance, where routes
 * read them (`app.db`, `request.server.clock`). Decorated on the root instance, so every
 * registered route plugin sees them.
 */
import type { FastifyInstance } from "fastify";
import type { Clock } from "../clock";
import type { Database } from "../db/client";
import type { Env } from "../env";

declare module "fastify" {
  interface FastifyInstance {
    db: Database;
    clock: Clock;
    env: Env;
  }
}

export function decorateContext(app: FastifyInstance, context: { db: Database; clock: Clock; env: Env }): void {
  app.decorate("db", context.db);
  app.decorate("clock", context.clock);
  app.decorate("env", context.env);
}
