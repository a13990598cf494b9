/**
 * The route table: every call the app makes, with its method, path (relative to the API base) and
 * schemas. The server registers these paths; the app's API client builds URLs from them.
 * Paths use `:param` for path segments, as Fastify does. Each area's calls are in `routes/<area>.ts`, in
 * the order the API's document lists them.
 */
import type * as z from "zod/mini";
import { accountRoutes } from "./routes/account";
import { appRoutes } from "./routes/app";
import { authRoutes } from "./routes/auth";
import { balanceRoutes } from "./routes/balance";
import { contentRoutes } from "./routes/content";
import { fundsRoutes } from "./routes/funds";
import { partnersRoutes } from "./routes/partners";
import type { RouteDef } from "./routes/route";
import { settingsRoutes } from "./routes/settings";
import { withdrawalsRoutes } from "./routes/withdrawals";

export type { HttpMethod, RouteAuth, RouteDef } from "./routes/route";

export const routes = {
  ...settingsRoutes,
  ...authRoutes,
  ...balanceRoutes,
  ...fundsRoutes,
  ...partnersRoutes,
  ...withdrawalsRoutes,
  ...accountRoutes,
  ...contentRoutes,
  ...appRoutes,
} as const;

export type Routes = typeof routes;
export type RouteName = keyof Routes;
export type RouteResponse<N extends RouteName> = z.infer<Routes[N]["response"]>;

/** Fills `:param` segments of a route path. */
export function buildPath(path: string, params: Record<string, string> = {}): string {
  return path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name}`);
    return encodeURIComponent(value);
  });
}

/** The URL of a call (relative to the API base): `:params` filled, the defined query values appended. */
export function routeUrl(
  route: Pick<RouteDef, "path">,
  params: Record<string, unknown> = {},
  query: Record<string, unknown> = {},
): string {
  const path = buildPath(route.path, Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])));
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) search.set(k, String(v));
  return search.size > 0 ? `${path}?${search}` : path;
}
