/**
 * The one way the app talks to the cabinet API (docs/architecture.md#how-a-request-flows): a route of the contract's
 * table called by name, its reply checked against the route's schema. The HTTP call itself (JSON in and out, the
 * bearer token, every failure one `ApiError`) is `api-request.ts`, re-exported here.
 */
import type { RouteName, RouteResponse, Routes } from "@contract";
import type { z as zc } from "zod";
import { ApiError, launchBearer } from "./api-request";
import type { CheckedCallInput } from "./checked-call";

export * from "./api-request";

type InputOf<S> = S extends zc.core.$ZodType ? zc.input<S> : never;

/** What a call of route `N` takes: `params`, `query` and `body` exactly when the contract's route has them. */
export type CallInput<N extends RouteName> = {
  signal?: AbortSignal;
  timeoutMs?: number;
  token?: string;
} & (Routes[N] extends {
  params: infer P;
}
  ? { params: InputOf<P> }
  : { params?: never }) &
  (Routes[N] extends { query: infer Q } ? { query: InputOf<Q> } : { query?: never }) &
  (Routes[N] extends { body: infer B } ? { body: InputOf<B> } : { body?: never });

type NeedsInput<N extends RouteName> = Routes[N] extends { params: unknown } | { query: unknown } | { body: unknown }
  ? true
  : false;

/**
 * Calls a route of the contract's table by name and returns its reply, checked against the route's schema:
 * `callApi('technicalWork')`, `callApi('setting', { params: { key: 'botUsername' } })`. Every call takes this
 * one way: the contract (loaded on first use, with the code that reads it, `lib/checked-call.ts`) gives the
 * method, the path and the schema.
 */
export async function callApi<N extends RouteName>(
  name: N,
  ...[input]: NeedsInput<N> extends true ? [input: CallInput<N>] : [input?: CallInput<N>]
): Promise<RouteResponse<N>> {
  const call = (input ?? {}) as CheckedCallInput;
  // A launch's token is the bearer of the calls started inside `withLaunchToken`, though they leave after the await.
  const token = call.token ?? launchBearer();
  const { checkedCall } = await loadCheckedCall().catch((error: unknown) => {
    throw new ApiError({ kind: "network", message: `The contract could not be loaded for ${name}`, cause: error });
  });
  return checkedCall(name, { ...call, token });
}

let checkedCalls: Promise<typeof import("./checked-call")> | undefined;

/**
 * `callApi`'s half that reads the contract (`checked-call.ts`), loaded once with the contract's code (the
 * cabinet's launch chunk, build/chunks.ts): the login's first screen makes no checked call and does not carry it.
 */
function loadCheckedCall(): Promise<typeof import("./checked-call")> {
  checkedCalls ??= import("./checked-call").catch((error: unknown) => {
    // A failed chunk load (offline) may succeed on the next call.
    checkedCalls = undefined;
    throw error;
  });
  return checkedCalls;
}
