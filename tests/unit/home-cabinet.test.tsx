/** The cabinet's whole picture in USDT and its income chart, as an investor sees them. */
import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
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

function cabinetApi(extra: Parameters<typeof stubRoutes>[0] = {}) {
  return stubRoutes({
    balance: BALANCE,
    statistics: STATISTICS,
    overview: OVERVIEW,
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
    expect(screen.getByText("Balance 90,071,992,547,409.43 USDT · on deposit 0.50 USDT")).toBeTruthy();
  });
});
