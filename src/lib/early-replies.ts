/**
 * Replies to the first calls of a cabinet launch. The launcher (`src/app/launcher/`) asks for the cabinet's first
 * screen before this code has even downloaded, and that one call answers the launch's calls too
 * (`contract/launch-calls.ts`): a call takes the reply carried for its URL and token once, within 10 s of the first
 * screen's sending; otherwise it goes out as usual. A failed early reply: the call is simply made.
 */
import type { Query, QueryClient, QueryKey } from "@tanstack/react-query";
import { resolveApiBaseUrl } from "@/config/env";

/** What the launcher left: the first screen's call, and which calls its reply answers. */
interface FirstScreenCall {
  /**
   * The URLs of the calls it answers not yet taken, relative to the API's base, and of those the ones sent without
   * a token.
   */
  carries: string[];
  tokenless: string[];
  /** The token it was sent with, and when (`performance.now()`). */
  token: string;
  at: number;
  reply: Promise<{ replies: { url: string; status: number; body: unknown }[] }>;
}

declare global {
  interface Window {
    __kassaFirstScreen?: FirstScreenCall;
  }
}

/** An early reply older than this is not used (the figures would be old). */
export const EARLY_REPLY_MAX_AGE_MS = 10_000;

export function takeEarlyReply(method: string, url: string, token: string | null): Promise<Response> | undefined {
  const first = typeof window === "undefined" ? undefined : window.__kassaFirstScreen;
  if (!first || method !== "GET" || performance.now() - first.at > EARLY_REPLY_MAX_AGE_MS) return undefined;
  const base = resolveApiBaseUrl();
  const carried = first.carries.find((relative) => `${base}${relative}` === url);
  if (carried === undefined || token !== (first.tokenless.includes(carried) ? null : first.token)) return undefined;
  // Each is taken once.
  first.carries = first.carries.filter((relative) => relative !== carried);
  return first.reply.then(({ replies }) => {
    const one = replies.find((reply) => reply.url === carried);
    if (!one) throw new Error(carried);
    return new Response(JSON.stringify(one.body), { status: one.status });
  });
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
