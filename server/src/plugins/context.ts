/**
 * Puts the database handle, the clock, the configuration and the sign-in machinery (code key,
 * code sender, rate limiter, development outbox) on the app instance, where routes read them
 * (`app.db`, `request.server.clock`). Decorated on the root instance, so every registered route
 * plugin sees them.
 */
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context";
import type { Jobs } from "../jobs";
import type { KassaBot } from "../telegram/bot";

declare module "fastify" {
  interface FastifyInstance extends AppContext {
    /** The chat bot when it runs in this process (`env.TELEGRAM_BOT_ENABLED`), else null. */
    bot: KassaBot | null;
    /** The background jobs of this process (jobs.ts). */
    jobs: Jobs;
  }
}

export function decorateContext(app: FastifyInstance, context: AppContext): void {
  for (const [key, value] of Object.entries(context)) app.decorate(key, value);
}
