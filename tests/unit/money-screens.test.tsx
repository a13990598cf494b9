/** Money mutations invalidate what their meta lists; the cabinet, exchange and operations as a user sees them. */
import type { Currency, Operation } from "@contract";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { balanceMutations } from "@/features/balance/api/balance-queries";
import { depositMutations } from "@/features/deposits/api/deposit-queries";
import { refillMutations } from "@/features/refills/api/refill-queries";
import { createQueryClient } from "@/lib/query-client";
import { aStatistics } from "./fixtures";
import { DEMO_USER, type RouteReply, renderApp, stubRoutes } from "./test-utils";

afterEach(() => vi.unstubAllGlobals());

const BALANCE = {
  body: {
    type: "balance",
    currentCurrency: "USDT",
    currencies: { USDT: "1234.5678", BTC: "0.015", ETH: "0", TON: "10" },
  },
} satisfies RouteReply<"balance">;
const STATISTICS: RouteReply<"statistics"> = {
  body: aStatistics({
    earned: { USDT: "42.1", BTC: "0", ETH: "0", TON: "0" },
    referrals: 3,
    activeDeposits: 2,
    amountOnDeposit: { USDT: "500", BTC: "0", ETH: "0", TON: "0" },
    everDeposited: true,
  }),
};
const RATES: RouteReply<"exchangeRate"> = {
  body: { base: "USD", rates: { USDT: "1", BTC: "65000", ETH: "3200", TON: "5.5" }, feePercent: "1" },
};
const OPS: Operation[] = [
  { id: "o2", type: "exchange", currency: "TON", amount: "17.818181818", createdAt: "2026-01-03T10:00:00.000Z" },
  { id: "o1", type: "refill", currency: "USDT", amount: "100", createdAt: "2026-01-02T10:00:00.000Z" },
  { id: "o0", type: "plan", currency: "USDT", amount: "-50", createdAt: "2026-01-01T10:00:00.000Z" },
];

function cabinetApi(extra: Parameters<typeof stubRoutes>[0] = {}) {
  return stubRoutes({
    balance: BALANCE,
    statistics: STATISTICS,
    exchangeRate: RATES,
    operations: (request) => {
      const url = new URL(request.url);
      const type = url.searchParams.get("type");
      const items = OPS.filter((o) => !type || o.type === type);
      return { body: { items, total: items.length, page: 1, limit: Number(url.searchParams.get("limit")) } };
    },
    ...extra,
  });
}

describe("meta.invalidates", () => {
  it("marks stale exactly the queries a money mutation lists", async () => {
    const client = createQueryClient();
    const keys = [
      ["balance", "balance"],
      ["statistics"],
      ["operations", "list", {}],
      ["deposits", "list", {}],
      ["refills", "list", {}],
      ["settings", "botUsername"],
    ];
    const seed = () => {
      for (const key of keys) client.setQueryData(key, { seeded: true });
    };
    const stale = () => keys.filter((key) => client.getQueryState(key)?.isInvalidated).map((key) => key[0]);
    const run = async (options: object) =>
      client
        .getMutationCache()
        .build(client, { ...options, mutationFn: async () => ({}) })
        .execute(undefined as never);

    seed();
    await run(depositMutations.create());
    expect(stale()).toEqual(["balance", "statistics", "operations", "deposits"]);

    seed();
    await run(balanceMutations.exchange());
    expect(stale()).toEqual(["balance", "statistics", "operations"]);

    seed();
    await run(refillMutations.create());
    expect(stale()).toEqual(["refills"]);
  });
});

describe("cabinet", () => {
  it("shows the balance, the amount on deposit and the balances bar, each with its raw amount", async () => {
    cabinetApi();
    await renderApp({ path: "/", user: DEMO_USER });
    // Available: every currency's balance told in USDT (1234.5678 + 0.015 BTC × 65000 + 10 TON × 5.5).
    const balance = await screen.findByTestId("balance");
    expect(balance.getAttribute("data-amount")).toBe("2264.5678");
    expect(balance.textContent).toBe("2,264.56 USDT");
    await waitFor(() => expect(screen.getByTestId("amount-on-deposit").getAttribute("data-amount")).toBe("500"));
    expect(screen.getByTestId("stat-earned").getAttribute("data-amount")).toBe("42.1");
    expect(screen.getByTestId("stat-referrals").textContent).toBe("3");
    expect(screen.getByTestId("stat-active-deposits").textContent).toBe("2");
    await waitFor(() => expect(screen.getAllByTestId("operation-row")).toHaveLength(3));
    expect(screen.getByTestId("currency-option-BTC")).toBeTruthy();
  });

  it("switches the current currency through POST /user/balance", async () => {
    let current: Currency = "USDT";
    cabinetApi({
      balance: () => ({ body: { ...BALANCE.body, currentCurrency: current } }),
      setBalanceCurrency: () => {
        current = "BTC";
        return { body: { ...BALANCE.body, currentCurrency: current } };
      },
    });
    await renderApp({ path: "/", user: DEMO_USER });
    await screen.findByTestId("balance");
    fireEvent.click(screen.getByTestId("currency-option-BTC"));
    await waitFor(() => expect(screen.getByTestId("balance").getAttribute("data-currency")).toBe("BTC"));
    // (1234.5678 + 55) ÷ 65000 + 0.015, rounded half-up to BTC's 8 decimals.
    expect(screen.getByTestId("balance").textContent).toBe("0.03483950 BTC");
  });
});

/** Whether the app asked the server to exchange. */
const exchangePosted = (fetchMock: ReturnType<typeof cabinetApi>) =>
  fetchMock.mock.calls.some(([url]) => new URL(String(url), "http://x").pathname.endsWith("/user/exchange"));

async function openExchange(to: Currency, amountTyped: string) {
  await renderApp({ path: "/", user: DEMO_USER });
  await screen.findByTestId("balance");
  fireEvent.click(screen.getByTestId("open-exchange"));
  const dialog = await screen.findByTestId("exchange-dialog");
  fireEvent.change(dialog.querySelector("select[name='to']") as HTMLSelectElement, { target: { value: to } });
  fireEvent.change(dialog.querySelector("input[name='amount']") as HTMLInputElement, {
    target: { value: amountTyped },
  });
  return dialog;
}

describe("exchange dialog", () => {
  it("shows the exact result before confirming, and 'Not enough funds' keeping the amount", async () => {
    cabinetApi({
      exchange: { status: 409, body: { code: "INSUFFICIENT_FUNDS", message: "Not enough funds" } },
    });
    const dialog = await openExchange("TON", "99");
    // 99 × 1 × 0.99 / 5.5 = 17.82, truncated to TON's 9 decimals.
    await waitFor(() =>
      expect(within(dialog).getByTestId("exchange-result").getAttribute("data-amount")).toBe("17.82"),
    );
    expect(within(dialog).getByTestId("exchange-fee").textContent).toBe("0.1800 TON\u00a0(1%)");
    fireEvent.click(within(dialog).getByTestId("exchange-next"));
    fireEvent.click(await within(dialog).findByTestId("exchange-confirm"));
    await waitFor(() => expect(within(dialog).getByTestId("form-error").textContent).toBe("Not enough funds"));
    expect((dialog.querySelector("input[name='amount']") as HTMLInputElement).value).toBe("99");
  });

  it("Continue states what is debited and credited at which rate and sends nothing; Back keeps the input; Exchange sends it", async () => {
    const fetchMock = cabinetApi({
      exchange: {
        body: {
          from: "USDT",
          to: "TON",
          debited: "99",
          received: "17.82",
          rates: { from: "1", to: "5.5" },
          feePercent: "1",
          currencies: { USDT: "1135.5678", BTC: "0.015", ETH: "0", TON: "27.82" },
        },
      },
    });
    const dialog = await openExchange("TON", "99");
    // 1 USDT = 1 / 5.5 TON = 0.181818… shown with six significant digits.
    await waitFor(() => expect(within(dialog).getByTestId("exchange-rate").textContent).toBe("1 USDT = 0.181818 TON"));
    fireEvent.click(within(dialog).getByTestId("exchange-next"));
    const confirmation = await within(dialog).findByTestId("exchange-confirmation");
    expect(within(confirmation).getByTestId("confirm-debited").getAttribute("data-amount")).toBe("99");
    expect(within(confirmation).getByTestId("confirm-debited").textContent).toBe("99.00 USDT");
    expect(within(confirmation).getByTestId("confirm-received").getAttribute("data-amount")).toBe("17.82");
    expect(within(confirmation).getByTestId("confirm-received").textContent).toBe("17.8200 TON");
    expect(within(confirmation).getByTestId("confirm-rate").textContent).toBe("1 USDT = 0.181818 TON");
    // The fee as an amount: without it 99 USDT would buy 18 TON; 17.82 arrive, so 0.18 TON is the fee.
    expect(within(confirmation).getByTestId("confirm-fee").textContent).toBe("0.1800 TON\u00a0(1%)");
    expect(confirmation.textContent).toContain("99.00 USDT leaves your USDT balance only when you tap Exchange.");
    expect(exchangePosted(fetchMock)).toBe(false);

    // Back: the form again, as typed, still nothing sent.
    fireEvent.click(within(confirmation).getByTestId("exchange-back"));
    const amount = dialog.querySelector("input[name='amount']") as HTMLInputElement;
    expect(amount.value).toBe("99");
    expect((dialog.querySelector("select[name='to']") as HTMLSelectElement).value).toBe("TON");
    expect(exchangePosted(fetchMock)).toBe(false);

    fireEvent.click(within(dialog).getByTestId("exchange-next"));
    fireEvent.click(await within(dialog).findByTestId("exchange-confirm"));
    // The result stays on screen: what left, the fee, what arrived and the new balance, not an empty form.
    const done = await within(dialog).findByTestId("exchange-done");
    expect(within(done).getByTestId("form-success").textContent).toBe("Exchanged: 99.00 USDT → 17.8200 TON");
    expect(within(done).getByTestId("done-debited").getAttribute("data-amount")).toBe("99");
    expect(within(done).getByTestId("done-fee").textContent).toBe("0.1800 TON\u00a0(1%)");
    expect(within(done).getByTestId("done-received").getAttribute("data-amount")).toBe("17.82");
    expect(within(done).getByTestId("done-balance").getAttribute("data-amount")).toBe("27.82");
    expect(dialog.querySelector("input[name='amount']")).toBeNull();
    // Another exchange: the form again, empty.
    fireEvent.click(within(done).getByTestId("exchange-again"));
    expect((dialog.querySelector("input[name='amount']") as HTMLInputElement).value).toBe("");
    const posted = fetchMock.mock.calls.find(([url]) =>
      new URL(String(url), "http://x").pathname.endsWith("/user/exchange"),
    );
    const body = (posted?.[1] as RequestInit | undefined)?.body;
    expect(JSON.parse(String(body))).toEqual({ from: "USDT", to: "TON", amount: "99" });
  });
});

describe("exchange limits", () => {
  it("shows what is available, refuses more as the user types and disables confirming; Max fills the balance", async () => {
    const fetchMock = cabinetApi();
    await renderApp({ path: "/", user: DEMO_USER });
    await screen.findByTestId("balance");
    fireEvent.click(screen.getByTestId("open-exchange"));
    const dialog = await screen.findByTestId("exchange-dialog");
    fireEvent.change(dialog.querySelector("select[name='to']") as HTMLSelectElement, { target: { value: "TON" } });
    await waitFor(() =>
      expect(within(dialog).getByTestId("exchange-available").getAttribute("data-amount")).toBe("1234.5678"),
    );
    const amount = dialog.querySelector("input[name='amount']") as HTMLInputElement;
    fireEvent.change(amount, { target: { value: "1234.5679" } });
    expect(dialog.querySelector("[data-field-error='amount']")?.textContent).toBe("Not enough funds");
    expect(within(dialog).getByTestId("exchange-result").textContent).toBe("—");
    fireEvent.click(within(dialog).getByTestId("exchange-next"));
    expect(within(dialog).queryByTestId("exchange-confirmation")).toBeNull();
    expect(exchangePosted(fetchMock)).toBe(false);
    fireEvent.click(within(dialog).getByTestId("exchange-max"));
    expect(amount.value).toBe("1234.5678");
    expect(dialog.querySelector("[data-field-error='amount']")).toBeNull();
  });
});

describe("operations", () => {
  it("lists signed amounts and filters by kind", async () => {
    cabinetApi();
    await renderApp({ path: "/operations", user: DEMO_USER });
    await waitFor(() => expect(screen.getAllByTestId("operation-row")).toHaveLength(3));
    const plan = screen.getAllByTestId("operation-row")[2] as HTMLElement;
    expect(plan.getAttribute("data-amount")).toBe("-50");
    expect(plan.textContent).toContain("-50.00 USDT");
    fireEvent.change(document.querySelector("select[name='type']") as HTMLSelectElement, {
      target: { value: "refill" },
    });
    await waitFor(() => expect(screen.getAllByTestId("operation-row")).toHaveLength(1));
    expect(screen.getByTestId("operation-row").getAttribute("data-type")).toBe("refill");
    expect(screen.getByTestId("operation-row").textContent).toContain("Refill");
  });
});
