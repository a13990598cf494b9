/**
 * The Kassa server as a Fastify instance, not yet listening: security headers, compression, the
 * zod type provider (requests validated and replies serialized by the contract's schemas), the
 * OpenAPI document, every API route under /api, the one error handler and, when the app is
 * built, the app itself with SPA fallback. `main.ts` listens; tests call `inject`.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyServerOptions,
  type RawServerDefault,
} from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { type Clock, systemClock } from "./clock";
import type { Database } from "./db/client";
import type { Env } from "./env";
import { registerErrorHandler, sendError } from "./errors";
import { decorateContext } from "./plugins/context";
import { registerDocs } from "./plugins/docs";
import { registerSecurity } from "./plugins/security";
import { hasBuiltApp, registerStaticApp, sendAppShell, wantsAppShell } from "./plugins/static-app";
import { devRoutes } from "./routes/dev";
import { healthRoutes } from "./routes/health";
import { operatorRoutes } from "./routes/operator";
import { settingsRoutes } from "./routes/settings";

export const API_PREFIX = "/api";
export const SERVER_VERSION = "0.1.0";

export type KassaApp = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

export interface BuildAppOptions {
  env: Env;
  db: Database;
  clock?: Clock;
  /** Fastify's logger option; by default JSON logs at `env.LOG_LEVEL`. Tests pass `false`. */
  logger?: FastifyServerOptions["logger"];
  /** Secret of `/api/operator/*`; falls back to `env.OPERATOR_TOKEN`. Without one those routes do not exist. */
  operatorToken?: string | undefined;
}

export async function buildApp(options: BuildAppOptions): Promise<KassaApp> {
  const { env, db } = options;
  const clock = options.clock ?? systemClock;
  const operatorToken = options.operatorToken ?? env.OPERATOR_TOKEN;

  const app = Fastify({
    logger: options.logger ?? { level: env.LOG_LEVEL },
    // Our own ids, not the client's: a log line is always traceable to one request.
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  decorateContext(app, { db, clock, env });
  registerErrorHandler(app);
  app.addHook("onSend", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });

  await registerSecurity(app, env);
  await registerDocs(app, SERVER_VERSION);

  await app.register(
    async (api) => {
      await api.register(healthRoutes);
      await api.register(settingsRoutes);
      if (env.NODE_ENV !== "production") await api.register(devRoutes);
      if (operatorToken) await api.register(operatorRoutes, { token: operatorToken });
    },
    { prefix: API_PREFIX },
  );

  const staticDir = env.STATIC_DIR !== null && hasBuiltApp(env.STATIC_DIR) ? env.STATIC_DIR : null;
  if (staticDir) await registerStaticApp(app, staticDir);

  app.setNotFoundHandler((request, reply) => {
    if (staticDir && wantsAppShell(request)) return sendAppShell(reply);
    return sendError(reply, "NOT_FOUND");
  });

  return app;
}
