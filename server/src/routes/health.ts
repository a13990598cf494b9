/**
 * Health calls, added beside the cabinet's (docs/decisions.md#several-instances) for load balancers,
 * orchestrators and start scripts: `GET /api/health` is liveness (the process answers; it touches nothing else,
 * so a database outage does not get healthy instances restarted), `GET /api/health/ready` is readiness (the
 * database answers within READY_TIMEOUT_MS: 200, else 503 and the proxy sends no traffic here). With the bot,
 * readiness also shows the chat outbox's backlog (how many messages wait and the oldest one's age) and the bot's
 * state: `ready`, or `failing` with what Telegram refused and what to change. The bot's state does not make the
 * server unready (the cabinet serves without Telegram): a load balancer routes on the status code, monitoring
 * alerts on `bot.state` (server/README.md, "Running in production"); and the background jobs' state (jobs.ts). While the server starts, before this route exists,
 * early-server.ts answers both the same way.
 */
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { KassaApp } from "../context";
import { keptStats } from "../db/change-feed";
import { READY_TIMEOUT_MS } from "../early-server";
import { outboxBacklog } from "../telegram/outbox-backlog";
import { defineRoute } from "./define";

const HealthReply = z.object({ ok: z.literal(true) });
const ReadyReply = z.object({
  ok: z.boolean(),
  database: z.enum(["up", "down"]),
  /** With the bot: messages waiting in the chat outbox and how long the oldest has waited. */
  chatOutbox: z
    .object({ waiting: z.number().int().nonnegative(), oldestWaitingSeconds: z.number().int().nullable() })
    .optional(),
  /** With the bot: its set-up's state (`failing`: `problem` says what Telegram refused and what to change). */
  bot: z
    .object({
      state: z.enum(["starting", "ready", "failing"]),
      mode: z.enum(["webhook", "polling"]),
      problem: z.string().nullable(),
      leader: z.boolean(),
      outbox: z.enum(["running", "stopped"]),
    })
    .optional(),
  /** What each in-memory cache holds and how often it answered (db/change-feed.ts): hits, database reads, entries, kB. */
  caches: z
    .record(
      z.string(),
      z.object({ hits: z.number().int(), misses: z.number().int(), entries: z.number().int(), kB: z.number().int() }),
    )
    .optional(),
  /** The background jobs of this instance (jobs.ts): `overdue` when a run outlived its time limit and has not ended. */
  jobs: z
    .array(
      z.object({
        name: z.string(),
        everyMs: z.number().int(),
        lease: z.string().nullable(),
        state: z.enum(["waiting", "running", "overdue", "stopped"]),
        runs: z.number().int(),
        failures: z.number().int(),
        skipped: z.number().int(),
        lastStartedAt: z.string().nullable(),
        lastMs: z.number().int().nullable(),
        lastError: z.string().nullable(),
      }),
    )
    .optional(),
});

/** Not in the contract: the app never calls them. */
const health = { method: "GET", path: "/health", auth: false, tags: ["service"], response: HealthReply } as const;
const ready = { method: "GET", path: "/health/ready", auth: false, tags: ["service"], response: ReadyReply } as const;

export async function healthRoutes(app: KassaApp) {
  defineRoute(app, health, { summary: "Liveness: the server process answers" }, () => ({ ok: true as const }));

  defineRoute(
    app,
    ready,
    {
      summary: "Readiness: the database answers",
      description: `200 { ok: true, database: "up" } when a query returns within ${READY_TIMEOUT_MS / 1000} s; 503 { ok: false, database: "down" } otherwise. With the bot, chatOutbox says how many chat messages wait and how long the oldest has waited, and bot the state of its set-up with Telegram (neither makes the server unready: the cabinet works without Telegram; alert on bot.state "failing"). caches counts each in-memory cache's hits, database reads, entries and kB since the start; jobs is the state of each background job of this instance (runs, failures, skipped turns, the last run's start, time and error; overdue when a run outlived its time limit).`,
    },
    async ({ ctx, reply }) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("database did not answer in time")), READY_TIMEOUT_MS);
      });
      try {
        if (!app.bot) {
          await Promise.race([ctx.db.execute(sql`select 1`), timeout]);
          return { ok: true, database: "up" as const, caches: keptStats(ctx.db), jobs: app.jobs.states() };
        }
        const chatOutbox = await Promise.race([outboxBacklog(ctx.db, ctx.clock.now()), timeout]);
        const bot = app.bot.health();
        return {
          ok: true,
          database: "up" as const,
          chatOutbox,
          bot,
          caches: keptStats(ctx.db),
          jobs: app.jobs.states(),
        };
      } catch (error) {
        ctx.log.warn({ err: error }, "not ready: the database does not answer");
        // Sent as text: the route's 5xx schema is the error body, and this is not an error of the caller.
        return reply
          .code(503)
          .type("application/json; charset=utf-8")
          .send(JSON.stringify({ ok: false, database: "down" }));
      } finally {
        clearTimeout(timer);
      }
    },
  );
}
