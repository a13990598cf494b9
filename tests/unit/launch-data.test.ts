/**
 * A launch's data comes with its code: the first calls go out with the kept token while the session is being
 * restored, each reply checked against its route's schema as any call's, and the screen a launch prepares
 * follows the guards' rules.
 */
import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { startLaunch } from "@/app/launch";
import { dropLaunchData, prefetchLaunchData } from "@/app/launch-data";
import { launchScreen } from "@/app/router";
import { balanceQueries } from "@/features/balance/api/balance-queries";
import { settingsQueries } from "@/features/settings/api/settings-queries";
import { apiRequest, callApi } from "@/lib/api-client";
import { EARLY_REPLY_MAX_AGE_MS } from "@/lib/early-replies";
import { createQueryClient } from "@/lib/query-client";
import { clearSession, isSignedInAtom } from "@/lib/session";
import { appStore } from "@/lib/store";
import { aStatistics } from "./fixtures";
import { oneSetting } from "./route-stubs";
import { DEMO_USER, stubRoutes } from "./test-utils";

const BALANCE = {
  type: "balance",
  currentCurrency: "USDT",
  currencies: { USDT: "12.50", BTC: "0", ETH: "0", TON: "0" },
} as const;
const STATISTICS = aStatistics();
const TIMED_OUT = { status: 401, body: { code: "SESSION_TIMEOUT", message: "Session timed out" } };

describe("the replies", () => {
  it("are checked against the route's schema, which keeps only its fields", async () => {
    stubRoutes({ currentUser: { body: { ...DEMO_USER, extra: 1 } as never } });
    await expect(callApi("currentUser")).resolves.toEqual(DEMO_USER);
    stubRoutes({ currentUser: { body: { ...DEMO_USER, notifications: { unread: -1 } } as never } });
    await expect(callApi("currentUser")).rejects.toMatchObject({ kind: "parse" });
  });

  it("fail as a parse error when they do not fit it", async () => {
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
    const fetched = prefetchLaunchData(client, launch, "kept");
    await fetched;
    // Sent with the kept token, though they left once the contract had loaded.
    const sent = fetchMock.mock.calls.map(([input, init]) => ({
      path: new URL(String(input), "http://localhost").pathname,
      auth: new Headers(init?.headers).get("authorization"),
    }));
    expect(sent).toEqual(
      expect.arrayContaining([
        // The headline's call too: the cabinet's first render waits for these, so it shows the figure at once.
        { path: "/api/user/overview", auth: "Bearer kept" },
        { path: "/api/user/balance", auth: "Bearer kept" },
        { path: "/api/user/pulse", auth: "Bearer kept" },
      ]),
    );
    await expect.poll(() => client.getQueryData(balanceQueries.balance().queryKey)).toEqual(BALANCE);
    expect(appStore.get(isSignedInAtom)).toBe(false);
    dropLaunchData(client, launch);
    expect(client.getQueryData(balanceQueries.balance().queryKey)).toBeUndefined();
  });

  it("are checked as they come, and are not asked again when the screen mounts", async () => {
    clearSession();
    const fetchMock = stubRoutes({
      balance: { body: BALANCE },
      statistics: { body: { ...STATISTICS, referrals: "not a number" } as never },
      operations: { body: { items: [], total: 0, page: 1, limit: 5 } },
      subscriptionOptions: { body: [] },
      pulse: { body: { version: "1", unread: 0 } },
    });
    const client = createQueryClient();
    client.setDefaultOptions({ queries: { ...client.getDefaultOptions().queries, retry: false } });
    const launch = { screen: "cabinet" as const, cabinet: true, namespaces: [] };
    await prefetchLaunchData(client, launch, "kept");
    // The reply that does not fit the contract is a parse failure, as any call's; the others show.
    expect(client.getQueryState(balanceQueries.statistics().queryKey)).toMatchObject({
      status: "error",
      data: undefined,
      error: { kind: "parse" },
    });
    expect(client.getQueryData(balanceQueries.balance().queryKey)).toEqual(BALANCE);
    const sent = fetchMock.mock.calls.length;
    // The screen mounts: the launch's reply is fresh, it is not asked again.
    const unsubscribe = new QueryObserver(client, balanceQueries.balance()).subscribe(() => undefined);
    try {
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(fetchMock.mock.calls.length).toBe(sent);
    } finally {
      unsubscribe();
      client.clear();
    }
  });

  it("a login launch asks for the Telegram offer's settings beside the login's code, and the screen not again", async () => {
    const asked = (fetchMock: ReturnType<typeof stubRoutes>) =>
      fetchMock.mock.calls.map(([input]) => new URL(String(input), "http://localhost").pathname);
    const web = stubRoutes({
      telegramAuthAvailable: { body: { available: true } },
      setting: oneSetting("botUsername", "KassaCabinetBot"),
    });
    const client = createQueryClient();
    startLaunch(client, "/login");
    expect(asked(web)).toEqual(
      expect.arrayContaining(["/api/settings/telegramAuthAvailable", "/api/settings/botUsername"]),
    );
    await expect.poll(() => client.getQueryData(settingsQueries.botUsername().queryKey)).toBeDefined();
    const observers = [
      new QueryObserver(client, settingsQueries.telegramAuthAvailable()).subscribe(() => undefined),
      new QueryObserver(client, settingsQueries.botUsername()).subscribe(() => undefined),
    ];
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const unsubscribe of observers) unsubscribe();
    expect(asked(web).filter((path) => /telegramAuthAvailable|botUsername/.test(path))).toEqual([
      "/api/settings/telegramAuthAvailable",
      "/api/settings/botUsername",
    ]);
    client.clear();
    // Inside Telegram the login signs in by itself and links to no bot: only the flag.
    const telegram = stubRoutes({});
    startLaunch(createQueryClient(), "/login", { telegram: true });
    expect(asked(telegram)).toContain("/api/settings/telegramAuthAvailable");
    expect(asked(telegram)).not.toContain("/api/settings/botUsername");
    // Nor does a cabinet launch ask for them.
    const cabinet = stubRoutes({});
    startLaunch(createQueryClient(), "/terms");
    expect(asked(cabinet).filter((path) => /telegramAuthAvailable|botUsername/.test(path))).toEqual([]);
  });

  it("the maintenance flag the launch asked for is not asked again when the gate mounts", async () => {
    const fetchMock = stubRoutes({});
    const client = createQueryClient();
    startLaunch(client, "/login");
    const flag = settingsQueries.technicalWork().queryKey;
    await expect.poll(() => client.getQueryData(flag)).toBeDefined();
    const unsubscribe = new QueryObserver(client, settingsQueries.technicalWork()).subscribe(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
    unsubscribe();
    expect(fetchMock.mock.calls.filter(([input]) => String(input).includes("technical_work"))).toHaveLength(1);
    // A refetch (the MAINTENANCE code, say) makes it the gate's own again: no longer kept fresh.
    const staleTime = client.getQueryDefaults(flag).staleTime as (query: unknown) => number;
    const query = client.getQueryCache().find({ queryKey: flag });
    expect(staleTime(query)).toBe(EARLY_REPLY_MAX_AGE_MS);
    await client.refetchQueries({ queryKey: flag });
    expect(staleTime(query)).toBe(0);
    client.clear();
  });

  it("a signed-in user is taken from an entry screen to the cabinet, a signed-out one from the cabinet to the login", () => {
    expect(launchScreen("/", true)).toEqual({ screen: "cabinet", cabinet: true });
    expect(launchScreen("/login", true)).toEqual({ screen: "cabinet", cabinet: true });
    expect(launchScreen("/news/7", true)).toEqual({ screen: "newsItem", cabinet: true });
    expect(launchScreen("/settings/", false)).toEqual({ screen: "login", cabinet: false });
    // A screen under Settings' list starts its own code, not the list's.
    expect(launchScreen("/settings/profile", true)).toEqual({ screen: "settingsScreen", cabinet: true });
    expect(launchScreen("/settings/profile", false)).toEqual({ screen: "login", cabinet: false });
    expect(launchScreen("/register/demo", false)).toEqual({ screen: "register", cabinet: false });
    expect(launchScreen("/terms/offer", true)).toEqual({ screen: "terms", cabinet: false });
    expect(launchScreen("/nowhere", false)).toEqual({ screen: "notFound", cabinet: false });
  });
});

describe("the launcher's early replies", () => {
  /** What the launcher leaves: the first screen's call with the kept token, answering the statistics and the flag. */
  const firstScreen = (replies: Promise<{ url: string; status: number; body: unknown }[]>, at = performance.now()) => {
    window.__kassaFirstScreen = {
      carries: ["/user/statistics", "/settings/technical_work"],
      tokenless: ["/settings/technical_work"],
      token: "kept",
      at,
      reply: replies.then((carried) => ({ replies: carried })),
    };
  };
  const ended = () => {
    window.__kassaFirstScreen = undefined;
  };

  it("a call takes the reply carried for its URL and token once, then asks the server itself", async () => {
    const fetchMock = stubRoutes({ statistics: { body: STATISTICS } });
    firstScreen(Promise.resolve([{ url: "/user/statistics", status: 200, body: STATISTICS }]));
    try {
      // Another token's call never gets it.
      await apiRequest({ method: "GET", path: "/user/statistics", token: "other" });
      expect(fetchMock).toHaveBeenCalledTimes(1);
      await expect(apiRequest({ method: "GET", path: "/user/statistics", token: "kept" })).resolves.toEqual(STATISTICS);
      expect(fetchMock).toHaveBeenCalledTimes(1);
      await apiRequest({ method: "GET", path: "/user/statistics", token: "kept" });
      expect(fetchMock).toHaveBeenCalledTimes(2);
    } finally {
      ended();
    }
  });

  it("a call it does not carry goes out at once, and a tokenless one takes its reply only without a token", async () => {
    const off = { enabled: false, message: null, until: null };
    const on = { ...off, enabled: true };
    const fetchMock = stubRoutes({ currentUser: { body: DEMO_USER }, technicalWork: { body: off } });
    // The first screen's reply never comes: what waits for it would never end.
    firstScreen(new Promise(() => undefined));
    try {
      await expect(apiRequest({ method: "GET", path: "/user/me", token: "kept" })).resolves.toEqual(DEMO_USER);
      await expect(apiRequest({ method: "GET", path: "/settings/technical_work", token: "kept" })).resolves.toEqual(
        off,
      );
      expect(fetchMock).toHaveBeenCalledTimes(2);
    } finally {
      ended();
    }
    firstScreen(Promise.resolve([{ url: "/settings/technical_work", status: 200, body: on }]));
    try {
      await expect(apiRequest({ method: "GET", path: "/settings/technical_work" })).resolves.toEqual(on);
      expect(fetchMock).toHaveBeenCalledTimes(2);
    } finally {
      ended();
    }
  });

  it("a failed early call, or a reply it lacks, is made again", async () => {
    const fetchMock = stubRoutes({ statistics: { body: STATISTICS } });
    firstScreen(Promise.reject(new TypeError("offline")));
    try {
      await expect(apiRequest({ method: "GET", path: "/user/statistics", token: "kept" })).resolves.toEqual(STATISTICS);
      expect(fetchMock).toHaveBeenCalledTimes(1);
    } finally {
      ended();
    }
    firstScreen(Promise.resolve([]));
    try {
      await expect(apiRequest({ method: "GET", path: "/user/statistics", token: "kept" })).resolves.toEqual(STATISTICS);
      expect(fetchMock).toHaveBeenCalledTimes(2);
    } finally {
      ended();
    }
  });

  it("a reply older than 10 s is not used", async () => {
    const fetchMock = stubRoutes({ statistics: { body: STATISTICS } });
    const old = performance.now() - EARLY_REPLY_MAX_AGE_MS - 1;
    firstScreen(Promise.resolve([{ url: "/user/statistics", status: 200, body: { old: true } }]), old);
    try {
      await expect(apiRequest({ method: "GET", path: "/user/statistics", token: "kept" })).resolves.toEqual(STATISTICS);
      expect(fetchMock).toHaveBeenCalledTimes(1);
    } finally {
      ended();
    }
  });
});
