/**
 * The types every layer shares, with no import of `app.ts` (so routes, plugins and services do
 * not import the module that imports them): the app instance as the routes see it, what is
 * decorated on it, and the one context the services take.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { Clock, OffsetClock } from "./clock";
import type { Database } from "./db/client";
import type { CodeSender } from "./delivery/code-sender";
import type { DevOutbox } from "./delivery/dev-outbox";
import type { Env } from "./env";
import type { Limiter } from "./security/rate-limit";

/** The Fastify instance with the zod type provider: request parts typed by the contract's schemas. */
export type KassaApp = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** What `buildApp` decorates on the instance (`app.db`, `request.server.clock`, …). */
export interface AppContext {
  db: Database;
  clock: Clock;
  env: Env;
  /** HMAC key of stored verification codes (CODE_SECRET). */
  codeSecret: string;
  codeSender: CodeSender;
  /** Rate limits: in PostgreSQL when DATABASE_URL is set (shared by every instance), else in memory. */
  limiter: Limiter;
  /** Codes "sent" outside production; null in production. */
  devOutbox: DevOutbox | null;
  /** The clock the operator may move forward (`kassa clock advance`); null in production. */
  devClock: OffsetClock | null;
}

/**
 * The one context of the services. A service names the part it uses
 * (`Pick<ServiceContext, "db" | "clock">`), so the CLI and tests pass only that; a route passes
 * the whole context of its request (`defineRoute` builds it).
 */
export interface ServiceContext extends Omit<AppContext, "devOutbox" | "devClock"> {
  /** The request's logger (the app's outside a request). */
  log: FastifyBaseLogger;
}

/** The service context of one request (or of the app, with its own logger). */
export function serviceContext(app: FastifyInstance, log: FastifyBaseLogger = app.log): ServiceContext {
  return {
    db: app.db,
    clock: app.clock,
    env: app.env,
    codeSecret: app.codeSecret,
    codeSender: app.codeSender,
    limiter: app.limiter,
    log,
  };
}
