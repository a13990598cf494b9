/** The deposits screen: the computed result, the amount rule, the close confirmation, refusals. */
import { type Deposit, depositCloseOutcome, depositTerms, type Plan } from "@contract";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { aDeposit, aPlan } from "./fixtures";
import { DEMO_USER, type RouteReply, renderApp, stubRoutes } from "./test-utils";

const PLAN: Plan = aPlan();

const BALANCE: RouteReply<"balance"> = {
  body: { type: "balance", currentCurrency: "USDT", currencies: { USDT: "1000", BTC: "0", ETH: "0", TON: "0" } },
};

const ACTIVE: Deposit = aDeposit();

function page(items: Deposit[]): RouteReply<"deposits"> {
  return { body: { items, total: items.length, page: 1, limit: 10 } };
}

function stubDeposits(extra: Parameters<typeof stubRoutes>[0] = {}) {
  return stubRoutes({
    plansAvailable: { body: [PLAN] },
    balance: BALANCE,
    deposits: page([ACTIVE]),
    ...extra,
  });
}

/** Opens the "Open a deposit" sheet and returns its amount field. */
async function amountField(): Promise<HTMLInputElement> {
  if (!document.querySelector("input[name='amount']")) fireEvent.click(await screen.findByTestId("open-deposit"));
  return waitFor(() => {
    const input = document.querySelector<HTMLInputElement>("input[name='amount']");
    if (!input) throw new Error("no amount field yet");
    return input;
  });
}

const amountOf = (testId: string) => screen.getByTestId(testId).getAttribute("data-amount");

afterEach(() => vi.unstubAllGlobals());

describe("deposit form", () => {
  it("shows the result of depositTerms for what is typed, and updates it as the user types", async () => {
    stubDeposits();
    await renderApp({ path: "/deposits", user: DEMO_USER });
    const amount = await amountField();
    expect(screen.getByTestId("available-balance").getAttribute("data-amount")).toBe("1000");

    for (const typed of ["100", "123,45", "777.777777"]) {
      fireEvent.change(amount, { target: { value: typed } });
      const expected = depositTerms({
        amount: typed.replace(",", "."),
        dailyYieldPercent: PLAN.dailyYieldPercent,
        durationDays: PLAN.durationDays,
        currency: PLAN.currency,
      });
      expect(amountOf("preview-daily-income")).toBe(expected.dailyIncome);
      expect(amountOf("preview-total-accrued")).toBe(expected.totalAccrued);
      expect(amountOf("preview-total-at-end")).toBe(expected.totalAtEnd);
    }
    const endsAt = new Date(screen.getByTestId("preview-ends-at").getAttribute("data-date") ?? "").getTime();
    expect(Math.abs(endsAt - (Date.now() + 30 * 86_400_000))).toBeLessThan(60_000);
    expect(screen.getByTestId("preview-daily-income").textContent).toBe("9.333333 USDT");
  });

  it("states the amount rule next to the field, with the plan's minimum and maximum", async () => {
    stubDeposits();
    await renderApp({ path: "/deposits", user: DEMO_USER });
    const amount = await amountField();
    const note = () => document.querySelector("[data-field-error='amount']")?.textContent;
    // No result is computed for an amount the plan or the balance refuses.
    const noResult = () => expect(screen.getByTestId("preview-total-at-end").getAttribute("data-amount")).toBeNull();
    fireEvent.change(amount, { target: { value: "10" } });
    await waitFor(() => expect(note()).toBe("The amount is below the minimum of 50.00 USDT"));
    noResult();
    fireEvent.change(amount, { target: { value: "5000.01" } });
    await waitFor(() => expect(note()).toBe("The amount is above the maximum of 5,000.00 USDT"));
    noResult();
    fireEvent.change(amount, { target: { value: "1500" } });
    await waitFor(() => expect(note()).toBe("Not enough funds"));
    noResult();
    fireEvent.change(amount, { target: { value: "-1" } });
    await waitFor(() => expect(note()).toBe("The amount cannot be less than 0"));
    fireEvent.change(amount, { target: { value: "60.1234567" } });
    await waitFor(() => expect(note()).toBe("At most 6 digits after the decimal point"));
    fireEvent.change(amount, { target: { value: "60" } });
    await waitFor(() => expect(note()).toBeUndefined());
  });

  it("says 'Not enough funds' on INSUFFICIENT_FUNDS and keeps what was typed", async () => {
    const posted: unknown[] = [];
    stubDeposits({
      createDeposit: (request) => {
        void request.json().then((body) => posted.push(body));
        return { status: 409, body: { code: "INSUFFICIENT_FUNDS", message: "Not enough funds" } };
      },
    });
    await renderApp({ path: "/deposits", user: DEMO_USER });
    const amount = await amountField();
    fireEvent.change(amount, { target: { value: "900,5" } });
    fireEvent.click(screen.getByTestId("submit"));
    fireEvent.click(await screen.findByTestId("deposit-confirm"));
    await waitFor(() => expect(screen.getByTestId("form-error").textContent).toBe("Not enough funds"));
    expect((await amountField()).value).toBe("900,5");
    expect(posted).toEqual([{ planId: "p-start", currency: "USDT", amount: "900.5", autoInvest: false }]);
  });

  it("shows 'Deposit creation error' and a field error from the server's fields.amount", async () => {
    let reply: RouteReply<"createDeposit"> = {
      status: 400,
      body: { code: "DEPOSIT_CREATE_FAILED", message: "Deposit creation error" },
    };
    stubDeposits({ createDeposit: () => reply, deposits: page([]) });
    await renderApp({ path: "/deposits", user: DEMO_USER });
    const amount = await amountField();
    fireEvent.change(amount, { target: { value: "100" } });
    fireEvent.click(screen.getByTestId("submit"));
    fireEvent.click(await screen.findByTestId("deposit-confirm"));
    await waitFor(() => expect(screen.getByTestId("form-error").textContent).toBe("Deposit creation error"));
    reply = {
      status: 400,
      body: { code: "VALIDATION_FAILED", message: "Check the marked fields", fields: { amount: "amountAboveMaximum" } },
    };
    fireEvent.click(screen.getByTestId("submit"));
    fireEvent.click(await screen.findByTestId("deposit-confirm"));
    await waitFor(() =>
      expect(document.querySelector("[data-field-error='amount']")?.textContent).toBe(
        "The amount is above the maximum of 5,000.00 USDT",
      ),
    );
  });
});

describe("deposit list and close", () => {
  it("shows progress, held accruals and a close confirmation stating depositCloseOutcome", async () => {
    const closed: Deposit = { ...ACTIVE, status: "closed", returned: "250", forfeited: "24", accruedHeld: "24" };
    stubDeposits({ closeDeposit: { body: { deposit: closed, returned: "250", forfeited: "24" } } });
    await renderApp({ path: "/deposits", user: DEMO_USER });
    const row = await screen.findByTestId("deposit-row");
    expect(row.getAttribute("data-deposit-id")).toBe("d1");
    expect(row.getAttribute("data-status")).toBe("active");
    expect(within(row).getByTestId("deposit-days").textContent).toBe("7 / 30");
    expect(within(row).getByTestId("deposit-accrued").getAttribute("data-amount")).toBe("21");

    fireEvent.click(within(row).getByTestId("deposit-close"));
    const dialog = await screen.findByTestId("close-dialog");
    const outcome = depositCloseOutcome(ACTIVE);
    expect(within(dialog).getByTestId("close-returned").getAttribute("data-amount")).toBe(outcome.returned);
    expect(within(dialog).getByTestId("close-forfeited").getAttribute("data-amount")).toBe(outcome.forfeited);
    expect(within(dialog).getByTestId("close-returned").textContent).toBe("250.00 USDT");
    expect(within(dialog).getByTestId("close-forfeited").textContent).toBe("21.00 USDT");

    fireEvent.click(within(dialog).getByTestId("close-confirm"));
    await waitFor(() => expect(within(dialog).getByTestId("close-forfeited").getAttribute("data-amount")).toBe("24"));
    expect(within(dialog).getByRole("heading", { name: "The deposit is closed" })).toBeTruthy();
  });

  it("says 'Deposit closing error' when the close fails", async () => {
    stubDeposits({
      closeDeposit: {
        status: 400,
        body: { code: "DEPOSIT_CLOSE_FAILED", message: "Deposit closing error", params: { reason: "not_active" } },
      },
    });
    await renderApp({ path: "/deposits", user: DEMO_USER });
    fireEvent.click(await screen.findByTestId("deposit-close"));
    fireEvent.click(await screen.findByTestId("close-confirm"));
    await waitFor(() => expect(screen.getByTestId("form-error").textContent).toBe("Deposit closing error"));
  });
});

describe("close early at the amounts shown", () => {
  it("sends the amounts it shows; when a day accrued meanwhile it shows the server's and closes at them on a second yes", async () => {
    const bodies: unknown[] = [];
    const closed: Deposit = { ...ACTIVE, status: "closed", returned: "250", forfeited: "24", accruedHeld: "24" };
    stubDeposits({
      closeDeposit: async (request) => {
        const body = (await request.json()) as { forfeited?: string };
        bodies.push(body);
        if (body.forfeited !== "24") {
          return {
            status: 400,
            body: {
              code: "DEPOSIT_CLOSE_FAILED",
              message: "Deposit closing error",
              params: { reason: "amounts_changed", returned: "250", forfeited: "24" },
            },
          };
        }
        return { body: { deposit: closed, returned: "250", forfeited: "24" } };
      },
    });
    await renderApp({ path: "/deposits", user: DEMO_USER });
    fireEvent.click(await screen.findByTestId("deposit-close"));
    const dialog = await screen.findByTestId("close-dialog");
    expect(within(dialog).getByTestId("close-forfeited").textContent).toBe("21.00 USDT");
    fireEvent.click(within(dialog).getByTestId("close-confirm"));
    // Refused: the sheet now states the server's amounts and says why; nothing is closed yet.
    await waitFor(() => expect(within(dialog).getByTestId("close-forfeited").textContent).toBe("24.00 USDT"));
    expect(within(dialog).getByTestId("close-changed").textContent).toBe(
      "A day's income accrued in the meantime. Check the new amounts and confirm again.",
    );
    expect(within(dialog).queryByTestId("form-error")).toBeNull();
    expect(bodies).toEqual([{ returned: "250", forfeited: "21" }]);

    fireEvent.click(within(dialog).getByTestId("close-confirm"));
    await waitFor(() => expect(within(dialog).getByRole("heading", { name: "The deposit is closed" })).toBeTruthy());
    expect(within(dialog).getByTestId("close-forfeited").textContent).toBe("24.00 USDT");
    expect(bodies).toEqual([
      { returned: "250", forfeited: "21" },
      { returned: "250", forfeited: "24" },
    ]);
  });
});

describe("deposit list: mine first", () => {
  it("comes first with one 'Open a deposit' after it, and its card's action reads 'Close early'", async () => {
    stubDeposits();
    await renderApp({ path: "/deposits", user: DEMO_USER });
    const row = await screen.findByTestId("deposit-row");
    const open = screen.getByTestId("open-deposit");
    expect(open.textContent).toBe("Open a deposit");
    // The form is not on the screen until asked for; the list precedes the action.
    expect(document.querySelector("input[name='amount']")).toBeNull();
    expect(row.compareDocumentPosition(open) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(row).getByTestId("deposit-close").textContent).toBe("Close early");
    expect(within(row).getByRole("progressbar").getAttribute("aria-label")).toBe("Day 7 of 30");
  });

  it("a deposit closed early shows what was returned and what was forfeited, not income 'accrued and held'", async () => {
    const closed: Deposit = {
      ...ACTIVE,
      status: "closed",
      closedAt: "2026-01-08T00:00:00.000Z",
      returned: "250",
      forfeited: "21",
    };
    stubDeposits({ deposits: page([closed]) });
    await renderApp({ path: "/deposits", user: DEMO_USER });
    const row = await screen.findByTestId("deposit-row");
    expect(within(row).getByTestId("deposit-returned").getAttribute("data-amount")).toBe("250");
    expect(within(row).getByTestId("deposit-forfeited").getAttribute("data-amount")).toBe("21");
    expect(within(row).getByText("Returned to the balance")).toBeTruthy();
    expect(within(row).getByText("Forfeited")).toBeTruthy();
    expect(within(row).queryByText("Accrued, paid at the end")).toBeNull();
    expect(within(row).queryByTestId("deposit-accrued")).toBeNull();
    expect(within(row).queryByTestId("deposit-close")).toBeNull();
    // Its details say the same.
    fireEvent.click(within(row).getByTestId("deposit-open"));
    const details = await screen.findByTestId("deposit-details");
    expect(within(details).queryByText("Accrued, paid at the end")).toBeNull();
    expect(within(details).queryByTestId("deposit-details-accrued")).toBeNull();
    expect(within(details).getByText("Income forfeited")).toBeTruthy();
  });
});

describe("opening a deposit: the confirmation", () => {
  it("states the amount, the daily and total income and the end date, and sends nothing before it is agreed", async () => {
    const posted: unknown[] = [];
    stubDeposits({
      createDeposit: (request) => {
        void request.json().then((body) => posted.push(body));
        return { body: { ...ACTIVE, id: "d2", amount: "777.777777", daysAccrued: 0, accruedHeld: "0" } };
      },
    });
    await renderApp({ path: "/deposits", user: DEMO_USER });
    const amount = await amountField();
    fireEvent.change(amount, { target: { value: "777,777777" } });
    fireEvent.click(screen.getByTestId("submit"));
    const confirmation = await screen.findByTestId("deposit-confirmation");
    const expected = depositTerms({
      amount: "777.777777",
      dailyYieldPercent: PLAN.dailyYieldPercent,
      durationDays: PLAN.durationDays,
      currency: PLAN.currency,
    });
    const figure = (id: string) => within(confirmation).getByTestId(id);
    expect(figure("confirm-amount").getAttribute("data-amount")).toBe("777.777777");
    expect(figure("confirm-amount").textContent).toBe("777.777777 USDT");
    expect(figure("confirm-daily-income").getAttribute("data-amount")).toBe(expected.dailyIncome);
    expect(figure("confirm-daily-income").textContent).toBe("9.333333 USDT");
    expect(figure("confirm-total-income").getAttribute("data-amount")).toBe(expected.totalAccrued);
    expect(figure("confirm-total-at-end").getAttribute("data-amount")).toBe(expected.totalAtEnd);
    const endsAt = new Date(figure("confirm-ends-at").getAttribute("data-date") ?? "").getTime();
    expect(Math.abs(endsAt - (Date.now() + 30 * 86_400_000))).toBeLessThan(60_000);
    expect(within(confirmation).getByText(/777\.777777 USDT leaves your USDT balance only when you tap/)).toBeTruthy();
    // Nothing is debited yet.
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(posted).toEqual([]);

    // "Change" goes back to the form with the amount as typed; still nothing sent.
    fireEvent.click(within(confirmation).getByTestId("deposit-change"));
    expect((await amountField()).value).toBe("777,777777");
    expect(posted).toEqual([]);

    fireEvent.click(screen.getByTestId("submit"));
    fireEvent.click(await screen.findByTestId("deposit-confirm"));
    await waitFor(() =>
      expect(posted).toEqual([{ planId: "p-start", currency: "USDT", amount: "777.777777", autoInvest: false }]),
    );
    // Opened: the sheet closes and the screen says so.
    await waitFor(() => expect(screen.queryByTestId("deposit-sheet")).toBeNull());
    expect(screen.getByTestId("form-success").textContent).toBe("The deposit is open");
  });
});
