/**
 * The Kassa server as a Fastify instance, not yet listening: security headers, compression, the
 * zod type provider (requests validated and replies serialized by the contract's schemas), the
 * OpenAPI document, the maintenance gate, bearer sessions, every API route under /api, the one
 * error handler and, when the app is built, the app itself with SPA fallback. `main.ts` listens;
 * tests call `inject`.
 */
import { randomBytes, randomUUID } from "node:crypto";
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyServerOptions,
  LogController,
} from "fastify";
import { validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { type Clock, offsetClock, systemClock } from "./clock";
import type { KassaApp } from "./context";
import { startKept, stopKept } from "./db/change-feed";
import type { Database } from "./db/client";
import type { CodeSender } from "./delivery/code-sender";
import { DevCodeSender, DevOutbox } from "./delivery/dev-outbox";
import { productionCodeSender } from "./delivery/production";
import { capConnections, httpTimeouts } from "./early-server";
import type { Env } from "./env";
import { AppError, errorBody, registerErrorHandler, sendError } from "./errors";
import { Jobs } from "./jobs";
import { registerAuth } from "./plugins/auth";
import { decorateContext } from "./plugins/context";
import { registerDocs } from "./plugins/docs";
import { registerIdempotency } from "./plugins/idempotency";
import { registerMaintenance } from "./plugins/maintenance";
import { registerQueryScope } from "./plugins/query-scope";
import { registerReadYourWrites } from "./plugins/read-your-writes";
import { registerSecurity } from "./plugins/security";
import { hasBuiltApp, registerStaticApp, sendAppShell, wantsAppShell } from "./plugins/static-app";
import { authRoutes } from "./routes/auth";
import { contentRoutes } from "./routes/content";
import { cryptoCasesRoutes } from "./routes/crypto-cases";
import { devRoutes } from "./routes/dev";
import { firstScreenRoutes } from "./routes/first-screen";
import { fundsRoutes } from "./routes/funds";
import { withdrawalRoutes } from "./routes/funds/withdrawals";
import { healthRoutes } from "./routes/health";
import { mailRoutes } from "./routes/mail";
import { notificationRoutes } from "./routes/notifications";
import { operatorRoutes } from "./routes/operator";
import { replySerializerCompiler } from "./routes/reply-json";
import { settingsRoutes } from "./routes/settings";
import { userRoutes } from "./routes/user";
import { userHomeRoutes } from "./routes/user/home";
import { userMoneyRoutes } from "./routes/user/money";
import { userPartnersRoutes } from "./routes/user/partners";
import { userSettingsRoutes } from "./routes/user/settings";
import { userUploadRoutes } from "./routes/user/uploads";
import { userWalletsRoutes } from "./routes/user/wallets";
import { MAX_BODY_DEPTH, nestsDeeperThan } from "./security/body-depth";
import { createLimiter } from "./security/rate-limit";
import { addNoticeJob } from "./services/notice-outbox";
import { getSetting } from "./services/settings";
import type { KassaBot } from "./telegram/bot";

export const API_PREFIX = "/api";
export const SERVER_VERSION = "0.1.0";

export interface BuildAppOptions {
  env: Env;
  db: Database;
  clock?: Clock;
  /** Fastify's logger option; by default JSON logs at `env.LOG_LEVEL`. Tests pass `false`. */
  logger?: FastifyServerOptions["logger"];
  /** Secret of `/api/operator/*`; falls back to `env.OPERATOR_TOKEN`. Without one those routes do not exist. */
  operatorToken?: string | undefined;
  /**
   * How verification codes go out. By default: outside production the development outbox; in
   * production the bot for Telegram-linked users, SMTP (`SMTP_URL`) for e-mail and the SMS provider
   * (`SMS_*`) for SMS; a channel without its provider fails over to the next (else 502 CODE_SEND_FAILED).
   */
  codeSender?: CodeSender;
  /** The chat bot; by default one when `env.TELEGRAM_BOT_ENABLED` (main.ts starts it), else none. */
  bot?: KassaBot | null;
  /**
   * The HTTP server to serve on instead of one Fastify creates (Fastify's `serverFactory`): main.ts
   * passes the one already listening since the start (early-server.ts), with its timeouts set.
   */
  serverFactory?: FastifyServerOptions["serverFactory"];
}

export async function buildApp(options: BuildAppOptions): Promise<KassaApp> {
  const { env, db } = options;
  // Outside production the operator may move time forward (`kassa clock advance`); the offset is a
  // setting, so it survives a restart.
  const devClock =
    env.NODE_ENV === "production"
      ? null
      : offsetClock(options.clock ?? systemClock, (await getSetting(db, "devClock")).offsetSeconds * 1000);
  const clock = devClock ?? options.clock ?? systemClock;
  const operatorToken = options.operatorToken ?? env.OPERATOR_TOKEN;

  const timeouts = httpTimeouts(env);
  const app = Fastify({
    logger: options.logger ?? { level: env.LOG_LEVEL },
    ...(options.serverFactory ? { serverFactory: options.serverFactory } : {}),
    // Our own ids, not the client's: a log line is always traceable to one request.
    genReqId: () => randomUUID(),
    // One log line per request (below), not Fastify's two ("incoming request", "request completed").
    logController: new LogController({ disableRequestLogging: true }),
    requestIdHeader: false,
    routerOptions: { ignoreTrailingSlash: true },
    // The client address that rate limits count by (and the protocol HSTS depends on): the
    // socket's, or X-Forwarded-For's only on a connection from a proxy listed in TRUST_PROXY.
    trustProxy: env.TRUST_PROXY,
    // The connection timeouts (early-server.ts): a server passed in has them set already.
    requestTimeout: timeouts.requestTimeout,
    keepAliveTimeout: timeouts.keepAliveTimeout,
    connectionTimeout: timeouts.connectionTimeout,
    http: {
      headersTimeout: timeouts.headersTimeout,
      connectionsCheckingInterval: timeouts.connectionsCheckingInterval,
    },
    // What the router refuses before any route (a bad %-escape 400, a parameter over its length
    // 414) gets the catalogue's body with the router's status, not Fastify's own body.
    frameworkErrors: (error, request, reply) => {
      const status = error.statusCode ?? 500;
      if (status >= 400 && status < 500) {
        request.log.info({ err: error }, "request refused");
        const plain: FastifyReply = reply;
        return plain.code(status).type("application/json; charset=utf-8").send(errorBody("VALIDATION_FAILED"));
      }
      request.log.error({ err: error }, "request failed");
      return sendError(reply, "INTERNAL");
    },
  }).withTypeProvider<ZodTypeProvider>();
  // The connection caps (a server passed in has them already).
  if (!options.serverFactory) capConnections(app.server, env);

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(replySerializerCompiler);
  acceptEmptyJsonBodies(app);
  const devOutbox = env.NODE_ENV === "production" ? null : new DevOutbox();
  decorateContext(app, {
    db,
    clock,
    env,
    // Outside production an unset key is random per process (codes do not survive a restart).
    codeSecret: env.CODE_SECRET ?? randomBytes(32).toString("base64url"),
    codeSender: options.codeSender ?? defaultCodeSender(env, clock, devOutbox, app.log),
    limiter: createLimiter({ clock, db, shared: env.DATABASE_URL !== undefined }),
    devOutbox,
    devClock,
  });
  // The bot's modules (and its library, grammy) are imported only when there is a bot: a server
  // without one never loads them (tests/integration/lean-start.test.ts).
  // The background jobs (jobs.ts): the bot's, and what main.ts and the routes add; they start once the app is ready.
  const kind = env.DATABASE_URL ? "postgres" : "pglite";
  const bot =
    options.bot !== undefined
      ? options.bot
      : env.TELEGRAM_BOT_ENABLED
        ? new (await import("./telegram/bot")).KassaBot({
            env,
            db,
            clock,
            log: app.log,
            jobs: new Jobs(db, kind, app.log),
          })
        : null;
  const jobs = bot?.jobs ?? new Jobs(db, kind, app.log);
  app.decorate("bot", bot);
  app.decorate("jobs", jobs);
  // Account notices through the code channel and news by e-mail (services/notice-outbox.ts): every instance sends.
  addNoticeJob(jobs, {
    db,
    codeSender: app.codeSender,
    log: app.log,
    unsubscribe: { publicUrl: env.PUBLIC_URL, secret: app.codeSecret },
  });
  app.addHook("onReady", async () => jobs.start());
  app.addHook("onClose", async () => {
    await jobs.stop();
  });
  // Settings, sessions and pulses kept in memory until the database says they changed.
  await startKept(db);
  app.addHook("onClose", async () => {
    await stopKept(db);
  });
  registerErrorHandler(app);
  // Before the query scope: waiting for this instance's change feed is not a statement of the request.
  registerReadYourWrites(app, db);
  // First of the hooks: everything after it runs in the request's query scope.
  registerQueryScope(app);
  registerMaintenance(app);
  registerAuth(app);
  // Before the routes: it hooks the money routes the contract flags `idempotent` as they are added.
  registerIdempotency(app, API_PREFIX);
  app.addHook("onSend", (request, reply, payload, done) => {
    reply.header("x-request-id", request.id);
    done(null, payload);
  });
  app.addHook("onResponse", (request, reply, done) => {
    request.log.info(
      { method: request.method, url: request.url, statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) },
      "request",
    );
    done();
  });

  await registerSecurity(app, env);
  if (env.API_DOCS) await registerDocs(app, SERVER_VERSION, { production: env.NODE_ENV === "production" });

  const staticDir = env.STATIC_DIR !== null && hasBuiltApp(env.STATIC_DIR) ? env.STATIC_DIR : null;
  await app.register(
    async (api) => {
      await api.register(healthRoutes);
      await api.register(settingsRoutes);
      await api.register(authRoutes);
      await api.register(userRoutes);
      await api.register(userMoneyRoutes);
      await api.register(userHomeRoutes);
      await api.register(userPartnersRoutes);
      await api.register(userWalletsRoutes);
      await api.register(userSettingsRoutes);
      await api.register(userUploadRoutes);
      await api.register(withdrawalRoutes);
      await api.register(fundsRoutes);
      await api.register(cryptoCasesRoutes);
      await api.register(contentRoutes);
      await api.register(notificationRoutes);
      await api.register(mailRoutes);
      await api.register(firstScreenRoutes, { staticDir });
      if (bot) await api.register((await import("./routes/telegram")).telegramRoutes, { bot });
      if (env.NODE_ENV !== "production") await api.register(devRoutes);
      if (operatorToken) await api.register(operatorRoutes, { token: operatorToken });
    },
    { prefix: API_PREFIX },
  );

  if (staticDir) await registerStaticApp(app, staticDir);

  app.setNotFoundHandler((request, reply) => {
    if (staticDir && wantsAppShell(request)) return sendAppShell(reply);
    return sendError(reply, "NOT_FOUND");
  });

  return app;
}

function defaultCodeSender(env: Env, clock: Clock, outbox: DevOutbox | null, log: FastifyBaseLogger): CodeSender {
  if (outbox) return new DevCodeSender(outbox, clock, log);
  return productionCodeSender(env);
}

/**
 * A POST without a body but with `content-type: application/json` (logout, phone resend) is a
 * request without a body, not malformed JSON. Everything else goes to Fastify's own parser, with
 * its prototype-poisoning protection, and a body nested deeper than MAX_BODY_DEPTH is refused
 * there, before anything walks it.
 */
function acceptEmptyJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    if (typeof body === "string" && body.trim() === "") return done(null, undefined);
    return parseJson(request, body as string, (error, parsed) => {
      if (error) return done(error, undefined);
      if (nestsDeeperThan(parsed, MAX_BODY_DEPTH)) return done(new AppError("VALIDATION_FAILED"), undefined);
      return done(null, parsed);
    });
  });
}
