/** The cabinet's whole picture in USDT and its income chart, as an investor sees them. */

import { type Deposit, INCOME_PERIODS, type IncomePeriod, type IncomeReply } from "@contract";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { aDeposit } from "./fixtures";
import { DEMO_USER, type RouteReply, renderApp, stubRoutes } from "./test-utils";

afterEach(() => vi.unstubAllGlobals());

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

describe("cabinet: the whole picture", () => {
  it("shows the total in USDT exactly as the server sums it, and each currency held beneath", async () => {
    cabinetApi();
    await renderApp({ path: "/", user: DEMO_USER });
    const total = await screen.findByTestId("overview-total");
    expect(total.getAttribute("data-amount")).toBe("90071992547409.935678");
    expect(total.textContent).toBe("90,071,992,547,409.93 USDT");
    const lines = screen.getAllByTestId("overview-line");
    // ETH and TON hold nothing: not listed.
    expect(lines.map((l) => l.getAttribute("data-currency"))).toEqual(["USDT", "BTC"]);
    const btc = lines[1] as HTMLElement;
    expect(within(btc).getByTestId("overview-line-held").textContent).toBe("0.00000001 BTC");
    expect(within(btc).getByTestId("overview-line-usdt").textContent).toBe("≈ 0.50 USDT");
    expect(within(btc).getByText("of which on deposit 0.00000001 BTC")).toBeTruthy();
    // Two rows, so that the room kept for the card matches it whatever the amounts' length.
    expect(screen.getByText("Balance 90,071,992,547,409.43 USDT")).toBeTruthy();
    expect(screen.getByText("On deposit 0.50 USDT")).toBeTruthy();
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
