/** The notification dialog for unread notifications and the subscription prompt for users without one. */
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { userAtom } from "@/lib/session";
import { appStore } from "@/lib/store";
import { DEMO_USER, type JsonReply, MAINTENANCE_OFF, renderApp, stubApi } from "./test-utils";

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

const NOTE = (id: string, readAt: string | null) => ({
  id,
  kind: "refill_credited",
  title: `Refill ${id}`,
  body: "100 USDT credited",
  createdAt: "2026-01-05T10:00:00.000Z",
  readAt,
});

const OPTIONS = [
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

describe("notification dialog", () => {
  it("shows the unread notifications, marks them read and updates the user object in place", async () => {
    const read: unknown[] = [];
    stubApi({
      "/settings/technical_work": MAINTENANCE_OFF,
      "/notification": { body: { items: [NOTE("a1", null), NOTE("a2", "2026-01-04T00:00:00.000Z")], unread: 1 } },
      "/notification/read": (request) => {
        void request.json().then((b) => read.push(b));
        return { body: { unread: 0 } };
      },
    });
    await renderApp({
      path: "/news",
      user: { ...DEMO_USER, subscription: { active: true, until: null }, notifications: { unread: 1 } },
    });
    const dialog = await screen.findByTestId("notification-dialog");
    expect(
      within(dialog)
        .getAllByTestId("notification")
        .map((n) => n.textContent),
    ).toEqual([expect.stringContaining("Refill a1")]);
    await waitFor(() => expect(read).toEqual([{ ids: ["a1"] }]));
    fireEvent.click(within(dialog).getByTestId("notification-close"));
    await waitFor(() => expect(appStore.get(userAtom)?.notifications.unread).toBe(0));
    await waitFor(() => expect(screen.queryByTestId("notification-dialog")).toBeNull());
  });
});

describe("subscription prompt", () => {
  function setup(reply: JsonReply) {
    const sent: unknown[] = [];
    stubApi({
      "/settings/technical_work": MAINTENANCE_OFF,
      "/settings/subscription/options": { body: OPTIONS },
      "/user/subscription": (request) => {
        void request.json().then((b) => sent.push(b));
        return reply;
      },
    });
    return sent;
  }

  it("says 'Not enough funds' when the balance is short", async () => {
    setup({ status: 409, body: { code: "INSUFFICIENT_FUNDS", message: "Not enough funds" } });
    await renderApp({ path: "/news", user: DEMO_USER });
    const prompt = await screen.findByTestId("subscription-prompt");
    fireEvent.click(within(prompt).getByTestId("activate-subscription"));
    expect((await within(prompt).findByTestId("form-error")).textContent).toBe("Not enough funds");
  });

  it("activates the chosen option, updates the user's subscription in place and goes", async () => {
    const until = "2027-01-01T00:00:00.000Z";
    const sent = setup({
      body: {
        user: { ...DEMO_USER, subscription: { active: true, until } },
        currencies: { USDT: "0", BTC: "0", ETH: "0", TON: "0" },
      },
    });
    await renderApp({ path: "/news", user: DEMO_USER });
    const prompt = await screen.findByTestId("subscription-prompt");
    const year = within(prompt)
      .getAllByTestId("subscription-option")
      .find((o) => o.getAttribute("data-option-id") === "year") as HTMLElement;
    fireEvent.click(year);
    fireEvent.click(within(prompt).getByTestId("activate-subscription"));
    await waitFor(() => expect(appStore.get(userAtom)?.subscription).toEqual({ active: true, until }));
    expect(sent).toEqual([{ optionId: "year" }]);
    await waitFor(() => expect(screen.queryByTestId("subscription-prompt")).toBeNull());
  });
});
