/**
 * Replies to the first calls of a cabinet launch, sent by `src/app/launcher/` beside the entry chunk
 * (before this code had even downloaded). A call takes the one for its method, URL and bearer token once,
 * within 10 s of its sending; otherwise it goes out as usual. A failed early call is simply made again.
 */
import type { Query, QueryClient, QueryKey } from "@tanstack/react-query";

interface EarlyReply {
  url: string;
  token: string | null;
  /** When it was sent (`performance.now()`). */
  at: number;
  reply: Promise<Response>;
}

declare global {
  interface Window {
    __kassaEarlyReplies?: EarlyReply[];
  }
}

/** An early reply older than this is not used (the figures would be old). */
export const EARLY_REPLY_MAX_AGE_MS = 10_000;

export function takeEarlyReply(method: string, url: string, token: string | null): Promise<Response> | undefined {
  if (typeof window === "undefined" || method !== "GET") return undefined;
  const early = window.__kassaEarlyReplies;
  if (!early?.length) return undefined;
  const now = performance.now();
  const index = early.findIndex(
    (reply) => reply.url === url && reply.token === token && now - reply.at <= EARLY_REPLY_MAX_AGE_MS,
  );
  if (index < 0) return undefined;
  const [taken] = early.splice(index, 1);
  return taken?.reply;
}

/**
 * A query the launch fetches is not asked again by the screen that mounts with its reply: the launch's reply (the
 * query's first) stays fresh for as long as an early reply may be used; after a refetch the screen's own rules
 * apply again.
 */
export function keepLaunchReplyFresh(queryClient: QueryClient, queryKey: QueryKey): void {
  queryClient.setQueryDefaults(queryKey, {
    staleTime: (query: Query) => (query.state.dataUpdateCount <= 1 ? EARLY_REPLY_MAX_AGE_MS : 0),
  });
}
