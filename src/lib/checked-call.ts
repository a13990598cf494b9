/**
 * The half of `callApi` that needs the contract (docs/architecture.md#how-a-request-flows): the route's method
 * and path from the table, a money call's `Idempotency-Key` and its retries while the outcome is unknown, the
 * reply checked against the route's schema. Loaded with the contract's code (`lib/contract.ts`), so the login's
 * first screen, which makes no checked call, does not carry it.
 */
import { buildPath, type RouteDef, type RouteName, type RouteResponse, routes } from "@contract";
import { ApiError, apiRequest, isApiError, type RequestOptions } from "./api-request";
import { intentKeys } from "./idempotency";

/** What `callApi` was given, with the bearer it settled on before loading this. */
export interface CheckedCallInput {
  params?: Record<string, string>;
  query?: RequestOptions["query"];
  body?: unknown;
  signal?: AbortSignal;
  timeoutMs?: number;
  token?: string;
}

/** Sends route `name` of the contract's table and returns its reply, checked against the route's schema. */
export async function checkedCall<N extends RouteName>(name: N, call: CheckedCallInput): Promise<RouteResponse<N>> {
  const route: RouteDef = routes[name];
  const path = buildPath(route.path, call.params);
  // A money call carries the key of the user's intent (kept while the same input is retried).
  const idempotencyKey = route.idempotent
    ? intentKeys.keyFor(name, { params: call.params, body: call.body })
    : undefined;
  const request = {
    method: route.method,
    path,
    query: call.query,
    body: call.body,
    signal: call.signal,
    timeoutMs: call.timeoutMs,
    token: call.token,
    headers: idempotencyKey ? { "Idempotency-Key": idempotencyKey } : undefined,
  };
  const data = idempotencyKey ? await untilKnown(request) : await apiRequest(request);
  if (idempotencyKey) intentKeys.succeeded(name, idempotencyKey);
  const checked = route.response.safeParse(data);
  if (!checked.success) {
    throw new ApiError({
      kind: "parse",
      status: 200,
      body: data,
      message: `${route.method} ${path} answered with a reply that does not match the contract`,
      cause: checked.error,
    });
  }
  return checked.data as RouteResponse<N>;
}

/** Waits before each new try of a money call whose outcome is unknown. */
export const UNKNOWN_OUTCOME_RETRY_MS = [500, 1500, 4000] as const;

/** Whether a money call's failure leaves its outcome unknown: no answer, or the key still in flight, or a gateway's. */
function outcomeUnknown(error: unknown): boolean {
  if (!isApiError(error)) return false;
  if (error.kind === "network" || error.kind === "timeout") return true;
  return error.code === "IDEMPOTENCY_IN_FLIGHT" || error.status === 502 || error.status === 503 || error.status === 504;
}

/**
 * A money call is sent again, with the SAME Idempotency-Key, while its outcome is unknown (the server may
 * have committed it): the server answers the first outcome, never a second payment. A new key would be a new
 * payment, so none is made here; the last failure is raised when the tries run out.
 */
async function untilKnown(request: RequestOptions): Promise<unknown> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await apiRequest(request);
    } catch (error) {
      const wait = UNKNOWN_OUTCOME_RETRY_MS[attempt];
      if (wait === undefined || request.signal?.aborted || !outcomeUnknown(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
