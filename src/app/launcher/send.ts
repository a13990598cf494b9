// One call of the launcher to the API, as the API client would send it: the launch's calls and the painted screen's.
import { resolveApiBaseUrl } from "@/config/env";

type EarlyReply = NonNullable<Window["__kassaEarlyReplies"]>[number];

/** A GET of `path` (relative to the API's base), with the token as its bearer, and when it was sent. */
export function send(path: string, bearer: string | null): EarlyReply {
  const url = `${resolveApiBaseUrl()}${path}`;
  const headers: Record<string, string> = { Accept: "application/json" };
  if (bearer) headers.Authorization = `Bearer ${bearer}`;
  return { url, token: bearer, at: performance.now(), reply: fetch(url, { headers, credentials: "same-origin" }) };
}
