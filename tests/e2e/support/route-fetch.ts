/**
 * `route.fetch()` as a browser sends a request: a kept-alive connection the server closed just as the request
 * went out resets (ECONNRESET, "socket hang up"), and the browser sends it again on a new connection; so does
 * this, up to three times. A test's route that fetches the real file to break or hold it then fails only where
 * the test means it to, never on that race (a busy machine widens it).
 */
import type { APIResponse, Route } from "playwright-core";

export async function fetchAsBrowser(route: Route, options?: Parameters<Route["fetch"]>[0]): Promise<APIResponse> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await route.fetch(options);
    } catch (error) {
      if (attempt >= 3 || !/ECONNRESET|socket hang up/i.test(String(error))) throw error;
    }
  }
}
