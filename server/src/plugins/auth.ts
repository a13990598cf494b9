/**
 * Bearer sessions (docs/cabinet-rules.md#sessions, docs/decisions.md#d4-identity-and-sessions):
 * `app.authenticate` is the onRequest hook of every call that needs a signed-in user. It reads `Authorization:
 * Bearer <refreshToken>` and sets `request.auth`; a missing, unknown, expired or revoked token is 401
 * SESSION_TIMEOUT (before the request is even validated, so nothing about the schema leaks), which the app
 * takes as "session over". Routes read the caller with `requireUser(request)`.
 */
import type { FastifyInstance, FastifyRequest, HookHandlerDoneFunction, onRequestHookHandler } from "fastify";
import type { Awaitable } from "../db/change-feed";
import { AppError } from "../errors";
import { type AuthSession, findLiveSession } from "../services/sessions";

declare module "fastify" {
  interface FastifyInstance {
    authenticate: onRequestHookHandler;
    /** The onRequest hook of `auth: "operator"` routes; decorated by the operator routes plugin. */
    authenticateOperator: (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyRequest {
    auth: AuthSession | null;
  }
}

/** The token of `Authorization: Bearer <token>`, or undefined. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

export function sessionTimeout(): AppError {
  return new AppError("SESSION_TIMEOUT", { headers: { "www-authenticate": 'Bearer realm="kassa"' } });
}

/**
 * Sets `request.auth` to the session `found` (null: none) and goes on with `done`: at once when the session was kept
 * (the hook then takes no turn of the event loop), else once it is read.
 */
export function settleAuth(
  request: FastifyRequest,
  found: Awaitable<AuthSession | null>,
  done: HookHandlerDoneFunction,
  required: boolean,
): void {
  const settle = (session: AuthSession | null) => {
    if (!session && required) return done(sessionTimeout());
    request.auth = session;
    done();
  };
  if (found instanceof Promise) found.then(settle, done);
  else settle(found);
}

export function registerAuth(app: FastifyInstance): void {
  app.decorateRequest("auth", null);
  app.decorate("authenticate", (request: FastifyRequest, _reply: unknown, done: HookHandlerDoneFunction) => {
    const token = bearerToken(request);
    settleAuth(request, token ? findLiveSession(app.db, app.clock, token) : null, done, true);
  });
}

/** The signed-in caller; only after `app.authenticate` ran. */
export function requireUser(request: FastifyRequest): AuthSession {
  if (!request.auth) throw sessionTimeout();
  return request.auth;
}
