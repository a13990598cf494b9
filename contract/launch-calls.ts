/**
 * The calls a cabinet launch makes first, by their routes in the route table and with the queries they take: the
 * app's queries (`features/*\/api`) call them so, and the server's first screen (`GET /app/first-screen`) answers
 * them all in its one reply, which the launcher hands to the API client as those calls' replies
 * (`src/lib/early-replies.ts`) when the URLs are the same.
 */
import { type RouteName, routes, routeUrl } from "./routes";

export const BALANCE_QUERY = { type: "balance" } as const;
export const RECENT_OPERATIONS_QUERY = { page: 1, limit: 5 } as const;

/**
 * The signed-in user (inside Telegram the kept token's check), the headline's calls, then the rest of the screen's.
 * `tokenless`: the app sends it without its token (the maintenance flag, asked for before the session is restored).
 */
const LAUNCH_CALLS: { route: RouteName; query?: Record<string, unknown>; tokenless?: true }[] = [
  { route: "currentUser" },
  { route: "technicalWork", tokenless: true },
  { route: "balance", query: BALANCE_QUERY },
  { route: "overview" },
  { route: "statistics" },
  { route: "operations", query: RECENT_OPERATIONS_QUERY },
  { route: "subscriptionOptions" },
  { route: "pulse" },
];

const urlOf = ({ route, query }: (typeof LAUNCH_CALLS)[number]) => routeUrl(routes[route], {}, query);

/** Their URLs, relative to the API's base, as the app's API client builds them. */
export const LAUNCH_CALL_URLS: readonly string[] = LAUNCH_CALLS.map(urlOf);

/** Of them, those the app sends without its token. */
export const TOKENLESS_LAUNCH_CALL_URLS: readonly string[] = LAUNCH_CALLS.filter((call) => call.tokenless).map(urlOf);

/** The call that answers them all, with the cabinet's first screen (`GET /app/first-screen`). */
export const FIRST_SCREEN_URL = routeUrl(routes.firstScreen);
