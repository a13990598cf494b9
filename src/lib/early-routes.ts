/**
 * The method and path of the calls a launch makes, known without the contract's code: `callApi` sends
 * these at once and has the reply checked off the main thread (`reply-check.ts`), instead of loading the
 * contract (zod) here first. The reply is still checked against the route's schema before anyone sees it.
 * With the first screen's calls, those its later parts make as soon as the balance shows (the whole picture,
 * the income chart, the deposits' progress), so a cabinet's launch never evaluates zod on the main thread.
 *
 * The types tie each entry to the contract's route table (a change of path or method fails to
 * compile); `tests/unit/early-routes.test.ts` holds them equal at run time and keeps money calls out.
 */
import type { RouteName, RouteResponse, Routes } from "@contract";
import { keptUser } from "./kept-user";

type EarlyRoute<N extends RouteName> = { method: Routes[N]["method"]; path: Routes[N]["path"] };

export const EARLY_ROUTES: { [N in RouteName]?: EarlyRoute<N> } = {
  currentUser: { method: "GET", path: "/user/me" },
  balance: { method: "GET", path: "/user/balance" },
  statistics: { method: "GET", path: "/user/statistics" },
  operations: { method: "GET", path: "/user/operations/" },
  subscriptionOptions: { method: "GET", path: "/settings/subscription/options" },
  pulse: { method: "GET", path: "/user/pulse" },
  notifications: { method: "GET", path: "/notification" },
  overview: { method: "GET", path: "/user/overview" },
  income: { method: "GET", path: "/user/income" },
  deposits: { method: "GET", path: "/funds/deposits" },
};

export function earlyRoute(name: RouteName): { method: string; path: string } | undefined {
  return EARLY_ROUTES[name];
}

/**
 * Replies checked without the contract's code, by a check that says exactly what the route's schema says
 * (`lib/kept-user.ts` and its property test): the current user, which a launch asks for at once (the web's
 * refresh of the kept user, Telegram's check of the kept token), before zod has any reason to load.
 */
const QUICK_CHECKS: { [N in RouteName]?: (reply: unknown) => RouteResponse<N> | null } = {
  currentUser: keptUser,
};

export function quickCheck(name: RouteName): ((reply: unknown) => unknown) | undefined {
  return QUICK_CHECKS[name];
}
