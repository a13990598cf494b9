/**
 * The money forms inside Telegram, against a simulated client at the bridge: the Main button
 * is the submit (text, click, loader while the request is out, usable again after a failure), the page
 * has no submit of its own, closing asks for confirmation only while there is unsent input, and haptics
 * tell success from failure. Also the cabinet's mark on figures that may be out of date.
 */
import type { Deposit, PaymentSystem, Plan, Refill } from "@contract";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { HOME_SCREEN_OFFERED_KEY } from "@/features/deposits/components/home-screen-offer";
import { type HomeScreenStatus, type MainButtonParams, setTelegramBridge } from "@/tma/bridge";
import { aDeposit, aPaymentSystem, aPlan, aStatistics } from "./fixtures";
import { DEMO_USER, fakeBridge, type RouteReply, renderApp, stubRoutes } from "./test-utils";

/** A Telegram client at the bridge: the real hooks drive its Main button, closing guard and haptics. */
let fake: ReturnType<typeof fakeBridge>;
const telegram = {
  get notify() {
    return fake.bridge.haptics.notify;
  },
};

beforeEach(() => {
  fake = fakeBridge();
  setTelegramBridge(fake.bridge);
});
afterEach(() => {
  setTelegramBridge(null);
  vi.unstubAllGlobals();
});

/** Telegram's Main button as the client shows it now (every `set` so far, merged); fails while hidden. */
function mainButton() {
  const state: MainButtonParams = {};
  for (const [params] of fake.bridge.mainButton.set.mock.calls) Object.assign(state, params);
  if (!state.isVisible) throw new Error("the Main button is not in use");
  return { text: state.text, enabled: state.isEnabled, loading: state.isLoaderVisible };
}

const pressMain = () => act(() => fake.pressMain());
/** Two quick presses, both delivered before the loader shows (Telegram Web A delivers a double tap so). */
const pressMainTwice = () =>
  act(() => {
    fake.pressMain();
    fake.pressMain();
  });
/** The `POST`s sent to `path` (the API's path) so far. */
function posts(path: string): number {
  return vi
    .mocked(fetch)
    .mock.calls.filter(
      ([input, init]) =>
        init?.method === "POST" && new URL(String(input), "http://localhost").pathname.replace(/^\/api/, "") === path,
    ).length;
}
/** Whether closing asks first: the last thing the app told the client (nothing told: no). */
const closingConfirmation = () => fake.bridge.setClosingConfirmation.mock.calls.at(-1)?.[0] ?? false;

/** A reply the test lets go when it wants: the request stays pending until then. */
function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open: () => act(async () => open()) };
}

/** `stubRoutes`, with the requests `held` names (method and path) answered only after their gate opens. */
function stubWithHold(
  routes: Parameters<typeof stubRoutes>[0],
  held: { method: string; path: string; gate: Promise<void> },
) {
  const answer = stubRoutes(routes);
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), "http://localhost");
    if ((init?.method ?? "GET") === held.method && url.pathname.replace(/^\/api/, "") === held.path) await held.gate;
    return answer(input, init);
  });
  vi.stubGlobal("fetch", fetchMock);
  return answer;
}

async function field(name: string, root: ParentNode = document): Promise<HTMLInputElement> {
  return waitFor(() => {
    const input = root.querySelector<HTMLInputElement>(`input[name='${name}']`);
    if (!input) throw new Error(`no ${name} field yet`);
    return input;
  });
}

const BALANCE: RouteReply<"balance"> = {
  body: { type: "balance", currentCurrency: "USDT", currencies: { USDT: "1000", BTC: "0", ETH: "0", TON: "0" } },
};
const STATISTICS: RouteReply<"statistics"> = { body: aStatistics() };
const NOT_ENOUGH = { status: 409, body: { code: "INSUFFICIENT_FUNDS", message: "Not enough funds" } };

describe("deposit form in Telegram", () => {
  const PLAN: Plan = aPlan();
  const OPENED: Deposit = aDeposit({
    amount: "100",
    dailyIncome: "1.2",
    totalAtEnd: "136",
    accruedHeld: "0",
    daysAccrued: 0,
  });
  const routes = (
    create: RouteReply<"createDeposit"> | ((request: Request) => RouteReply<"createDeposit">),
  ): Parameters<typeof stubRoutes>[0] => ({
    plansAvailable: { body: [PLAN] },
    cryptoCases: { body: [] },
    balance: BALANCE,
    deposits: { body: { items: [], total: 0, page: 1, limit: 10 } },
    createDeposit: create,
  });

  it("submits with the Main button, shows its loader while pending, and ends with success haptics", async () => {
    const hold = gate();
    const posts: unknown[] = [];
    stubWithHold(
      routes((request) => {
        void request.json().then((body) => posts.push(body));
        return { body: OPENED };
      }),
      { method: "POST", path: "/funds/deposits", gate: hold.opened },
    );
    await renderApp({ path: "/deposits", user: DEMO_USER });
    // The screen's one primary action opens the sheet; the sheet's form then has the Main button.
    await waitFor(() => expect(mainButton().text).toBe("Open a deposit"));
    pressMain();
    const amount = await field("amount");

    await waitFor(() => expect(mainButton().text).toBe("Continue"));
    expect(screen.queryByTestId("submit")).toBeNull();
    expect(closingConfirmation()).toBe(false);

    fireEvent.change(amount, { target: { value: "100" } });
    expect(closingConfirmation()).toBe(true);

    pressMain();
    // The confirmation first: nothing is sent until its Main button is pressed.
    await screen.findByTestId("deposit-confirmation");
    await waitFor(() => expect(mainButton().text).toBe("Open the deposit"));
    expect(posts).toEqual([]);
    // Two quick presses (Web A delivers both before the loader shows): one POST.
    act(() => {
      fake.pressMain();
      fake.pressMain();
    });
    await waitFor(() => expect(mainButton().loading).toBe(true));
    await hold.open();
    await screen.findByTestId("form-success");
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts).toEqual([{ planId: "p-start", currency: "USDT", amount: "100", autoInvest: false }]);
    expect(mainButton()).toMatchObject({ text: "Open a deposit", loading: false });
    expect(telegram.notify).toHaveBeenCalledWith("success");
    expect(telegram.notify).not.toHaveBeenCalledWith("error");
    expect(closingConfirmation()).toBe(false);
  });

  it("after 'Not enough funds' the Main button is usable again, the input stays guarded, haptics say error", async () => {
    stubRoutes(routes(NOT_ENOUGH));
    await renderApp({ path: "/deposits", user: DEMO_USER });
    await sendDepositWithMainButton();
    await screen.findByText("Not enough funds");
    expect(mainButton()).toMatchObject({ loading: false, enabled: true });
    expect(telegram.notify).toHaveBeenCalledWith("error");
    expect(telegram.notify).not.toHaveBeenCalledWith("success");
    expect(closingConfirmation()).toBe(true);
  });

  it("an invalid amount is refused before any request, with error haptics", async () => {
    const fetchMock = stubRoutes(routes({ body: OPENED }));
    await renderApp({ path: "/deposits", user: DEMO_USER });
    await waitFor(() => expect(mainButton().text).toBe("Open a deposit"));
    pressMain();
    fireEvent.change(await field("amount"), { target: { value: "10" } });
    pressMain();
    expect(telegram.notify).toHaveBeenCalledWith("error");
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === "POST")).toBe(false);
  });

  it("clearing the amount turns the closing confirmation off", async () => {
    stubRoutes(routes({ body: OPENED }));
    await renderApp({ path: "/deposits", user: DEMO_USER });
    await waitFor(() => expect(mainButton().text).toBe("Open a deposit"));
    pressMain();
    const amount = await field("amount");
    fireEvent.change(amount, { target: { value: "75" } });
    expect(closingConfirmation()).toBe(true);
    fireEvent.change(amount, { target: { value: "" } });
    expect(closingConfirmation()).toBe(false);
  });

  /** Asks for a deposit of 100 with the Main button, as an investor does: the sheet, the amount, the confirmation. */
  async function sendDepositWithMainButton() {
    await waitFor(() => expect(mainButton().text).toBe("Open a deposit"));
    pressMain();
    fireEvent.change(await field("amount"), { target: { value: "100" } });
    pressMain();
    await screen.findByTestId("deposit-confirmation");
    pressMain();
  }

  /** Opens a deposit of 100 with the Main button and waits until it is open. */
  async function openDepositWithMainButton() {
    await sendDepositWithMainButton();
    await screen.findByTestId("form-success");
  }

  /** A client with "Add to home screen" (Mini Apps 8.0) that answers the status question with `status`. */
  function withHomeScreen(status: HomeScreenStatus) {
    const homeScreen = { status: vi.fn(async () => status), add: vi.fn() };
    Object.assign(fake.bridge, { homeScreen });
    return homeScreen;
  }

  it("offers Add to home screen once, after a deposit opens, where the client says the app is not there", async () => {
    const homeScreen = withHomeScreen("missed");
    stubRoutes(routes({ body: OPENED }));
    await renderApp({ path: "/deposits", user: DEMO_USER });
    expect(screen.queryByTestId("home-screen-offer")).toBeNull();
    expect(homeScreen.status).not.toHaveBeenCalled();
    await openDepositWithMainButton();
    const offer = await screen.findByTestId("home-screen-offer");
    expect(offer.textContent).toContain("Kassa on your home screen");
    fireEvent.click(within(offer).getByRole("button", { name: "Add to home screen" }));
    expect(homeScreen.add).toHaveBeenCalledTimes(1);
    expect(screen.queryByTestId("home-screen-offer")).toBeNull();
    // The next deposit on this device: no offer, and the client is not even asked.
    await openDepositWithMainButton();
    expect(homeScreen.status).toHaveBeenCalledTimes(1);
    expect(screen.queryByTestId("home-screen-offer")).toBeNull();
  });

  it.each(["added", "unsupported", "unknown"] as const)(
    "offers nothing when the client says the home screen status is %s",
    async (status) => {
      const homeScreen = withHomeScreen(status);
      stubRoutes(routes({ body: OPENED }));
      await renderApp({ path: "/deposits", user: DEMO_USER });
      await openDepositWithMainButton();
      await waitFor(() => expect(homeScreen.status).toHaveBeenCalledTimes(1));
      expect(screen.queryByTestId("home-screen-offer")).toBeNull();
      expect(localStorage.getItem(HOME_SCREEN_OFFERED_KEY)).toBeNull();
    },
  );

  it("'Not now' closes the offer without the client's prompt, and it is not made again", async () => {
    const homeScreen = withHomeScreen("missed");
    stubRoutes(routes({ body: OPENED }));
    await renderApp({ path: "/deposits", user: DEMO_USER });
    await openDepositWithMainButton();
    const offer = await screen.findByTestId("home-screen-offer");
    fireEvent.click(within(offer).getByRole("button", { name: "Not now" }));
    expect(screen.queryByTestId("home-screen-offer")).toBeNull();
    expect(homeScreen.add).not.toHaveBeenCalled();
    expect(localStorage.getItem(HOME_SCREEN_OFFERED_KEY)).not.toBeNull();
  });
});

describe("refill form in Telegram", () => {
  const SYSTEM: PaymentSystem = aPaymentSystem();
  const WAITING: Refill = {
    id: "r1",
    status: "waiting",
    currency: "USDT",
    paymentSystemId: SYSTEM.id,
    network: "TRC20",
    address: "TXyzAddress0000000000000000001",
    amountRequested: "150",
    amountCredited: null,
    txHash: null,
    createdAt: "2026-01-02T10:00:00.000Z",
    processedAt: null,
  };
  const routes = (create: RouteReply<"createRefill">): Parameters<typeof stubRoutes>[0] => ({
    paymentSystems: { body: [SYSTEM] },
    refills: { body: { items: [], total: 0, page: 1, limit: 10 } },
    createRefill: create,
  });

  it("submits with the Main button (loader while pending; a double press sends once) and opens the wallet dialog, with success haptics", async () => {
    const hold = gate();
    stubWithHold(routes({ body: WAITING }), { method: "POST", path: "/funds/refills", gate: hold.opened });
    await renderApp({ path: "/refill", user: DEMO_USER });
    const amount = await field("amount");
    expect(mainButton().text).toBe("Get payment address");
    expect(screen.queryByTestId("submit")).toBeNull();
    expect(closingConfirmation()).toBe(false);

    fireEvent.change(amount, { target: { value: "150" } });
    expect(closingConfirmation()).toBe(true);
    pressMainTwice();
    await waitFor(() => expect(mainButton().loading).toBe(true));
    await hold.open();
    await screen.findByTestId("wallet-dialog");
    expect(posts("/funds/refills")).toBe(1);
    expect(telegram.notify).toHaveBeenCalledWith("success");
    // The sheet owns the bottom bar: the form's Main button is not left active under it.
    await waitFor(() => expect(() => mainButton()).toThrow("not in use"));
    expect(closingConfirmation()).toBe(false);
  });

  it("a refused refill leaves the Main button usable and the input guarded, with error haptics", async () => {
    stubRoutes(
      routes({
        status: 400,
        body: { code: "VALIDATION_FAILED", message: "Invalid data", fields: { amount: "decimal" } },
      }),
    );
    await renderApp({ path: "/refill", user: DEMO_USER });
    fireEvent.change(await field("amount"), { target: { value: "150" } });
    pressMain();
    await screen.findByTestId("form-error");
    expect(mainButton()).toMatchObject({ loading: false, enabled: true });
    expect(telegram.notify).toHaveBeenCalledWith("error");
    expect(closingConfirmation()).toBe(true);
  });

  it("the hash alone is unsent input too", async () => {
    stubRoutes(routes({ body: WAITING }));
    await renderApp({ path: "/refill", user: DEMO_USER });
    const hash = await field("txHash");
    fireEvent.change(hash, { target: { value: "0xabc" } });
    expect(closingConfirmation()).toBe(true);
    fireEvent.change(hash, { target: { value: "" } });
    expect(closingConfirmation()).toBe(false);
  });
});

describe("exchange dialog in Telegram", () => {
  const RATES: RouteReply<"exchangeRate"> = {
    body: { base: "USD", rates: { USDT: "1", BTC: "65000", ETH: "3200", TON: "5.5" }, feePercent: "1" },
  };
  const routes = (exchange: RouteReply<"exchange">): Parameters<typeof stubRoutes>[0] => ({
    balance: BALANCE,
    statistics: STATISTICS,
    exchangeRate: RATES,
    operations: { body: { items: [], total: 0, page: 1, limit: 5 } },
    exchange,
  });
  const EXCHANGED: RouteReply<"exchange"> = {
    body: {
      from: "USDT",
      to: "TON",
      debited: "99",
      received: "17.82",
      rates: { from: "1", to: "5.5" },
      feePercent: "1",
      currencies: { USDT: "901", BTC: "0", ETH: "0", TON: "17.82" },
    },
  };

  async function openDialog() {
    await renderApp({ path: "/", user: DEMO_USER });
    await screen.findByTestId("balance");
    fireEvent.click(screen.getByTestId("open-exchange"));
    const dialog = await screen.findByTestId("exchange-dialog");
    fireEvent.change(dialog.querySelector("select[name='to']") as HTMLSelectElement, { target: { value: "TON" } });
    return dialog;
  }

  it("continues and then confirms with the Main button once there is a quote, loader while pending, a double press sent once, success haptics", async () => {
    const hold = gate();
    stubWithHold(routes(EXCHANGED), { method: "POST", path: "/user/exchange", gate: hold.opened });
    const dialog = await openDialog();
    expect(mainButton()).toMatchObject({ text: "Continue", enabled: false });
    expect(within(dialog).queryByTestId("exchange-next")).toBeNull();

    fireEvent.change(await field("amount", dialog), { target: { value: "99" } });
    await waitFor(() => expect(mainButton().enabled).toBe(true));
    expect(closingConfirmation()).toBe(true);
    pressMain();
    await within(dialog).findByTestId("exchange-confirmation");
    await waitFor(() => expect(mainButton()).toMatchObject({ text: "Exchange", enabled: true }));
    expect(within(dialog).queryByTestId("exchange-confirm")).toBeNull();
    pressMainTwice();
    await waitFor(() => expect(mainButton().loading).toBe(true));
    await hold.open();
    await within(dialog).findByTestId("form-success");
    expect(posts("/user/exchange")).toBe(1);
    expect(mainButton().loading).toBe(false);
    expect(telegram.notify).toHaveBeenCalledWith("success");
    expect(closingConfirmation()).toBe(false);
    // The result stays on screen; the Main button's Done closes it.
    expect(within(dialog).getByTestId("exchange-done")).toBeTruthy();
    await waitFor(() => expect(mainButton()).toMatchObject({ text: "Done", enabled: true }));
    pressMain();
    await waitFor(() => expect(screen.queryByTestId("exchange-dialog")).toBeNull());
  });

  it("Telegram's Back on the confirmation returns to the form with the amount kept; on the form it closes the sheet", async () => {
    stubRoutes(routes(EXCHANGED));
    const dialog = await openDialog();
    fireEvent.change(await field("amount", dialog), { target: { value: "99" } });
    await waitFor(() => expect(mainButton().enabled).toBe(true));
    pressMain();
    await within(dialog).findByTestId("exchange-confirmation");
    act(() => fake.pressBack());
    await waitFor(() => expect(within(dialog).queryByTestId("exchange-confirmation")).toBeNull());
    expect(screen.getByTestId("exchange-dialog")).toBe(dialog);
    expect((await field("amount", dialog)).value).toBe("99");
    await waitFor(() => expect(mainButton().text).toBe("Continue"));
    act(() => fake.pressBack());
    await waitFor(() => expect(screen.queryByTestId("exchange-dialog")).toBeNull());
  });

  it("'Not enough funds' keeps the amount and the Main button usable, with error haptics", async () => {
    stubRoutes(routes(NOT_ENOUGH));
    const dialog = await openDialog();
    fireEvent.change(await field("amount", dialog), { target: { value: "99" } });
    await waitFor(() => expect(mainButton().enabled).toBe(true));
    pressMain();
    await within(dialog).findByTestId("exchange-confirmation");
    pressMain();
    await within(dialog).findByText("Not enough funds");
    expect((await field("amount", dialog)).value).toBe("99");
    expect(mainButton()).toMatchObject({ loading: false, enabled: true });
    expect(telegram.notify).toHaveBeenCalledWith("error");
    expect(closingConfirmation()).toBe(true);
  });
});

describe("cabinet's stale mark", () => {
  const routes = (): Parameters<typeof stubRoutes>[0] => ({
    balance: BALANCE,
    statistics: STATISTICS,
    operations: { body: { items: [], total: 0, page: 1, limit: 5 } },
  });

  it("is off while the figures are fresh, and on when refreshing the balance failed while it is shown", async () => {
    let failing = false;
    const answer = stubRoutes(routes());
    vi.stubGlobal(
      "fetch",
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        if (failing && String(input).includes("/user/balance")) throw new TypeError("Failed to fetch");
        return answer(input, init);
      }),
    );
    const { queryClient } = await renderApp({ path: "/", user: DEMO_USER });
    await screen.findByTestId("balance");
    expect(screen.queryByTestId("stale")).toBeNull();

    failing = true;
    await act(() => queryClient.refetchQueries({ queryKey: ["balance"] }, { throwOnError: false }));
    await waitFor(() => expect(screen.getByTestId("stale")).toBeTruthy());
    expect(screen.getByTestId("balance").getAttribute("data-amount")).toBe("1000");

    failing = false;
    await act(() => queryClient.refetchQueries({ queryKey: ["balance"] }));
    await waitFor(() => expect(screen.queryByTestId("stale")).toBeNull());
  });

  it("stays off while the browser is offline: the offline banner alone says it, once", async () => {
    stubRoutes(routes());
    await renderApp({ path: "/", user: DEMO_USER });
    await screen.findByTestId("balance");
    expect(screen.queryByTestId("offline-banner")).toBeNull();
    const onLine = vi.spyOn(navigator, "onLine", "get").mockReturnValue(false);
    try {
      act(() => {
        window.dispatchEvent(new Event("offline"));
      });
      expect(screen.getAllByTestId("offline-banner")).toHaveLength(1);
      expect(screen.queryByTestId("stale")).toBeNull();
    } finally {
      onLine.mockRestore();
      act(() => {
        window.dispatchEvent(new Event("online"));
      });
    }
    expect(screen.queryByTestId("offline-banner")).toBeNull();
  });
});
