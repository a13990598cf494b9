/**
 * Bearer sessions (docs/cabinet-rules.md#sessions, docs/decisions.md#d4-identity-and-sessions):
 * `app.authenticate` is the onRequest hook of every call that needs a signed-in user. It reads `Authorization:
 * Bearer <refreshToken>` and sets `request.auth`; a missing, unknown, expired or revoked token is 401
 * SESSION_TIMEOUT (before the request is even validated, so nothing about the schema leaks), which the app
 * takes as "session over". Routes read the caller with `requireUser(request)`.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../errors";
import { type AuthSession, findLiveSession } from "../services/sessions";

declare module "fastify" {
  interface FastifyInstance {
    authenticate: (request: FastifyRequest) => Promise<void>;
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

export function registerAuth(app: FastifyInstance): void {
  app.decorateRequest("auth", null);
  app.decorate("authenticate", async (request: FastifyRequest) => {
    const token = bearerToken(request);
    const session = token ? await findLiveSession(app.db, app.clock, token) : null;
    if (!session) throw sessionTimeout();
    request.auth = session;
  });
}

/** The signed-in caller; only after `app.authenticate` ran. */
export function requireUser(request: FastifyRequest): AuthSession {
  if (!request.auth) throw sessionTimeout();
  return request.auth;
}
