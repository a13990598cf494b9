/**
 * Remote data (docs/cabinet-rules.md#limits): results unused for 60 s are dropped; nothing refetches on window focus.
 * Mutations say which queries they make stale in `meta.invalidates`; the MutationCache below is the one
 * place that acts on it, so a money action refreshes every screen that shows a balance.
 */
import { MutationCache, QueryClient, type QueryKey } from "@tanstack/react-query";
import { pushAlert } from "./alerts";
import { ApiError } from "./api-client";

/** Remote data results are kept 60 seconds when unused (docs/cabinet-rules.md#limits). */
export const QUERY_GC_TIME_MS = 60_000;
/** Failed queries are tried again this many times, unless the server said no (4xx). */
const QUERY_RETRY_COUNT = 2;

declare module "@tanstack/react-query" {
  interface Register {
    defaultError: Error;
    mutationMeta: {
      /** Query keys (prefixes) to mark stale after the mutation succeeded. */
      invalidates?: readonly QueryKey[];
    };
  }
}

function isClientRefusal(error: unknown): boolean {
  return error instanceof ApiError && error.kind === "http" && (error.status ?? 0) < 500;
}

function isServerFailure(error: unknown): boolean {
  return (
    error instanceof ApiError && error.kind === "http" && (error.status ?? 0) >= 500 && error.code !== "MAINTENANCE"
  );
}

export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    mutationCache: new MutationCache({
      // Every action that fails for want of a connection says so (docs/decisions.md#a-bad-connection), also
      // where the screen shows nothing of its own (a currency switch); refusals (4xx) are the screens' to
      // explain.
      onError: (error) => {
        if (!(error instanceof ApiError) || (error.kind !== "network" && error.kind !== "timeout")) return;
        pushAlert({
          tone: "error",
          text: { ns: "common", key: error.kind === "timeout" ? "apiError.timeout" : "apiError.network" },
          replace: true,
        });
      },
      onSuccess: async (_data, _variables, _context, mutation) => {
        const keys = mutation.meta?.invalidates;
        if (!keys?.length) return;
        await Promise.all(keys.map((queryKey) => client.invalidateQueries({ queryKey })));
      },
    }),
    defaultOptions: {
      // Offline, TanStack's default pauses every fetch and action until the browser says it is online
      // again: a tap did nothing and said nothing, a screen without data spun. They run and fail
      // instead, so the screen shows its error with Try again and an action says it failed.
      queries: {
        networkMode: "always",
        gcTime: QUERY_GC_TIME_MS,
        refetchOnWindowFocus: false,
        retry: (failureCount, error) => !isClientRefusal(error) && failureCount < QUERY_RETRY_COUNT,
        // A 5xx with nothing to show goes to the route's error boundary; 4xx stay with the screen.
        throwOnError: (error, query) => isServerFailure(error) && query.state.data === undefined,
      },
      mutations: { retry: false, networkMode: "always" },
    },
  });
  return client;
}
