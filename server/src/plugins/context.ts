/**
 * Puts the database handle, the clock, the configuration and the sign-in machinery (code key,
 * code sender, rate limiter, development outbox) on the app instance, where routes read them
 * (`app.db`, `request.server.clock`). Decorated on the root instance, so every registered route
 * plugin sees them.
 */
import type { FastifyInstance } from "fastify";
import type { Clock, OffsetClock } from "../clock";
import type { Database } from "../db/client";
import type { CodeSender } from "../delivery/code-sender";
import type { DevOutbox } from "../delivery/dev-outbox";
import type { Env } from "../env";
import type { RateLimiter } from "../security/rate-limit";
import type { KassaBot } from "../telegram/bot";

declare module "fastify" {
  interface FastifyInstance {
    db: Database;
    clock: Clock;
    env: Env;
    /** HMAC key of stored verification codes. */
    codeSecret: string;
    codeSender: CodeSender;
    limiter: RateLimiter;
    /** Codes "sent" outside production; null in production. */
    devOutbox: DevOutbox | null;
    /** The clock the operator may move forward (`kassa clock advance`); null in production. */
    devClock: OffsetClock | null;
    /** The chat bot when it runs in this process (`env.TELEGRAM_BOT_ENABLED`), else null. */
    bot: KassaBot | null;
  }
}

export interface AppContext {
  db: Database;
  clock: Clock;
  env: Env;
  codeSecret: string;
  codeSender: CodeSender;
  limiter: RateLimiter;
  devOutbox: DevOutbox | null;
  devClock: OffsetClock | null;
}

export function decorateContext(app: FastifyInstance, context: AppContext): void {
  app.decorate("db", context.db);
  app.decorate("clock", context.clock);
  app.decorate("env", context.env);
  app.decorate("codeSecret", context.codeSecret);
  app.decorate("codeSender", context.codeSender);
  app.decorate("limiter", context.limiter);
  app.decorate("devOutbox", context.devOutbox);
  app.decorate("devClock", context.devClock);
}
