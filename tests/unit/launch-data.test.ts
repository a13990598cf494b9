/**
 * A launch's data comes with its code: the first calls go out before the contract's code has loaded (the
 * route table's copy in `lib/early-routes.ts`), with the kept token while the session is being restored, and
 * the screen a launch prepares follows the guards' rules.
 */
import { type RouteDef, type RouteName, routes } from "@contract";
import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { dropLaunchData, prefetchLaunchData } from "@/app/launch-data";
import { launchScreen } from "@/app/router";
import { balanceQueries } from "@/features/balance/api/balance-queries";
import { callApi } from "@/lib/api-client";
import { EARLY_ROUTES } from "@/lib/early-routes";
import { clearSession, isSignedInAtom } from "@/lib/session";
import { appStore } from "@/lib/store";
import { stubRoutes } from "./test-utils";

const BALANCE = {
  type: "balance",
  currentCurrency: "USDT",
  currencies: { USDT: "12.50", BTC: "0", ETH: "0", TON: "0" },
} as const;
const TIMED_OUT = { status: 401, body: { code: "SESSION_TIMEOUT", message: "Session timed out" } };

describe("the early routes", () => {
  it("are the contract's method and path, and none is a money call", () => {
    for (const [name, early] of Object.entries(EARLY_ROUTES)) {
      const route: RouteDef = routes[name as RouteName];
      expect({ name, method: early?.method, path: early?.path }).toEqual({
        name,
        method: route.method,
        path: route.path,
      });
      expect(route.idempotent ?? false).toBe(false);
      expect("params" in route).toBe(false);
    }
  });

  it("still check the reply against the contract", async () => {
    stubRoutes({ statistics: { body: { amountOnDeposit: "not an object" } as never } });
    await expect(callApi("statistics")).rejects.toMatchObject({ kind: "parse" });
  });
});

describe("the launch's first calls", () => {
  it("go out with the kept token before the session is restored, and a 401 does not end a session", async () => {
    clearSession();
    const fetchMock = stubRoutes({
      balance: (request) => (request.headers.get("authorization") === "Bearer kept" ? { body: BALANCE } : TIMED_OUT),
      pulse: TIMED_OUT,
    });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const launch = { screen: "cabinet" as const, cabinet: true, namespaces: [] };
    prefetchLaunchData(client, launch, "kept");
    // Sent at once, in the same turn, with the kept token.
    const sent = fetchMock.mock.calls.map(([input, init]) => ({
      path: new URL(String(input), "http://localhost").pathname,
      auth: new Headers(init?.headers).get("authorization"),
    }));
    expect(sent).toEqual(
      expect.arrayContaining([
        { path: "/api/user/balance", auth: "Bearer kept" },
        { path: "/api/user/pulse", auth: "Bearer kept" },
      ]),
    );
    await expect.poll(() => client.getQueryData(balanceQueries.balance().queryKey)).toEqual(BALANCE);
    expect(appStore.get(isSignedInAtom)).toBe(false);
    dropLaunchData(client, launch);
    expect(client.getQueryData(balanceQueries.balance().queryKey)).toBeUndefined();
  });

  it("a signed-in user is taken from an entry screen to the cabinet, a signed-out one from the cabinet to the login", () => {
    expect(launchScreen("/", true)).toEqual({ screen: "cabinet", cabinet: true });
    expect(launchScreen("/login", true)).toEqual({ screen: "cabinet", cabinet: true });
    expect(launchScreen("/news/7", true)).toEqual({ screen: "newsItem", cabinet: true });
    expect(launchScreen("/settings/", false)).toEqual({ screen: "login", cabinet: false });
    expect(launchScreen("/register/demo", false)).toEqual({ screen: "register", cabinet: false });
    expect(launchScreen("/terms/offer", true)).toEqual({ screen: "terms", cabinet: false });
    expect(launchScreen("/nowhere", false)).toEqual({ screen: "notFound", cabinet: false });
  });
});
