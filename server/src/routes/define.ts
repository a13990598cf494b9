/**
 * One way to serve a call: `defineRoute(app, routes.bonus, handler)` takes the method, the path,
 * the request and reply schemas, the tags and the authentication from the contract's entry; the
 * error replies (the contract's `ApiErrorBody` for 4xx and 5xx) and the OpenAPI security follow
 * from them. The handler gets the parsed request parts, the caller's session (when the entry says
 * `auth`) and the request's service context.
 *
 * Route-level behaviour that hangs off the contract entry (authentication today) is gathered in
 * `routeHooks`; a new per-route option goes there, read from the entry or from `options`.
 */
import { type RouteDef, routes } from "@contract";
import { operatorRoutes } from "@contract/operator";
import type {
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  preValidationHookHandler,
  RouteShorthandOptions,
} from "fastify";
import type { z } from "zod";
import { type KassaApp, type ServiceContext, serviceContext } from "../context";
import { ambientTransaction } from "../db/ambient";
import { bearerToken, settleAuth } from "../plugins/auth";
import { type AuthSession, findLiveSession } from "../services/sessions";
import { withErrors } from "./responses";

type Part<R, K extends string> = R extends { [P in K]: infer S extends z.core.$ZodType } ? z.output<S> : undefined;

/** The session a handler gets: always one for `auth: true`, maybe one for `"optional"`, none otherwise. */
type RouteSession<R extends RouteDef> = R["auth"] extends true
  ? AuthSession
  : R["auth"] extends "optional"
    ? AuthSession | null
    : null;

interface RouteCall<R extends RouteDef> {
  body: Part<R, "body">;
  params: Part<R, "params">;
  query: Part<R, "query">;
  auth: RouteSession<R>;
  /** The services' context, with this request's logger. */
  ctx: ServiceContext;
  request: FastifyRequest;
  reply: FastifyReply;
}

type RouteReply<R extends RouteDef> = z.output<R["response"]>;
export type RouteHandler<R extends RouteDef> = (call: RouteCall<R>) => Promise<RouteReply<R>> | RouteReply<R>;

export interface RouteOptions {
  /** OpenAPI summary and description (the server's words, kept out of the app's bundle). */
  summary?: string;
  description?: string;
  /** OpenAPI tags besides the contract's. */
  tags?: readonly string[];
  /** The OpenAPI operationId of a call that is not a contract entry (a development call). */
  operationId?: string;
  /** OpenAPI security instead of the one `auth` implies (operator calls). */
  security?: readonly Record<string, readonly string[]>[];
  /** Request content types besides JSON (multipart calls). */
  consumes?: readonly string[];
  /** Fastify's body limit of this route, in bytes. */
  bodyLimit?: number;
  /** onRequest hooks run after the contract's own (authentication). */
  onRequest?: onRequestHookHandler[];
  /** Runs before validation (a body-less call taken as `{}`). */
  preValidation?: preValidationHookHandler;
  /**
   * The server's own path schema when it must be looser than the contract's (a private or unknown
   * setting key is "not found" rather than "invalid"); the handler still sees the contract's type.
   */
  params?: z.core.$ZodType;
}

/**
 * Each contract entry's name (`createRefill`, `refills` …), the OpenAPI operationId of its call; the
 * operator's calls as `operator` + their name (`operatorRefills`), since some share a name with the
 * cabinet's.
 */
const ROUTE_NAMES = new Map<RouteDef, string>([
  ...Object.entries(operatorRoutes).map(([name, def]): [RouteDef, string] => [
    def,
    `operator${name[0]?.toUpperCase()}${name.slice(1)}`,
  ]),
  ...Object.entries(routes).map(([name, def]): [RouteDef, string] => [def, name]),
]);

/** OpenAPI for "no authentication" (a public call says so instead of saying nothing). */
const PUBLIC: readonly Record<string, readonly string[]>[] = [];
const BEARER = [{ bearer: [] }];
/** OpenAPI for "a bearer token or none". */
const OPTIONAL_BEARER = [{ bearer: [] }, {}];
const OPERATOR = [{ operator: [] }];

/** The hooks a contract entry implies, in order. */
function routeHooks(app: KassaApp, route: RouteDef, options: RouteOptions): onRequestHookHandler[] {
  const hooks: onRequestHookHandler[] = [];
  if (route.auth === true) hooks.push(app.authenticate);
  if (route.auth === "optional") {
    hooks.push((request, _reply, done) => {
      const token = bearerToken(request);
      settleAuth(request, token ? findLiveSession(app.db, app.clock, token) : null, done, false);
    });
  }
  if (route.auth === "operator") hooks.push(app.authenticateOperator);
  return [...hooks, ...(options.onRequest ?? [])];
}

function routeSecurity(route: RouteDef, options: RouteOptions) {
  if (options.security) return options.security;
  if (route.auth === true) return BEARER;
  if (route.auth === "optional") return OPTIONAL_BEARER;
  if (route.auth === "operator") return OPERATOR;
  return PUBLIC;
}

export function defineRoute<R extends RouteDef>(app: KassaApp, route: R, handler: RouteHandler<R>): void;
export function defineRoute<R extends RouteDef>(
  app: KassaApp,
  route: R,
  options: RouteOptions,
  handler: RouteHandler<R>,
): void;
export function defineRoute<R extends RouteDef>(
  app: KassaApp,
  route: R,
  optionsOrHandler: RouteOptions | RouteHandler<R>,
  maybeHandler?: RouteHandler<R>,
): void {
  const options = typeof optionsOrHandler === "function" ? {} : optionsOrHandler;
  const handler = typeof optionsOrHandler === "function" ? optionsOrHandler : maybeHandler;
  if (!handler) throw new Error(`defineRoute ${route.method} ${route.path}: no handler`);
  const hooks = routeHooks(app, route, options);
  const security = routeSecurity(route, options);
  const shorthand: RouteShorthandOptions = {
    ...(hooks.length > 0 ? { onRequest: hooks } : {}),
    ...(options.bodyLimit === undefined ? {} : { bodyLimit: options.bodyLimit }),
    ...(options.preValidation ? { preValidation: options.preValidation } : {}),
  };

  app.route({
    ...shorthand,
    method: route.method,
    url: route.path,
    schema: {
      tags: [...route.tags, ...(options.tags ?? [])],
      operationId: options.operationId ?? ROUTE_NAMES.get(route) ?? `${route.method.toLowerCase()}${route.path}`,
      ...(options.summary === undefined ? {} : { summary: options.summary }),
      ...(options.description === undefined ? {} : { description: options.description }),
      security: security.map((s) => ({ ...s })) as { [key: string]: string[] }[],
      ...(options.consumes ? { consumes: [...options.consumes] } : {}),
      ...(options.params || route.params ? { params: options.params ?? route.params } : {}),
      ...(route.query ? { querystring: route.query } : {}),
      ...(route.body ? { body: route.body } : {}),
      response: withErrors({ 200: route.response }),
    },
    // Not async: a reply the handler has at once (a kept one) is sent at once, without a turn of the event loop.
    handler: (request, reply) => {
      // An idempotent money call runs in the transaction that claims its key (plugins/idempotency.ts).
      const tx = ambientTransaction();
      const ctx = serviceContext(app, request.log);
      const result = handler({
        body: request.body as Part<R, "body">,
        params: request.params as Part<R, "params">,
        query: request.query as Part<R, "query">,
        auth: request.auth as RouteSession<R>,
        ctx: tx ? { ...ctx, db: tx } : ctx,
        request,
        reply,
      });
      // Nothing, or the reply a handler sent itself: as a promise, as Fastify takes an async handler's (it then
      // sends what is not sent yet).
      return result === undefined || (result as unknown) === reply ? Promise.resolve(result) : result;
    },
  });
}
