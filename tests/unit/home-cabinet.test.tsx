/** The cabinet's whole picture in USDT and its income chart, as an investor sees them. */

import { type Currency, type Deposit, INCOME_PERIODS, type IncomePeriod, type IncomeReply } from "@contract";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { haptics } from "@/tma/hooks";
import { aDeposit } from "./fixtures";
import { DEMO_USER, type RouteReply, renderApp, stubRoutes } from "./test-utils";

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const BALANCE: RouteReply<"balance"> = {
  body: {
    type: "balance",
    currentCurrency: "USDT",
    currencies: { USDT: "1234.5678", BTC: "0.015", ETH: "0", TON: "0" },
  },
};
const STATISTICS: RouteReply<"statistics"> = {
  body: {
    currentCurrency: "USDT",
    earned: { USDT: "42.1", BTC: "0", ETH: "0", TON: "0" },
    referrals: 3,
    activeDeposits: 1,
    amountOnDeposit: { USDT: "500", BTC: "0.00000001", ETH: "0", TON: "0" },
    everDeposited: true,
  },
};
// Beyond a double's 15–17 significant digits: a JS number would print 90071992547409.93 as …409.94 or so.
const OVERVIEW: RouteReply<"overview"> = {
  body: {
    currency: "USDT",
    totalUsdt: "90071992547409.935678",
    balanceUsdt: "90071992547409.435678",
    onDepositUsdt: "0.5",
    lines: [
      { currency: "USDT", balance: "90071992547409.435678", onDeposit: "0", totalUsdt: "90071992547409.435678" },
      { currency: "BTC", balance: "0", onDeposit: "0.00000001", totalUsdt: "0.5" },
      { currency: "ETH", balance: "0", onDeposit: "0", totalUsdt: "0" },
      { currency: "TON", balance: "0", onDeposit: "0", totalUsdt: "0" },
    ],
    current: {
      currency: "USDT",
      total: "90071992547409.935678",
      balance: "90071992547409.435678",
      onDeposit: "0.5",
      lines: { USDT: "90071992547409.435678", BTC: "0.5", ETH: "0", TON: "0" },
    },
    rates: { USDT: "1", BTC: "50000000", ETH: "3200", TON: "5.5" },
  },
};

const ZERO = { accruals: "0", bonuses: "0" };
function incomeOf(period: IncomePeriod): IncomeReply {
  if (period === "7d")
    return {
      period,
      currency: "USDT",
      days: [
        { day: "2026-01-01", accruals: "1.5", bonuses: "0" },
        { day: "2026-01-02", accruals: "1.5", bonuses: "0.25" },
      ],
      // Exact beyond a double: 0.1 + 0.2 style sums must not show.
      total: { accruals: "3.000001", bonuses: "0.25" },
      byCurrency: {
        USDT: { accruals: "3", bonuses: "0.25" },
        BTC: { accruals: "0.00000001", bonuses: "0" },
        ETH: ZERO,
        TON: ZERO,
      },
    };
  return {
    period,
    currency: "USDT",
    days: [{ day: "2026-01-01", accruals: "40", bonuses: "2" }],
    total: { accruals: "40", bonuses: "2" },
    byCurrency: { USDT: ZERO, BTC: ZERO, ETH: ZERO, TON: { accruals: "7.123456789", bonuses: "0.5" } },
  };
}

const ACTIVE: Deposit = aDeposit({ planId: "p" });

function cabinetApi(extra: Parameters<typeof stubRoutes>[0] = {}) {
  return stubRoutes({
    balance: BALANCE,
    statistics: STATISTICS,
    overview: OVERVIEW,
    income: (request) => ({
      body: incomeOf((new URL(request.url).searchParams.get("period") ?? "7d") as IncomePeriod),
    }),
    deposits: { body: { items: [ACTIVE], total: 1, page: 1, limit: 10 } },
    operations: { body: { items: [], total: 0, page: 1, limit: 5 } },
    ...extra,
  });
}

describe("cabinet: one headline", () => {
  it("shows the total in the current currency exactly as the server tells it, available and on deposit beneath, then Refill and Exchange", async () => {
    cabinetApi();
    await renderApp({ path: "/", user: DEMO_USER });
    const total = await screen.findByTestId("overview-total");
    expect(total.getAttribute("data-amount")).toBe("90071992547409.935678");
    expect(total.textContent).toBe("90,071,992,547,409.93 USDT");
    const card = total.closest("section") as HTMLElement;
    expect(within(card).getByText("Total in USDT")).toBeTruthy();
    expect(within(card).getByTestId("balance").textContent).toBe("90,071,992,547,409.43 USDT");
    expect(within(card).getByTestId("amount-on-deposit").textContent).toBe("0.50 USDT");
    expect(within(card).getByText("Available")).toBeTruthy();
    expect(within(card).getByText("On deposit")).toBeTruthy();
    // No second figure of the balance anywhere else on the card: the headline is the one big number.
    expect(card.querySelectorAll(".balance-hero-amount")).toHaveLength(1);
    expect(within(card).getByTestId("open-refill").textContent).toBe("Refill");
    expect(within(card).getByTestId("open-exchange").textContent).toBe("Exchange");
  });

  it("lists the currencies held (the empty ones left out), each with what is on deposit and ≈ its value", async () => {
    cabinetApi();
    await renderApp({ path: "/", user: DEMO_USER });
    const list = await screen.findByTestId("currency-list");
    const rows = within(list).getAllByRole("button");
    // ETH and TON hold nothing: not listed.
    expect(rows.map((row) => row.getAttribute("data-currency"))).toEqual(["USDT", "BTC"]);
    const [usdt, btc] = rows as [HTMLElement, HTMLElement];
    expect(usdt.getAttribute("aria-pressed")).toBe("true");
    expect(btc.getAttribute("aria-pressed")).toBe("false");
    expect(within(usdt).getByTestId("currency-held").textContent).toBe("90,071,992,547,409.43 USDT");
    // The current currency's own row needs no "≈": it is its value.
    expect(within(usdt).queryByTestId("currency-value")).toBeNull();
    expect(within(btc).getByTestId("currency-held").textContent).toBe("0.00000001 BTC");
    expect(within(btc).getByTestId("currency-value").textContent).toBe("≈ 0.50 USDT");
    expect(within(btc).getByText("including 0.00000001 BTC on deposit")).toBeTruthy();
  });

  it("a newcomer holding nothing sees a total of 0 and no currency list", async () => {
    const zero = { USDT: "0", BTC: "0", ETH: "0", TON: "0" };
    cabinetApi({
      overview: {
        body: {
          ...OVERVIEW.body,
          totalUsdt: "0",
          balanceUsdt: "0",
          onDepositUsdt: "0",
          lines: OVERVIEW.body.lines.map((line) => ({ ...line, balance: "0", onDeposit: "0", totalUsdt: "0" })),
          current: { currency: "USDT", total: "0", balance: "0", onDeposit: "0", lines: zero },
        },
      },
    });
    await renderApp({ path: "/", user: DEMO_USER });
    expect((await screen.findByTestId("overview-total")).textContent).toBe("0.00 USDT");
    await screen.findByTestId("stat-earned");
    expect(screen.queryByTestId("currency-list")).toBeNull();
  });

  it("tapping a currency makes it the current one: the headline is then told in it", async () => {
    let current: Currency = "USDT";
    const fetchMock = cabinetApi({
      balance: () => ({ body: { ...BALANCE.body, currentCurrency: current } }),
      setBalanceCurrency: () => {
        current = "BTC";
        return { body: { ...BALANCE.body, currentCurrency: current } };
      },
      overview: () => ({
        body: {
          ...OVERVIEW.body,
          current:
            current === "USDT"
              ? OVERVIEW.body.current
              : {
                  currency: "BTC",
                  // 90071992547409.435678 USDT ÷ 50000000, rounded half-up to BTC's 8 decimals; the BTC itself.
                  total: "1801439.8509482",
                  balance: "1801439.85094819",
                  onDeposit: "0.00000001",
                  lines: { USDT: "1801439.85094819", BTC: "0.00000001", ETH: "0", TON: "0" },
                },
        },
      }),
    });
    await renderApp({ path: "/", user: DEMO_USER });
    await screen.findByTestId("overview-total");
    fireEvent.click(await screen.findByTestId("currency-option-BTC"));
    await waitFor(() => expect(screen.getByTestId("overview-total").getAttribute("data-currency")).toBe("BTC"));
    expect(screen.getByTestId("overview-total").textContent).toBe("1,801,439.85094820 BTC");
    expect(screen.getByText("Total in BTC")).toBeTruthy();
    expect(screen.getByTestId("balance").textContent).toBe("1,801,439.85094819 BTC");
    await waitFor(() => expect(screen.getByTestId("currency-option-BTC").getAttribute("aria-pressed")).toBe("true"));
    expect(screen.getByTestId("currency-option-USDT").getAttribute("aria-pressed")).toBe("false");
    const posted = fetchMock.mock.calls.filter(
      ([url, init]) => String(url).endsWith("/user/balance") && (init as RequestInit | undefined)?.method === "POST",
    );
    expect(posted).toHaveLength(1);
  });
});

describe("cabinet: the income chart", () => {
  it("says the period's totals as text, has a table of each currency's exact income, and switches the period", async () => {
    const fetchMock = cabinetApi();
    await renderApp({ path: "/", user: DEMO_USER });
    const chart = await screen.findByTestId("income-chart");
    expect(chart.getAttribute("role")).toBe("img");
    // The contract's periods, in its order.
    expect(
      [...document.querySelectorAll("[data-testid^='income-period-']")].map((el) => el.getAttribute("data-testid")),
    ).toEqual(INCOME_PERIODS.map((p) => `income-period-${p}`));
    expect(chart.getAttribute("aria-label")).toBe("Last 7 days: accruals 3.00 USDT, partner bonuses 0.25 USDT");
    expect(screen.getByTestId("income-total").getAttribute("data-amount")).toBe("3.250001");
    // Two days: two columns, the second stacked with its bonus.
    expect(chart.querySelectorAll("rect.income-bar-accruals")).toHaveLength(2);
    expect(chart.querySelectorAll("rect.income-bar-bonuses")).toHaveLength(1);
    const table = screen.getByTestId("income-table");
    expect([...table.querySelectorAll("tbody tr")].map((row) => row.textContent)).toEqual([
      "USDT3.00 USDT0.25 USDT",
      "BTC0.00000001 BTC0.00000000 BTC",
    ]);
    // Asked for after the balance was on screen.
    const asked = fetchMock.mock.calls.map(([url]) => new URL(String(url), "http://localhost").pathname);
    expect(asked.indexOf("/api/user/income")).toBeGreaterThan(asked.indexOf("/api/user/balance"));

    fireEvent.click(screen.getByTestId("income-period-30d"));
    await waitFor(() =>
      expect(screen.getByTestId("income-chart").getAttribute("aria-label")).toBe(
        "Last 30 days: accruals 40.00 USDT, partner bonuses 2.00 USDT",
      ),
    );
    expect(screen.getByTestId("income-period-30d").getAttribute("aria-selected")).toBe("true");
    expect([...screen.getByTestId("income-table").querySelectorAll("tbody tr")].map((row) => row.textContent)).toEqual([
      "TON7.123456789 TON0.5000 TON",
    ]);
    const periods = fetchMock.mock.calls
      .map(([url]) => new URL(String(url), "http://localhost"))
      .filter((url) => url.pathname === "/api/user/income")
      .map((url) => url.searchParams.get("period"));
    expect(periods).toEqual(["7d", "30d"]);
  });

  it("shows each active deposit's progress through its term as a bar", async () => {
    cabinetApi();
    await renderApp({ path: "/", user: DEMO_USER });
    const deposit = await screen.findByTestId("active-deposit");
    const bar = within(deposit).getByRole("progressbar");
    expect(bar.getAttribute("aria-label")).toBe("Day 7 of 30");
    expect(bar.getAttribute("aria-valuenow")).toBe("23");
  });
});

describe("cabinet: a day of the income chart", () => {
  /** `count` UTC days from `from` on: day i accrues "i.123456" USDT, and every third day a bonus of 0.000001. */
  function daysFrom(from: string, count: number): IncomeReply["days"] {
    const start = Date.parse(`${from}T00:00:00Z`);
    return Array.from({ length: count }, (_, i) => ({
      day: new Date(start + i * 86_400_000).toISOString().slice(0, 10),
      accruals: `${i}.123456`,
      bonuses: i % 3 === 0 ? "0.000001" : "0",
    }));
  }
  const ONE_DAY_EACH = { accruals: "1", bonuses: "0" };
  function replyOf(period: IncomePeriod): IncomeReply {
    const days =
      period === "7d"
        ? daysFrom("2026-03-01", 7)
        : period === "30d"
          ? daysFrom("2026-02-01", 30)
          : daysFrom("2025-01-01", 400);
    return {
      period,
      currency: "USDT",
      days,
      total: ONE_DAY_EACH,
      byCurrency: { USDT: ONE_DAY_EACH, BTC: ZERO, ETH: ZERO, TON: ZERO },
    };
  }
  function chartApi() {
    return cabinetApi({
      income: (request) => ({
        body: replyOf((new URL(request.url).searchParams.get("period") ?? "7d") as IncomePeriod),
      }),
    });
  }
  const ticks = () =>
    [...screen.getByTestId("income-axis").querySelectorAll("[data-testid='income-tick']")].map((tick) => [
      tick.getAttribute("data-day"),
      tick.textContent,
    ]);
  const dayButton = (day: string) =>
    screen.getByTestId("income-days").querySelector(`[data-day='${day}']`) as HTMLButtonElement;

  it("labels every day of 7 days, and four evenly spaced days of 30 days (three months of a longer time)", async () => {
    chartApi();
    await renderApp({ path: "/", user: DEMO_USER });
    await screen.findByTestId("income-chart");
    // Every day: its weekday over its number.
    expect(ticks()).toEqual([
      ["2026-03-01", "Sun1"],
      ["2026-03-02", "Mon2"],
      ["2026-03-03", "Tue3"],
      ["2026-03-04", "Wed4"],
      ["2026-03-05", "Thu5"],
      ["2026-03-06", "Fri6"],
      ["2026-03-07", "Sat7"],
    ]);
    fireEvent.click(screen.getByTestId("income-period-30d"));
    await waitFor(() => expect(ticks()).toHaveLength(4));
    // The middle day of each quarter of the period (days 4, 12, 19 and 27).
    expect(ticks()).toEqual([
      ["2026-02-04", "Feb 4"],
      ["2026-02-12", "Feb 12"],
      ["2026-02-19", "Feb 19"],
      ["2026-02-27", "Feb 27"],
    ]);
    fireEvent.click(screen.getByTestId("income-period-all"));
    await waitFor(() => expect(ticks()).toHaveLength(3));
    expect(ticks()).toEqual([
      ["2025-03-08", "Mar 2025"],
      ["2025-07-20", "Jul 2025"],
      ["2025-11-30", "Nov 2025"],
    ]);
  });

  it("tapping a day shows its date and exact figures; tapping it again, or another period, clears it", async () => {
    chartApi();
    const selection = vi.spyOn(haptics, "selection");
    await renderApp({ path: "/", user: DEMO_USER });
    await screen.findByTestId("income-chart");
    expect(screen.queryByTestId("income-day-date")).toBeNull();

    fireEvent.click(dayButton("2026-03-04"));
    expect(dayButton("2026-03-04").getAttribute("aria-pressed")).toBe("true");
    expect(screen.getByTestId("income-day-date").textContent).toBe("Wed, Mar 4, 2026");
    const accruals = screen.getByTestId("income-day-accruals");
    // The server's decimal string, every decimal it has: no rounding to the display's two.
    expect(accruals.getAttribute("data-amount")).toBe("3.123456");
    expect(accruals.textContent).toBe("3.123456 USDT");
    expect(screen.getByTestId("income-day-bonuses").textContent).toBe("0.000001 USDT");
    expect(selection).toHaveBeenCalledTimes(1);

    fireEvent.click(dayButton("2026-03-02"));
    expect(screen.getByTestId("income-day-date").textContent).toBe("Mon, Mar 2, 2026");
    expect(screen.getByTestId("income-day-accruals").textContent).toBe("1.123456 USDT");
    expect(screen.getByTestId("income-day-bonuses").textContent).toBe("0.00 USDT");
    expect(dayButton("2026-03-04").getAttribute("aria-pressed")).toBe("false");

    fireEvent.click(dayButton("2026-03-02"));
    expect(screen.queryByTestId("income-day-date")).toBeNull();
    expect(dayButton("2026-03-02").getAttribute("aria-pressed")).toBe("false");

    fireEvent.click(dayButton("2026-03-07"));
    expect(screen.getByTestId("income-day-date").textContent).toBe("Sat, Mar 7, 2026");
    fireEvent.click(screen.getByTestId("income-period-30d"));
    await waitFor(() => expect(dayButton("2026-02-27")).toBeTruthy());
    expect(screen.queryByTestId("income-day-date")).toBeNull();
  });

  it("the keyboard reaches each day: one stop in the tab order, the arrows, Home and End move the chosen day", async () => {
    chartApi();
    await renderApp({ path: "/", user: DEMO_USER });
    await screen.findByTestId("income-chart");
    const buttons = within(screen.getByTestId("income-days")).getAllByRole("button");
    expect(buttons).toHaveLength(7);
    // One tab stop: the latest day until one is chosen.
    const stops = buttons.filter((button) => button.tabIndex === 0);
    expect(stops.map((button) => button.getAttribute("data-day"))).toEqual(["2026-03-07"]);

    const last = dayButton("2026-03-07");
    last.focus();
    fireEvent.keyDown(last, { key: "ArrowLeft" });
    expect(document.activeElement).toBe(dayButton("2026-03-06"));
    expect(dayButton("2026-03-06").getAttribute("aria-pressed")).toBe("true");
    expect(screen.getByTestId("income-day-accruals").textContent).toBe("5.123456 USDT");
    fireEvent.keyDown(document.activeElement as Element, { key: "Home" });
    expect(document.activeElement).toBe(dayButton("2026-03-01"));
    expect(screen.getByTestId("income-day-date").textContent).toBe("Sun, Mar 1, 2026");
    fireEvent.keyDown(document.activeElement as Element, { key: "ArrowLeft" });
    expect(document.activeElement).toBe(dayButton("2026-03-01"));
    fireEvent.keyDown(document.activeElement as Element, { key: "End" });
    expect(document.activeElement).toBe(dayButton("2026-03-07"));
    expect(buttons.filter((button) => button.tabIndex === 0)).toEqual([dayButton("2026-03-07")]);
  });
});
