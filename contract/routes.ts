/**
 * The route table: every call the app makes, with its method, path (relative to the API base) and
 * schemas. The server registers these paths; the app's API client builds URLs from them.
 * Paths use `:param` for path segments, as Fastify does.
 */
import { z } from "zod";
import {
  PaymentSystemsReply,
  PlansReply,
  PublicSettingKey,
  SettingReply,
  SubscriptionOptionsReply,
  TechnicalWorkReply,
  TelegramAuthAvailableReply,
} from "./settings";

export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

export interface RouteDef {
  method: HttpMethod;
  path: string;
  /** Whether the call needs `Authorization: Bearer <refreshToken>`. */
  auth: boolean;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
}

function route<const R extends RouteDef>(def: R): R {
  return def;
}

export const routes = {
  // Settings (spec §7)
  telegramAuthAvailable: route({
    method: "GET",
    path: "/settings/telegramAuthAvailable",
    auth: false,
    response: TelegramAuthAvailableReply,
  }),
  technicalWork: route({
    method: "GET",
    path: "/settings/technical_work",
    auth: false,
    response: TechnicalWorkReply,
  }),
  subscriptionOptions: route({
    method: "GET",
    path: "/settings/subscription/options",
    auth: false,
    response: SubscriptionOptionsReply,
  }),
  setting: route({
    method: "GET",
    path: "/settings/:key",
    auth: false,
    params: z.object({ key: PublicSettingKey }),
    response: SettingReply,
  }),
  plansAvailable: route({
    method: "GET",
    path: "/settings_other/plans/available",
    auth: false,
    response: PlansReply,
  }),
  paymentSystems: route({
    method: "GET",
    path: "/payment-systems",
    auth: false,
    response: PaymentSystemsReply,
  }),
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
