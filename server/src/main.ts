/**
 * Starts the Kassa server: configuration → listen (liveness answers, everything else waits:
 * early-server.ts) → database (locked, migrated), while the app's code loads → default settings →
 * demo data (when enabled and the database is empty) → app, which takes the socket over. Stops
 * cleanly on SIGINT and SIGTERM: the server stops taking requests, the database closes and its
 * lock is released.
 *
 * Only what listening needs is imported up front; the rest is imported once the socket listens,
 * the database module first so that PGlite opens (reads its files, compiles its WebAssembly)
 * while the app's modules load (server/README.md, "Performance").
 */
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { DataDirLockedError } from "./db/lock";
import { createEarlyServer } from "./early-server";
import { EnvError, loadEnv } from "./env";

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
  if (env.TELEGRAM_BOT_ENABLED) {
    const botAddress = (await import("./telegram/conversation")).miniAppAddressProblem(env);
    if (botAddress) fail(botAddress);
  }

  const early = createEarlyServer(env);
  try {
    await early.listen(env.HOST, env.PORT);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EADDRINUSE")
      fail(`port ${env.PORT} is in use: stop what uses it or set PORT`);
    throw error;
  }

  // The database opens first: its own work waits on its files and on the WebAssembly compile
  // (V8's background threads), and the app's modules load meanwhile on this thread.
  const { openDatabase } = await import("./db/client");
  // A new PGlite database starts from the build's ready copy, not initdb (db/initial-data.ts: memory).
  const initialData = env.DATABASE_URL ? undefined : (await import("./db/initial-data")).initialDataFor(env.DATA_DIR);
  const opening = openDatabase({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    statementTimeoutMs: env.STATEMENT_TIMEOUT_MS,
    initialData,
  });
  const code = Promise.all([
    import("@contract"),
    import("./app"),
    import("./clock"),
    import("./demo/seed"),
    import("./operator/runtime"),
    import("./plugins/static-app"),
    import("./scheduler"),
    import("./services/settings"),
    import("./services/partners"),
    import("./services/uploads"),
  ]);
  // Awaited below, after the database: a failure to open it is the one to report.
  code.catch(() => {});
  let handle: Awaited<typeof opening>;
  try {
    handle = await opening;
  } catch (error) {
    if (error instanceof DataDirLockedError) fail(error.message);
    throw error;
  }
  const [
    { DAY_MS },
    { buildApp },
    { systemClock },
    { DEMO_LOGIN, DEMO_PASSWORD, hasDemoUser, seedDemo },
    { localUrl, removeRuntimeInfo, writeRuntimeInfo },
    { hasBuiltApp },
    { addSchedulerJobs },
    { ensureDefaultSettings },
    { ensureHouseAccount },
    { sweepOrphanUploads },
  ] = await code;

  await ensureDefaultSettings(handle.db, systemClock);
  await ensureHouseAccount(handle.db, systemClock);
  const seeded = env.SEED_DEMO ? await seedDemo(handle.db, systemClock) : false;
  const demoAvailable = seeded || (env.SEED_DEMO && (await hasDemoUser(handle.db)));

  const operatorToken = env.OPERATOR_TOKEN ?? randomBytes(32).toString("base64url");
  const app = await buildApp({ env, db: handle.db, operatorToken, serverFactory: early.serverFactory });

  // The embedded database folder is this process's alone; the CLI reaches it through us.
  const runtimeDir = handle.kind === "pglite" && env.DATA_DIR !== "memory" ? env.DATA_DIR : undefined;

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
      // The server is the early one (Fastify does not close a server it did not listen on).
      const serverClosed = early.close();
      await app.close();
      await serverClosed;
    } finally {
      if (runtimeDir) removeRuntimeInfo(runtimeDir);
      await handle.close();
    }
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));

  await app.ready();
  early.handOver();

  // Accruals and the sweeper at start and then every ACCRUAL_INTERVAL_SECONDS (0: never; `kassa
  // accruals run` still works), jobs of jobs.ts. On PostgreSQL each takes its lease (db/leader.ts): one instance at a time.
  if (env.ACCRUAL_INTERVAL_SECONDS > 0) {
    addSchedulerJobs(app.jobs, {
      db: handle.db,
      clock: app.clock,
      intervalSeconds: env.ACCRUAL_INTERVAL_SECONDS,
      log: app.log,
      limiter: app.limiter,
      uploadDir: env.UPLOAD_DIR,
      codeSender: app.codeSender,
    });
  } else {
    // Without the scheduler, uploaded files nothing references are still removed once, at start.
    void sweepOrphanUploads({ db: handle.db, uploadDir: env.UPLOAD_DIR }).catch((error: unknown) =>
      app.log.error({ err: error }, "sweep of orphan uploads failed"),
    );
  }

  // The chat bot (a real token, or a local Bot API server): its chat outbox at once; getMe, the
  // webhook or polling, its commands and menu in the background, tried again with a back-off of
  // minutes while Telegram refuses (readiness shows why, telegram/bot.ts).
  if (app.bot) {
    app.bot.start().then(
      () => app.log.info({ mode: env.PUBLIC_URL ? "webhook" : "polling" }, "chat bot started"),
      (error: unknown) => app.log.error({ err: error }, "chat bot did not start"),
    );
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
