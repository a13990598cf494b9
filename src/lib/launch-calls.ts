/**
 * The calls a cabinet launch makes first, by their routes in the route table (`contract/routes.ts`) and with the
 * queries they take: the app's queries (`features/*\/api`) call them so, and the build writes their URLs into the
 * launcher (`build/launch-preload.ts`), which sends them before the app's code has come; the API client takes
 * those replies (`early-replies.ts`) when the URLs are the same.
 */
export const BALANCE_QUERY = { type: "balance" } as const;
export const RECENT_OPERATIONS_QUERY = { page: 1, limit: 5 } as const;

/**
 * In the order they go out: those of the first screen's headline, which the launcher paints (inside Telegram the
 * kept token's check, `currentUser`, beside them), then the rest of the first screen's.
 */
export const LAUNCH_CALLS = {
  check: { route: "currentUser", query: {} },
  first: [
    { route: "technicalWork", query: {} },
    { route: "balance", query: BALANCE_QUERY },
    { route: "overview", query: {} },
  ],
  rest: [
    { route: "statistics", query: {} },
    { route: "operations", query: RECENT_OPERATIONS_QUERY },
    { route: "subscriptionOptions", query: {} },
    { route: "pulse", query: {} },
  ],
} as const;

/**
 * The painted first screen's call (`firstScreen`), and the calls whose replies its reply carries (by its fields):
 * where the launcher asks for the painted screen, it sends those no more.
 */
export const FIRST_SCREEN_CALL = {
  route: "firstScreen",
  carries: { user: LAUNCH_CALLS.check, overview: LAUNCH_CALLS.first[2] },
} as const;
