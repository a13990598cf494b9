/**
 * `route.fetch()` as a browser sends a request, for a test's route that fetches the real file to pass, break or
 * hold it. A kept-alive connection the server closed just as the request went out resets (ECONNRESET, "socket
 * hang up"), and the browser sends it again on a new connection; so does this, up to three times. A request
 * that still cannot be sent is answered as a browser sees it, a failed connection, so the page shows what the
 * app does then and the route never throws into the test run. A page, frame or context gone before the answer
 * (the test closed it, or took the frame out) waits for nothing: such a request is let go.
 */
import type { APIResponse, Route } from "playwright-core";

const GONE = /disposed|closed|Target page|already handled|EPIPE/i;

/** Whether a route call's error means nobody waits for the answer any more (page, frame or context gone). */
export const isGone = (error: unknown): boolean => GONE.test(String(error));

/** Rethrows an error of a route call unless it only says the page, frame or context is gone. */
export function unlessGone(error: unknown): void {
  if (!isGone(error)) throw error;
}

/** The real response, or undefined once the request is answered as a failed connection or nobody waits for it. */
export async function fetchAsBrowser(
  route: Route,
  options?: Parameters<Route["fetch"]>[0],
): Promise<APIResponse | undefined> {
  for (let attempt = 1; ; attempt++) {
    try {
      // A browser has no deadline of its own for a response; the test's own waits bound it.
      return await route.fetch({ timeout: 0, ...options });
    } catch (error) {
      if (attempt < 3 && /ECONNRESET|socket hang up/i.test(String(error))) continue;
      if (!isGone(error)) {
        console.warn(`${route.request().url()}: answered as a failed connection (${String(error).split("\n")[0]})`);
        await route.abort("failed").catch(unlessGone);
      }
      return undefined;
    }
  }
}
