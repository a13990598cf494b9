/** The subscription: card, confirmation, "Later", status. (The notifications: notification-inbox.test.tsx.) */
import type { SubscriptionOption } from "@contract";
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { isPostponed, postpone } from "@/features/subscription/model/later";
import { userAtom } from "@/lib/session";
import { appStore } from "@/lib/store";
import { setTelegramBridge } from "@/tma/bridge";
import { oneSetting } from "./route-stubs";
import { DEMO_USER, fakeBridge, type RouteReply, renderApp, stubRoutes } from "./test-utils";

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
  localStorage.clear();
});

const OPTIONS: SubscriptionOption[] = [
  {
    id: "month",
    title: { en: "Month", ru: "Месяц", de: "Monat", kk: "Ай" },
    price: "10",
    currency: "USDT",
    durationDays: 30,
  },
  {
    id: "year",
    title: { en: "Year", ru: "Год", de: "Jahr", kk: "Жыл" },
    price: "100",
    currency: "USDT",
    durationDays: 365,
  },
];

const BALANCES = (usdt: string): RouteReply<"balance"> => ({
  body: {
    type: "balance",
    currentCurrency: "USDT",
    currencies: { USDT: usdt, BTC: "0", ETH: "0", TON: "0" },
  },
});

describe("subscription: no surprise charges", () => {
  // The contract's route names, each reply typed by its route.
  function setup(balance: string, reply: RouteReply<"subscribe">, benefit: unknown = {}) {
    const sent: unknown[] = [];
    stubRoutes({
      subscriptionOptions: { body: OPTIONS },
      setting: oneSetting("subscriptionBenefit", benefit),
      balance: BALANCES(balance),
      subscribe: (request) => {
        void request.json().then((b) => sent.push(b));
        return reply;
      },
    });
    return sent;
  }
  const paid = (until: string): RouteReply<"subscribe"> => ({
    body: {
      user: { ...DEMO_USER, subscription: { active: true, until } },
      currencies: { USDT: "0", BTC: "0", ETH: "0", TON: "0" },
    },
  });

  it("prompts with one compact card on the Cabinet only, never on other screens", async () => {
    setup("50", paid("2027-01-01T00:00:00.000Z"));
    await renderApp({ path: "/", user: DEMO_USER });
    const card = await screen.findByTestId("subscription-prompt");
    expect(card.textContent).toContain("From 10.00 USDT");
    cleanup();
    await renderApp({ path: "/news", user: DEMO_USER });
    await waitFor(() => expect(document.querySelector("[data-screen='news']")).not.toBeNull());
    expect(screen.queryByTestId("subscription-prompt")).toBeNull();
  });

  it("charges nothing from the card: the confirmation states price, source balance, what stays and the end date", async () => {
    const until = "2027-01-01T00:00:00.000Z";
    const sent = setup("100", paid(until));
    await renderApp({ path: "/", user: DEMO_USER });
    fireEvent.click(within(await screen.findByTestId("subscription-prompt")).getByTestId("activate-subscription"));
    const sheet = await screen.findByTestId("subscription-sheet");
    expect(within(sheet).getByTestId("subscription-summary-price").textContent).toBe("10.00 USDT");
    await waitFor(() =>
      expect(within(sheet).getByTestId("subscription-summary-source").textContent).toBe(
        "USDT balance, 100.00 USDT available",
      ),
    );
    expect(within(sheet).getByTestId("subscription-summary-after").textContent).toBe("90.00 USDT");
    expect(within(sheet).getByTestId("subscription-summary-until").textContent).toMatch(/\d{4}/);
    expect(sent).toEqual([]);

    // Choosing the year changes the figures before anything is paid.
    fireEvent.click(
      within(sheet)
        .getAllByTestId("subscription-option")
        .find((o) => o.getAttribute("data-option-id") === "year") as HTMLElement,
    );
    expect(within(sheet).getByTestId("subscription-summary-after").textContent).toBe("0.00 USDT");
    fireEvent.click(within(sheet).getByTestId("subscription-pay"));
    await waitFor(() => expect(appStore.get(userAtom)?.subscription).toEqual({ active: true, until }));
    expect(sent).toEqual([{ optionId: "year" }]);
    const done = await within(sheet).findByTestId("form-success");
    expect(done.textContent).toBe("Your subscription is active until Jan 1, 2027.");
    fireEvent.click(within(sheet).getByTestId("subscription-close"));
    await waitFor(() => expect(screen.queryByTestId("subscription-sheet")).toBeNull());
    expect(screen.queryByTestId("subscription-prompt")).toBeNull();
  });

  it("inside Telegram a double press of the Main button pays once", async () => {
    const until = "2027-01-01T00:00:00.000Z";
    const sent = setup("100", paid(until));
    const fake = fakeBridge("weba");
    setTelegramBridge(fake.bridge);
    try {
      await renderApp({ path: "/", user: DEMO_USER });
      fireEvent.click(within(await screen.findByTestId("subscription-prompt")).getByTestId("activate-subscription"));
      const sheet = await screen.findByTestId("subscription-sheet");
      const shown = () => Object.assign({}, ...fake.bridge.mainButton.set.mock.calls.map(([params]) => params));
      await waitFor(() => expect(shown()).toMatchObject({ text: "Pay 10.00 USDT", isEnabled: true, isVisible: true }));
      // Both presses of a double tap, delivered before the loader shows (Telegram Web A does so).
      act(() => {
        fake.pressMain();
        fake.pressMain();
      });
      await within(sheet).findByTestId("form-success");
      expect(sent).toEqual([{ optionId: "month" }]);
    } finally {
      setTelegramBridge(null);
    }
  });

  it("says a short balance before the tap, offers a refill and sends nothing", async () => {
    const sent = setup("5", paid("2027-01-01T00:00:00.000Z"));
    await renderApp({ path: "/", user: DEMO_USER });
    fireEvent.click(within(await screen.findByTestId("subscription-prompt")).getByTestId("activate-subscription"));
    const sheet = await screen.findByTestId("subscription-sheet");
    expect((await within(sheet).findByTestId("subscription-short")).textContent).toContain(
      "Not enough funds on the USDT balance",
    );
    const pay = within(sheet).getByTestId("subscription-pay") as HTMLButtonElement;
    expect(pay.disabled).toBe(true);
    fireEvent.click(pay);
    expect(sent).toEqual([]);
    fireEvent.click(within(sheet).getByTestId("subscription-refill"));
    await waitFor(() => expect(document.querySelector("[data-screen='refill']")).not.toBeNull());
  });

  it("shows the server's 'Not enough funds' in the sheet, which stays open", async () => {
    setup("50", { status: 409, body: { code: "INSUFFICIENT_FUNDS", message: "Not enough funds" } });
    await renderApp({ path: "/", user: DEMO_USER });
    fireEvent.click(within(await screen.findByTestId("subscription-prompt")).getByTestId("activate-subscription"));
    const sheet = await screen.findByTestId("subscription-sheet");
    await waitFor(() =>
      expect((within(sheet).getByTestId("subscription-pay") as HTMLButtonElement).disabled).toBe(false),
    );
    fireEvent.click(within(sheet).getByTestId("subscription-pay"));
    expect((await within(sheet).findByTestId("form-error")).textContent).toBe("Not enough funds");
    expect(appStore.get(userAtom)?.subscription.active).toBe(false);
  });

  it("'Later' keeps the card away for this user across visits, not for another account", async () => {
    setup("50", paid("2027-01-01T00:00:00.000Z"));
    await renderApp({ path: "/", user: DEMO_USER });
    fireEvent.click(within(await screen.findByTestId("subscription-prompt")).getByTestId("subscription-later"));
    await waitFor(() => expect(screen.queryByTestId("subscription-prompt")).toBeNull());
    cleanup();
    await renderApp({ path: "/", user: DEMO_USER });
    await screen.findByTestId("balance");
    expect(screen.queryByTestId("subscription-prompt")).toBeNull();
    cleanup();
    await renderApp({ path: "/", user: { ...DEMO_USER, id: "u2", login: "other" } });
    await screen.findByTestId("subscription-prompt");
  });

  it("'Later' lasts seven days", () => {
    const now = new Date("2026-11-25T12:00:00.000Z");
    postpone("u9", now);
    expect(isPostponed("u9", new Date("2026-12-02T11:59:00.000Z"))).toBe(true);
    expect(isPostponed("u9", new Date("2026-12-02T12:01:00.000Z"))).toBe(false);
    expect(isPostponed("u10", now)).toBe(false);
  });

  it("Settings names each option with its length and price before anything is tapped", async () => {
    setup("50", paid("2027-01-01T00:00:00.000Z"));
    await renderApp({ path: "/settings/subscription", user: DEMO_USER });
    await waitFor(() => expect(screen.getAllByTestId("subscription-option")).toHaveLength(2));
    const [month, year] = screen.getAllByTestId("subscription-option") as [HTMLElement, HTMLElement];
    expect(month.textContent).toContain("Month");
    expect(month.textContent).toContain("Days: 30");
    expect(within(month).getByTestId("subscription-option-price").textContent).toBe("10.00 USDT");
    expect(year.textContent).toContain("Year");
    expect(within(year).getByTestId("subscription-option-price").getAttribute("data-amount")).toBe("100");
    expect(screen.queryByTestId("subscription-sheet")).toBeNull();
    // The operator has not said what it gives: nothing is made up (the section ends with the options).
    const section = document.querySelector("[data-section='subscription']");
    expect(section?.lastElementChild?.textContent).toContain("Year");
  });

  it("says what a subscription gives in the operator's words, in the investor's language, with the options and in the confirmation", async () => {
    const benefit = {
      en: "Withdrawals reviewed first",
      ru: "Заявки на вывод рассматриваются в первую очередь",
      de: "Auszahlungen werden zuerst geprüft",
      kk: "Шығару өтінімдері бірінші қаралады",
    };
    setup("50", paid("2027-01-01T00:00:00.000Z"), benefit);
    await renderApp({ path: "/settings/subscription", user: DEMO_USER });
    const section = () => document.querySelector("[data-section='subscription']");
    await waitFor(() => expect(section()?.lastElementChild?.textContent).toBe("Withdrawals reviewed first"));
    fireEvent.click(within(screen.getByTestId("subscription-status")).getByTestId("subscription-open"));
    const sheet = await screen.findByTestId("subscription-sheet");
    expect((await within(sheet).findByTestId("subscription-benefit")).textContent).toBe("Withdrawals reviewed first");
  });

  it("Settings shows the status with its end date, and activates through the same confirmation", async () => {
    const sent = setup("50", paid("2027-01-01T00:00:00.000Z"));
    await renderApp({ path: "/settings/subscription", user: DEMO_USER });
    const status = await screen.findByTestId("subscription-status");
    expect(status.textContent).toContain("Not active");
    fireEvent.click(within(status).getByTestId("subscription-open"));
    const sheet = await screen.findByTestId("subscription-sheet");
    await waitFor(() =>
      expect((within(sheet).getByTestId("subscription-pay") as HTMLButtonElement).disabled).toBe(false),
    );
    fireEvent.click(within(sheet).getByTestId("subscription-pay"));
    await within(sheet).findByTestId("form-success");
    expect(sent).toEqual([{ optionId: "month" }]);
    await waitFor(() =>
      expect(screen.getByTestId("subscription-status").textContent).toContain("Active until Jan 1, 2027"),
    );
    expect(within(screen.getByTestId("subscription-status")).getByTestId("subscription-open").textContent).toBe(
      "Extend",
    );
  });
});
