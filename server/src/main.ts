/**
 * Starts the Kassa server: configuration → database (locked, migrated) → default settings →
 * demo data (when enabled and the database is empty) → app → listen. Stops cleanly on SIGINT and
 * SIGTERM: the server stops taking requests, the database closes and its lock is released.
 */
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { DAY_MS } from "@contract";
import { buildApp } from "./app";
import { systemClock } from "./clock";
import { openDatabase } from "./db/client";
import { DataDirLockedError } from "./db/lock";
import { DEMO_LOGIN, DEMO_PASSWORD, hasDemoUser, seedDemo } from "./demo/seed";
import { EnvError, loadEnv } from "./env";
import { localUrl, removeRuntimeInfo, writeRuntimeInfo } from "./operator/runtime";
import { hasBuiltApp } from "./plugins/static-app";
import { type AccrualScheduler, startAccrualScheduler } from "./scheduler";
import { ensureDefaultSettings } from "./services/settings";
import { sweepOrphanUploads } from "./services/uploads";
import { miniAppAddressProblem } from "./telegram/conversation";

const SHUTDOWN_TIMEOUT_MS = 10_000;

function fail(message: string): never {
  console.error(`Kassa could not start: ${message}`);
  process.exit(1);
}

async function main(): Promise<void> {
  let env: ReturnType<typeof loadEnv>;
  try {
    env = loadEnv();
  } catch (error) {
    if (error instanceof EnvError) fail(error.message);
    throw error;
  }
  // The bot's buttons open the Mini App, which Telegram opens only over https (telegram/conversation.ts).
  const botAddress = miniAppAddressProblem(env);
  if (botAddress) fail(botAddress);

  let handle: Awaited<ReturnType<typeof openDatabase>>;
  try {
    handle = await openDatabase({
      databaseUrl: env.DATABASE_URL,
      dataDir: env.DATA_DIR,
      statementTimeoutMs: env.STATEMENT_TIMEOUT_MS,
    });
  } catch (error) {
    if (error instanceof DataDirLockedError) fail(error.message);
    throw error;
  }

  await ensureDefaultSettings(handle.db, systemClock);
  const seeded = env.SEED_DEMO ? await seedDemo(handle.db, systemClock) : false;
  const demoAvailable = seeded || (env.SEED_DEMO && (await hasDemoUser(handle.db)));

  const operatorToken = env.OPERATOR_TOKEN ?? randomBytes(32).toString("base64url");
  const app = await buildApp({ env, db: handle.db, operatorToken });

  // The embedded database folder is this process's alone; the CLI reaches it through us.
  const runtimeDir = handle.kind === "pglite" && env.DATA_DIR !== "memory" ? env.DATA_DIR : undefined;

  let scheduler: AccrualScheduler | null = null;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      console.error(`${signal} again: exiting now`);
      process.exit(1);
    }
    stopping = true;
    app.log.info({ signal }, "shutting down");
    const timer = setTimeout(() => {
      console.error("Shutdown took too long: exiting");
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    try {
      await app.bot?.stop();
      await app.close();
      await scheduler?.stop();
    } finally {
      if (runtimeDir) removeRuntimeInfo(runtimeDir);
      await handle.close();
    }
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));

  try {
    await app.listen({ host: env.HOST, port: env.PORT });
  } catch (error) {
    await app.close().catch(() => {});
    await handle.close();
    if ((error as NodeJS.ErrnoException).code === "EADDRINUSE")
      fail(`port ${env.PORT} is in use: stop what uses it or set PORT`);
    throw error;
  }

  // Accruals and the sweeper at start and then every ACCRUAL_INTERVAL_SECONDS (0: never; `kassa
  // accruals run` still works). On PostgreSQL each job takes its advisory lock: one instance at a time.
  if (env.ACCRUAL_INTERVAL_SECONDS > 0) {
    scheduler = startAccrualScheduler({
      db: handle.db,
      clock: app.clock,
      intervalSeconds: env.ACCRUAL_INTERVAL_SECONDS,
      log: app.log,
      kind: handle.kind,
      limiter: app.limiter,
      uploadDir: env.UPLOAD_DIR,
    });
  } else {
    // Without the scheduler, uploaded files nothing references are still removed once, at start.
    void sweepOrphanUploads({ db: handle.db, uploadDir: env.UPLOAD_DIR }).catch((error: unknown) =>
      app.log.error({ err: error }, "sweep of orphan uploads failed"),
    );
  }

  // The chat bot (a real token, or a local Bot API server): getMe, its commands and menu, webhook or
  // polling, the chat outbox. An unreachable Bot API does not stop the cabinet: it is tried again.
  if (app.bot) {
    const bot = app.bot;
    const startBot = (): void => {
      bot.start().then(
        () => app.log.info({ mode: env.PUBLIC_URL ? "webhook" : "polling" }, "chat bot started"),
        (error: unknown) => {
          app.log.error({ err: error }, "chat bot did not start; trying again in 30 s");
          if (!stopping) setTimeout(startBot, 30_000).unref();
        },
      );
    };
    startBot();
  }

  const port = (app.server.address() as AddressInfo).port;
  if (runtimeDir)
    writeRuntimeInfo(runtimeDir, { pid: process.pid, url: localUrl(env.HOST, port), token: operatorToken });

  const database = handle.kind === "postgres" ? "PostgreSQL (DATABASE_URL)" : `PGlite at ${env.DATA_DIR}`;
  console.log(`Kassa is running at http://localhost:${port}`);
  const docs = env.API_DOCS ? `API docs: http://localhost:${port}/api/docs   ` : "";
  console.log(`  ${docs}database: ${database}`);
  if (env.STATIC_DIR === null) {
    console.log("  STATIC_DIR is empty: only the API is served.");
  } else if (!hasBuiltApp(env.STATIC_DIR)) {
    console.log(`  The app is not built (no index.html in ${env.STATIC_DIR}): only the API is served.`);
  } else if (env.NODE_ENV !== "production") {
    console.log(`  Open as if from Telegram: http://localhost:${port}/api/dev/telegram-launch`);
  }
  if (app.devClock && app.devClock.offsetMs() !== 0) {
    const days = app.devClock.offsetMs() / DAY_MS;
    console.log(`  Development clock: ${days} day(s) ahead of real time (npm run kassa -- clock reset)`);
  }
  if (demoAvailable) console.log(`Demo login: ${DEMO_LOGIN} / ${DEMO_PASSWORD}`);
}

main().catch((error: unknown) => {
  console.error("Kassa could not start:", error);
  process.exit(1);
});
