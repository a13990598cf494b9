/**
 * Renders the app the way `main.tsx` does, with the real providers (jotai store, query client,
 * telegram-ui root, i18n, alerts) and the real routes in a memory router. Only the network is fake:
 * `stubRoutes` answers `fetch` by the contract's route names, with replies typed by each route.
 */
import {
  CURRENCY_CODES,
  type Currency,
  currencyScale,
  money,
  type OverviewReply,
  type Profile,
  type RouteName,
  type RouteResponse,
  routes,
  toDecimalString,
  type User,
} from "@contract";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import Big from "big.js";
import i18next from "i18next";
import { useLayoutEffect } from "react";
import { expect, vi } from "vitest";
import { AppShell } from "@/app/shell";
import { initI18n, setLanguage, shownLanguage } from "@/config/i18n";
import { alertsAtom } from "@/lib/alerts";
import { createQueryClient } from "@/lib/query-client";
import { type Location, MemoryRouter, type NavigateFunction, useLocation, useNavigate } from "@/lib/router";
import { clearSession, sessionStatusAtom, signIn } from "@/lib/session";
import { appStore } from "@/lib/store";
import type { Appearance, TelegramBridge } from "@/tma/bridge";

export const DEMO_USER: User = {
  id: "u1",
  login: "demo",
  fullName: "Demo Investor",
  email: "demo@example.com",
  phone: "+77010000000",
  phoneConfirmed: true,
  telegramLinked: false,
  language: "en",
  avatarUrl: null,
  createdAt: "2025-01-01T00:00:00.000Z",
  subscription: { active: false, until: null },
  notifications: { unread: 0 },
};

/** The demo investor's profile (`GET /user-data/byType`), a shared fixture. */
export const DEMO_PROFILE: Profile = {
  login: "demo",
  fullName: "Demo Investor",
  email: "demo@example.com",
  emailConfirmed: true,
  phone: "+77010000000",
  phoneConfirmed: true,
  city: "Almaty",
  country: "Kazakhstan",
  registeredAt: "2025-01-01T00:00:00.000Z",
  language: "en",
  codeChannel: "email",
  telegramLinked: false,
  inviter: null,
  pendingPhone: null,
  verificationStatus: null,
  avatarUrl: null,
};

let i18nReady: Promise<unknown> | undefined;

/** The real i18n set-up, in English (the browser language jsdom reports is en-US). */
export async function ensureI18n(): Promise<void> {
  i18nReady ??= initI18n();
  await i18nReady;
  // Both: i18next's language and the one the app's formatters read (a bare changeLanguage moves only the first).
  if (i18next.language !== "en" || shownLanguage() !== "en") await setLanguage("en");
}

export interface JsonReply {
  status?: number;
  body: unknown;
}

/** A contract route's reply: its typed body (200), or an error status with the error body. */
export type RouteReply<N extends RouteName> =
  | { status?: 200; body: RouteResponse<N> }
  | { status: number; body: { code: string; message: string; [key: string]: unknown } };

type RouteStubs = {
  [N in RouteName]?: RouteReply<N> | ((request: Request) => RouteReply<N> | Promise<RouteReply<N>>);
};

/** The operator's rates the stand-in overview values with (USD price of one coin). */
export const STUB_RATES = { USDT: "1", BTC: "65000", ETH: "3200", TON: "5.5" };

/**
 * `GET /user/overview` as the server tells it (server/src/services/income.ts): balances and deposits per currency,
 * in USDT and in `current`, each value rounded half-up to its currency's decimals, totals the sums of the lines.
 */
export function overviewOf(
  current: Currency,
  balance: Record<Currency, string>,
  onDeposit: Record<Currency, string> = { USDT: "0", BTC: "0", ETH: "0", TON: "0" },
  rates: Record<Currency, string> = STUB_RATES,
): OverviewReply {
  const value = (amount: string, from: Currency, into: Currency) =>
    from === into ? money(amount) : money(amount).times(rates[from]).div(rates[into]);
  const round = (v: Big, c: Currency) => toDecimalString(v.round(currencyScale(c), Big.roundHalfUp));
  const sum = (values: string[]) => toDecimalString(values.reduce((a, v) => a.plus(money(v)), money(0)));
  const told = (into: Currency) => {
    const lines = Object.fromEntries(
      CURRENCY_CODES.map((c) => [c, round(value(money(balance[c]).plus(onDeposit[c]).toString(), c, into), into)]),
    ) as Record<Currency, string>;
    const all = (of: Record<Currency, string>) =>
      round(
        CURRENCY_CODES.reduce((a, c) => a.plus(value(of[c], c, into)), money(0)),
        into,
      );
    return { lines, total: sum(Object.values(lines)), balance: all(balance), onDeposit: all(onDeposit) };
  };
  const usdt = told("USDT");
  const mine = told(current);
  return {
    currency: "USDT",
    totalUsdt: usdt.total,
    balanceUsdt: usdt.balance,
    onDepositUsdt: usdt.onDeposit,
    lines: CURRENCY_CODES.map((c) => ({
      currency: c,
      balance: balance[c],
      onDeposit: onDeposit[c],
      totalUsdt: usdt.lines[c],
    })),
    current: {
      currency: current,
      total: mine.total,
      balance: mine.balance,
      onDeposit: mine.onDeposit,
      lines: mine.lines,
    },
    rates: STUB_RATES,
  };
}

/**
 * Answers `fetch` by the contract's route names (`stubRoutes({ bonuses: { body: [...] } })`): each
 * reply is typed by its route's response, matched by method and path (`:id` matches any segment).
 * Maintenance is off unless stubbed; the overview, unless stubbed, is told from the balance's and the
 * statistics' stubs as they answer at the time (`overviewOf`). Anything else is a 404 in the contract's error shape.
 */
export function stubRoutes(stubs: RouteStubs) {
  const answer = async (stub: unknown, request: Request): Promise<JsonReply | undefined> =>
    typeof stub === "function"
      ? await (stub as (r: Request) => JsonReply | Promise<JsonReply>)(request)
      : (stub as JsonReply | undefined);
  const derived: RouteStubs =
    stubs.overview || !stubs.balance
      ? {}
      : {
          overview: async (request) => {
            const balance = await answer(stubs.balance, request);
            const statistics = stubs.statistics ? await answer(stubs.statistics, request) : undefined;
            if (!balance || (balance.status ?? 200) !== 200) return { status: 503, body: { code: "X", message: "x" } };
            const body = balance.body as RouteResponse<"balance">;
            const held =
              statistics && (statistics.status ?? 200) === 200
                ? (statistics.body as RouteResponse<"statistics">).amountOnDeposit
                : undefined;
            return { body: overviewOf(body.currentCurrency, body.currencies, held) };
          },
        };
  const table = Object.entries({ technicalWork: MAINTENANCE_OFF, ...derived, ...stubs }).map(([name, reply]) => {
    const route = routes[name as RouteName];
    const pattern = new RegExp(`^${route.path.replace(/:[^/]+/g, "[^/]+")}$`);
    return {
      method: route.method,
      pattern,
      reply: reply as JsonReply | ((request: Request) => JsonReply | Promise<JsonReply>),
    };
  });
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(new URL(String(input), "http://localhost"), init);
    const path = new URL(request.url).pathname.replace(/^\/api/, "");
    const hit = table.find((row) => row.method === request.method && row.pattern.test(path));
    const reply = typeof hit?.reply === "function" ? await hit.reply(request) : hit?.reply;
    const { status = 200, body } = reply ?? { status: 404, body: { code: "NOT_FOUND", message: "Not found" } };
    return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

export const MAINTENANCE_OFF = { body: { enabled: false, message: null, until: null } };

export interface RenderAppOptions {
  path?: string;
  user?: User | null;
}

/** What a test sees of the router: where the app is, and a way to go somewhere. */
export interface TestRouter {
  readonly state: { location: Location };
  navigate(to: string | number, options?: { replace?: boolean; state?: unknown }): void;
}

function RouterProbe({ onChange }: { onChange: (location: Location, navigate: NavigateFunction) => void }) {
  const location = useLocation();
  const navigate = useNavigate();
  useLayoutEffect(() => onChange(location, navigate), [location, navigate, onChange]);
  return null;
}

/** Renders the whole app at `path` in a memory router, signed in as `user` when given. */
export async function renderApp({ path = "/", user = null }: RenderAppOptions = {}) {
  await ensureI18n();
  appStore.set(alertsAtom, []);
  if (user) signIn({ refreshToken: "token-1", user });
  else clearSession();
  appStore.set(sessionStatusAtom, "ready");

  const queryClient = createQueryClient();
  let location: Location | undefined;
  let navigate: NavigateFunction | undefined;
  const probe = (nextLocation: Location, nextNavigate: NavigateFunction) => {
    location = nextLocation;
    navigate = nextNavigate;
  };
  const router: TestRouter = {
    get state() {
      if (!location) throw new Error("the router has not rendered yet");
      return { location };
    },
    navigate(to, options) {
      if (!navigate) throw new Error("the router has not rendered yet");
      navigate(to, options);
    },
  };
  const view = render(
    <MemoryRouter initialEntries={[path]}>
      <RouterProbe onChange={probe} />
      <AppShell store={appStore} queryClient={queryClient} />
    </MemoryRouter>,
  );
  return { ...view, router, queryClient };
}

/** A Telegram client's side of the bridge, recording what the app asks of it. */
export function fakeBridge(platform = "android", launch: { rawInitData?: string; startParam?: string } = {}) {
  let appearance: Appearance = "light";
  const appearanceListeners = new Set<() => void>();
  const backListeners = new Set<() => void>();
  const mainListeners = new Set<() => void>();
  const bridge = {
    platform,
    rawInitData: "rawInitData" in launch ? launch.rawInitData : "query_id=1",
    startParam: launch.startParam,
    appearance: {
      get: () => appearance,
      subscribe: (listener: () => void) => {
        appearanceListeners.add(listener);
        return () => appearanceListeners.delete(listener);
      },
    },
    ready: vi.fn(),
    backButton: {
      setVisible: vi.fn(),
      onClick: (listener: () => void) => {
        backListeners.add(listener);
        return () => backListeners.delete(listener);
      },
    },
    mainButton: {
      set: vi.fn(),
      onClick: (listener: () => void) => {
        mainListeners.add(listener);
        return () => mainListeners.delete(listener);
      },
    },
    haptics: { notify: vi.fn(), impact: vi.fn(), selection: vi.fn() },
    setClosingConfirmation: vi.fn(),
    openTelegramLink: vi.fn(),
    openLink: vi.fn(),
    share: vi.fn((_url: string, _text: string) => platform !== "weba"),
    setVerticalSwipes: vi.fn(),
  } satisfies TelegramBridge;
  return {
    bridge,
    setAppearance(next: Appearance) {
      appearance = next;
      for (const listener of appearanceListeners) listener();
    },
    pressBack: () => {
      for (const listener of backListeners) listener();
    },
    pressMain: () => {
      for (const listener of mainListeners) listener();
    },
  };
}

/**
 * Taps "Show more" until all `pages` are in, each tap growing the list's box (`height`, the virtualised list's
 * full height), and checks that "Show more" is gone after the last.
 */
export async function showEveryPage(height: () => number, pages: number): Promise<void> {
  await waitFor(() => expect(height()).toBeGreaterThan(0));
  for (let page = 2; page <= pages; page++) {
    const before = height();
    fireEvent.click(screen.getByTestId("load-more"));
    await waitFor(() => expect(height()).toBeGreaterThan(before));
  }
  expect(screen.queryByTestId("load-more")).toBeNull();
}
