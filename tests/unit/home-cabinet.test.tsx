/** The cabinet's whole picture in USDT and its income chart, as an investor sees them. */

import { type Currency, type Deposit, INCOME_PERIODS, type IncomePeriod, type IncomeReply } from "@contract";
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
    expect(within(btc).getByText("of which on deposit 0.00000001 BTC")).toBeTruthy();
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
