/** A newcomer's first steps on the cabinet: which step shows for which data, where its one action leads, and when it never shows. */
import type { CurrencyAmounts, StatisticsReply } from "@contract";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { aDeposit, aPlan, aStatistics, NOTHING } from "./fixtures";
import { DEMO_USER, overviewOf, type RouteReply, renderApp, stubRoutes } from "./test-utils";

afterEach(() => vi.unstubAllGlobals());

function balanceOf(currencies: CurrencyAmounts): RouteReply<"balance"> {
  return { body: { type: "balance", currentCurrency: "USDT", currencies } };
}

function statisticsOf(overrides: Partial<StatisticsReply> = {}): { body: StatisticsReply } {
  return { body: aStatistics(overrides) };
}

/** A reply held back until `release` is called. */
function heldBack<T>(reply: T) {
  let release = () => {};
  const ready = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { reply: () => ready.then(() => reply), release: () => release() };
}

/** Records whether the first steps were ever in the page (a flash shows and goes between two looks). */
function watchForFirstSteps() {
  let seen = false;
  const observer = new MutationObserver(() => {
    if (document.querySelector("[data-testid='first-steps']")) seen = true;
  });
  observer.observe(document.body, { childList: true, subtree: true });
  return {
    get seen() {
      return seen || document.querySelector("[data-testid='first-steps']") !== null;
    },
    stop: () => observer.disconnect(),
  };
}

function stepStates() {
  return ["refill", "deposit", "earn"].map((name) => screen.getByTestId(`first-step-${name}`).dataset.state);
}

describe("cabinet: first steps", () => {
  it("offers a fresh investor step 1, to refill, and its action opens the refill screen", async () => {
    stubRoutes({ balance: balanceOf(NOTHING), statistics: statisticsOf() });
    const { router } = await renderApp({ path: "/", user: DEMO_USER });
    const block = await screen.findByTestId("first-steps");
    expect(block.dataset.step).toBe("1");
    expect(stepStates()).toEqual(["current", "next", "next"]);
    expect(screen.getByTestId("first-step-refill").getAttribute("aria-current")).toBe("step");
    expect(within(block).getByText("Your first steps")).toBeTruthy();
    // One action, the current step's.
    expect(
      within(block)
        .getAllByRole("button")
        .map((b) => b.textContent),
    ).toEqual(["Refill"]);
    fireEvent.click(within(block).getByTestId("first-steps-action"));
    await waitFor(() => expect(router.state.location.pathname).toBe("/refill"));
  });

  it("offers step 2 once anything is on the balance (a satoshi counts), and its action opens the deposit sheet", async () => {
    stubRoutes({
      balance: balanceOf({ ...NOTHING, BTC: "0.00000001" }),
      statistics: statisticsOf(),
      plansAvailable: { body: [aPlan()] },
      cryptoCases: { body: [] },
    });
    const { router } = await renderApp({ path: "/", user: DEMO_USER });
    const block = await screen.findByTestId("first-steps");
    expect(block.dataset.step).toBe("2");
    expect(stepStates()).toEqual(["done", "current", "next"]);
    expect(within(screen.getByTestId("first-step-refill")).getByText(/done/)).toBeTruthy();
    expect(
      within(block)
        .getAllByRole("button")
        .map((b) => b.textContent),
    ).toEqual(["Open a deposit"]);
    fireEvent.click(within(block).getByTestId("first-steps-action"));
    expect(await screen.findByTestId("deposit-sheet")).toBeTruthy();
    expect(router.state.location.pathname).toBe("/deposits");
    // The sheet's mark leaves the address: Back or a reload does not open it again.
    await waitFor(() => expect(router.state.location.search).toBe(""));
  });

  it("never shows for an investor with a deposit, not even while the figures load", async () => {
    const statistics = heldBack(statisticsOf({ activeDeposits: 1, amountOnDeposit: { ...NOTHING, USDT: "250" } }).body);
    const watch = watchForFirstSteps();
    stubRoutes({
      balance: balanceOf(NOTHING),
      // The headline's overview comes at once; only the statistics are held back.
      overview: { body: overviewOf("USDT", NOTHING, { ...NOTHING, USDT: "250" }) },
      statistics: async () => ({ body: await statistics.reply() }),
      deposits: { body: { items: [aDeposit()], total: 1, page: 1, limit: 10 } },
    });
    await renderApp({ path: "/", user: DEMO_USER });
    await screen.findByTestId("balance");
    statistics.release();
    await screen.findByTestId("stat-active-deposits");
    await screen.findByTestId("active-deposits");
    watch.stop();
    expect(watch.seen).toBe(false);
  });

  it("never shows again once every deposit is closed and the balance spent", async () => {
    const watch = watchForFirstSteps();
    stubRoutes({
      balance: balanceOf(NOTHING),
      // Nothing held, nothing on deposit, nothing earned (closed early): only the deposit once opened tells.
      statistics: statisticsOf({ everDeposited: true }),
      deposits: {
        body: {
          items: [aDeposit({ status: "closed", closedAt: "2026-01-05T00:00:00.000Z", returned: "250" })],
          total: 1,
          page: 1,
          limit: 10,
        },
      },
    });
    await renderApp({ path: "/", user: DEMO_USER });
    await screen.findByTestId("stat-active-deposits");
    await screen.findByTestId("balance");
    watch.stop();
    expect(watch.seen).toBe(false);
  });
});
