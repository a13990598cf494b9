// What one entry of the route table is (`RouteDef`) and the function that writes one (`route`).
import type * as z from "zod/mini";

export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/**
 * Whether the call needs `Authorization: Bearer <refreshToken>`: `true` refuses a call without a
 * live session (401 SESSION_TIMEOUT); `"optional"` reads the session when there is one (logout);
 * `"operator"` needs the server's operator token (404 without it: see `operator.ts`).
 * The server authenticates a route because its entry here says so.
 */
export type RouteAuth = boolean | "optional" | "operator";

export interface RouteDef {
  method: HttpMethod;
  path: string;
  auth: RouteAuth;
  /** OpenAPI groups of the call. */
  tags: readonly string[];
  params?: z.ZodMiniType;
  query?: z.ZodMiniType;
  body?: z.ZodMiniType;
  response: z.ZodMiniType;
  /**
   * A money call: it takes an `Idempotency-Key` header, and a repeat with the same key gets the
   * first reply instead of spending again (docs/decisions.md#exactly-once-money-calls; the server's
   * `plugins/idempotency.ts`).
   */
  idempotent?: boolean;
}

/** One entry of the table, its literal types kept. */
export function route<const R extends RouteDef>(def: R): R {
  return def;
}
