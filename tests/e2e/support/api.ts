/**
 * The cabinet API as the end-to-end tests call it besides the browser (to make an investor, a refill, a
 * session): a contract route by name, `apiCall("login", { body })`, its URL made by the contract's `routeUrl`
 * and its reply parsed by the route's schema, as the app parses it. `apiReply` gives the raw status and body,
 * to look at a refusal. One client for every file: a path or a shape changes in the contract only.
 */
import { type RouteDef, type RouteName, routes, routeUrl } from "@contract";
import type { z } from "zod";
import { e2eServer } from "./worker-server";

type Part<R, K extends string> = R extends { [P in K]: infer S extends z.core.$ZodType } ? z.input<S> : never;

export interface ApiRequest<R extends RouteDef> {
  params?: Part<R, "params">;
  query?: Part<R, "query">;
  body?: Part<R, "body">;
  /** The session's refresh token, sent as the bearer token. */
  token?: string;
  /** Another server than this worker's (its base URL, without `/api`). */
  baseUrl?: string;
}

/** A route's raw reply: its status and JSON body (an error body on 4xx/5xx; `null` when empty). */
export interface ApiReply {
  status: number;
  body: unknown;
}

/** Sends the call the contract entry `name` describes: method, path with `:params`, query, JSON body, token. */
export async function apiReply<N extends RouteName>(
  name: N,
  request: ApiRequest<(typeof routes)[N]> = {},
): Promise<ApiReply> {
  const route = routes[name] as RouteDef;
  const url = routeUrl(
    route,
    request.params as Record<string, unknown> | undefined,
    request.query as Record<string, unknown> | undefined,
  );
  const body = request.body ?? (route.body ? {} : undefined);
  const res = await fetch(`${request.baseUrl ?? e2eServer().baseURL}/api${url}`, {
    method: route.method,
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(request.token ? { authorization: `Bearer ${request.token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
}

/** `apiReply` for a call that must succeed: the reply parsed by the route's schema; any other status throws. */
export async function apiCall<N extends RouteName>(
  name: N,
  request: ApiRequest<(typeof routes)[N]> = {},
): Promise<z.output<(typeof routes)[N]["response"]>> {
  const reply = await apiReply(name, request);
  if (reply.status !== 200) throw new Error(`${name} answered ${reply.status}: ${JSON.stringify(reply.body)}`);
  return (routes[name] as RouteDef).response.parse(reply.body) as z.output<(typeof routes)[N]["response"]>;
}
