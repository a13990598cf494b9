/**
 * The notification inbox: the header's bell with the unread count, the inbox screen (every notification, unread
 * marked, paged), a tap marking one read and opening the screen it concerns; and the sheet, now only for what
 * arrives while the cabinet is open.
 */
import type { Notification, NotificationsInboxReply } from "@contract";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { unreadBadge } from "@/features/notifications/lib/badge";
import { notificationPath } from "@/features/notifications/lib/target";
import { userAtom } from "@/lib/session";
import { appStore } from "@/lib/store";
import { setTelegramBridge } from "@/tma/bridge";
import { DEMO_USER, fakeBridge, renderApp, showEveryPage, stubRoutes } from "./test-utils";

afterEach(() => {
  setTelegramBridge(null);
  vi.unstubAllGlobals();
  sessionStorage.clear();
  localStorage.clear();
});

const UUID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

function note(n: number, over: Partial<Notification> = {}): Notification {
  return {
    id: UUID(n),
    kind: "refill_credited",
    target: { kind: "refill", id: `r${n}` },
    title: `Refill ${n} credited`,
    body: `${n}.00 USDT has been credited`,
    createdAt: `2026-01-10T10:${String(n).padStart(2, "0")}:00.000Z`,
    readAt: null,
    ...over,
  };
}

const USER = (unread: number) => ({
  ...DEMO_USER,
  subscription: { active: true, until: null },
  notifications: { unread },
});

/** The server's inbox: `items` newest first, paged by `limit` (or `pageSize`) with `after` the last item's id. */
function inboxStub(items: Notification[], reads: string[], pulses: number[] = [], pageSize?: number) {
  const unread = () => items.filter((n) => n.readAt === null).length;
  return stubRoutes({
    pulse: () => ({ body: { version: "1", unread: pulses.shift() ?? unread() } }),
    notificationsInbox: (request) => {
      const url = new URL(request.url);
      const limit = pageSize ?? Number(url.searchParams.get("limit"));
      const after = url.searchParams.get("after");
      const start = after ? items.findIndex((n) => `1.${n.id}` === after) + 1 : 0;
      const page = items.slice(start, start + limit);
      const last = page.at(-1);
      const more = start + limit < items.length && last;
      const body: NotificationsInboxReply = {
        items: page,
        unread: unread(),
        total: items.length,
        next: more ? `1.${last.id}` : null,
      };
      return { body };
    },
    notifications: () => ({ body: { items, unread: unread() } }),
    readNotification: (request) => {
      const id = new URL(request.url).pathname.split("/").at(-2) as string;
      reads.push(id);
      const item = items.find((n) => n.id === id);
      if (item) item.readAt = "2026-02-01T00:00:00.000Z";
      return { body: { unread: unread() } };
    },
    readNotifications: (request) => {
      // Without ids: every one (the inbox's Mark all as read), recorded as "all".
      void request.json().then((b: { ids?: string[] }) => {
        if (!b.ids) reads.push("all");
        for (const item of items) {
          if (b.ids && !b.ids.includes(item.id)) continue;
          if (b.ids) reads.push(item.id);
          item.readAt = "2026-02-01T00:00:00.000Z";
        }
      });
      return { body: { unread: Math.max(0, unread() - 1) } };
    },
    news: { body: [] },
  });
}

describe("notification bell", () => {
  it("counts the unread in its badge and its name; at launch no sheet covers the screen", async () => {
    inboxStub([note(3), note(2), note(1)], []);
    await renderApp({ path: "/news", user: USER(3) });
    const bell = await screen.findByTestId("notification-bell");
    expect(bell.getAttribute("aria-label")).toBe("Notifications, 3 unread");
    expect(bell.dataset.count).toBe("3");
    expect(bell.getAttribute("href")).toBe("/notifications");
    // The pulse comes and keeps the count; nothing pops up over the screen for what was unread at launch.
    await act(() => new Promise((r) => setTimeout(r, 600)));
    expect(screen.queryByTestId("notification-dialog")).toBeNull();
  });

  it("without unread notifications says so without a number", async () => {
    inboxStub([note(1, { readAt: "2026-01-12T00:00:00.000Z" })], []);
    await renderApp({ path: "/news", user: USER(0) });
    const bell = await screen.findByTestId("notification-bell");
    expect(bell.getAttribute("aria-label")).toBe("Notifications");
    expect(bell.dataset.count).toBeUndefined();
  });
});

describe("the bell's badge", () => {
  it("shows nothing at 0, the count up to 99, then 99+", () => {
    expect([0, -1, 1, 99, 100, 1234].map(unreadBadge)).toEqual([undefined, undefined, "1", "99", "99+", "99+"]);
  });
});

describe("inbox", () => {
  it("lists every notification newest first, unread marked; a tap marks it read and opens its screen", async () => {
    const items = [note(3), note(2, { readAt: "2026-01-13T00:00:00.000Z" }), note(1)];
    const reads: string[] = [];
    inboxStub(items, reads);
    const { router } = await renderApp({ path: "/news", user: USER(2) });
    fireEvent.click(await screen.findByTestId("notification-bell"));
    await screen.findByRole("heading", { level: 1, name: "Notifications" });
    await waitFor(() => expect(screen.getAllByTestId("notification")).toHaveLength(3));
    const rows = screen.getAllByTestId("notification");
    expect(rows.map((row) => [row.textContent?.slice(0, 17), row.dataset.unread])).toEqual([
      ["Refill 3 credited", "true"],
      ["Refill 2 credited", "false"],
      ["Refill 1 credited", "true"],
    ]);
    expect(within(rows[0] as HTMLElement).getByText("Unread")).toBeTruthy();

    fireEvent.click(rows[2] as HTMLElement);
    await waitFor(() => expect(router.state.location.pathname).toBe("/refill"));
    expect(router.state.location.search).toBe("?refill=r1");
    await waitFor(() => expect(reads).toEqual([UUID(1)]));
    // The bell follows the server's reply at once.
    await waitFor(() =>
      expect(screen.getByTestId("notification-bell").getAttribute("aria-label")).toBe("Notifications, 1 unread"),
    );
    expect(appStore.get(userAtom)?.notifications.unread).toBe(1);
  });

  it("shows each row's kind by its icon, and a chevron on each, as each opens a screen", async () => {
    inboxStub(
      [
        note(3, { kind: "withdrawals_locked", target: null }),
        note(2, { kind: "wallet_changed", target: { kind: "settings" } }),
        note(1),
      ],
      [],
    );
    await renderApp({ path: "/notifications", user: USER(3) });
    await waitFor(() => expect(screen.getAllByTestId("notification")).toHaveLength(3));
    const rows = screen.getAllByTestId("notification");
    expect(rows.map((row) => row.querySelector("svg")?.closest("[data-icon]")?.getAttribute("data-icon"))).toEqual([
      "withdrawals_locked",
      "wallet_changed",
      "refill_credited",
    ]);
    // Three kinds, three drawings.
    expect(new Set(rows.map((row) => row.querySelector("svg path")?.getAttribute("d"))).size).toBe(3);
    expect(rows.every((row) => within(row).queryByTestId("notification-chevron") !== null)).toBe(true);
  });

  it("Mark all as read marks every one read in one request; the bell and the rows follow and the button goes", async () => {
    const items = [note(3), note(2, { readAt: "2026-01-13T00:00:00.000Z" }), note(1)];
    const reads: string[] = [];
    inboxStub(items, reads);
    await renderApp({ path: "/notifications", user: USER(2) });
    await waitFor(() => expect(screen.getAllByTestId("notification")).toHaveLength(3));
    fireEvent.click(await screen.findByRole("button", { name: "Mark all as read" }));
    await waitFor(() => expect(reads).toEqual(["all"]));
    await waitFor(() =>
      expect(screen.getAllByTestId("notification").map((row) => row.dataset.unread)).toEqual([
        "false",
        "false",
        "false",
      ]),
    );
    await waitFor(() => expect(screen.queryByTestId("notifications-read-all")).toBeNull());
  });

  it("has no Mark all as read when everything is read", async () => {
    inboxStub([note(1, { readAt: "2026-01-12T00:00:00.000Z" })], []);
    await renderApp({ path: "/notifications", user: USER(0) });
    await screen.findByTestId("notification");
    expect(screen.queryByTestId("notifications-read-all")).toBeNull();
  });

  it("a read notification opens its screen without marking it again", async () => {
    const reads: string[] = [];
    inboxStub(
      [note(1, { kind: "deposit_ended", target: { kind: "deposit", id: "d7" }, readAt: "2026-01-12T00:00:00.000Z" })],
      reads,
    );
    const { router } = await renderApp({ path: "/notifications", user: USER(0) });
    fireEvent.click(await screen.findByTestId("notification"));
    await waitFor(() => expect(router.state.location.pathname).toBe("/deposits"));
    expect(router.state.location.search).toBe("?deposit=d7");
    expect(reads).toEqual([]);
  });

  it("pages as the server does: Show more asks for the next page after the last one", async () => {
    const items = Array.from({ length: 25 }, (_, i) => note(25 - i, { readAt: "2026-01-01T00:00:00.000Z" }));
    const fetchMock = inboxStub(items, []);
    await renderApp({ path: "/notifications", user: USER(0) });
    await waitFor(() => expect(screen.getAllByTestId("notification")).toHaveLength(20));
    fireEvent.click(screen.getByTestId("load-more"));
    await waitFor(() => expect(screen.getAllByTestId("notification")).toHaveLength(25));
    const asked = fetchMock.mock.calls
      .map(([input]) => new URL(String(input), "http://localhost"))
      .filter((url) => url.pathname.endsWith("/notification/inbox"))
      .map((url) => url.search);
    expect(asked).toEqual(["?limit=20", `?limit=20&after=1.${UUID(6)}`]);
    expect(screen.queryByTestId("load-more")).toBeNull();
  });

  it("keeps a bounded number of rows in the document with a thousand loaded, a list of a thousand to screen readers", async () => {
    // A thousand, four pages of 250; jsdom lays nothing out, so each row keeps its estimated height.
    const items = Array.from({ length: 1000 }, (_, i) =>
      note(1000 - i, {
        readAt: "2026-01-01T00:00:00.000Z",
        createdAt: new Date(Date.UTC(2026, 0, 10) - i * 60_000).toISOString(),
      }),
    );
    inboxStub(items, [], [], 250);
    await renderApp({ path: "/notifications", user: USER(0) });
    const list = await screen.findByTestId("notification-list");
    // The list's box is as tall as every row loaded.
    const height = () => Number.parseFloat(list.style.height);
    await showEveryPage(height, 4);
    const rows = screen.getAllByTestId("notification");
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(60);
    const places = within(list)
      .getAllByRole("listitem")
      .map((item) => [item.getAttribute("aria-posinset"), item.getAttribute("aria-setsize")]);
    expect(places[0]).toEqual(["1", "1000"]);
    expect(places.every(([, size]) => size === "1000")).toBe(true);

    // The focused row stays in the document while the list scrolls far past it; the rows there come in.
    const first = rows[0] as HTMLElement;
    act(() => first.focus());
    const scrollY = Object.getOwnPropertyDescriptor(window, "scrollY");
    try {
      Object.defineProperty(window, "scrollY", { configurable: true, value: 500 * 84 });
      fireEvent.scroll(window);
      await waitFor(() =>
        expect(
          within(list)
            .getAllByRole("listitem")
            .map((item) => Number(item.getAttribute("aria-posinset"))),
        ).toContain(501),
      );
      const shown = within(list)
        .getAllByRole("listitem")
        .map((item) => Number(item.getAttribute("aria-posinset")));
      expect(shown[0]).toBe(1);
      expect(shown.length).toBeLessThan(70);
      expect(document.activeElement).toBe(first);
    } finally {
      if (scrollY) Object.defineProperty(window, "scrollY", scrollY);
      else delete (window as { scrollY?: number }).scrollY;
    }
  });
});

describe("where a notification leads", () => {
  it("opens the screen of its target, else of its kind; an unknown kind opens nothing", () => {
    const n = (kind: string, target: Notification["target"]) => ({ kind, target }) as Notification;
    expect(notificationPath(n("refill_credited", { kind: "refill", id: "r1" }))).toBe("/refill?refill=r1");
    expect(notificationPath(n("refill_rejected", null))).toBe("/refill");
    expect(notificationPath(n("withdrawal_status", { kind: "withdrawal", id: "w1" }))).toBe(
      "/withdrawal?application=w1",
    );
    expect(notificationPath(n("withdrawals_locked", null))).toBe("/withdrawal");
    expect(notificationPath(n("deposit_ended", { kind: "deposit", id: "d1" }))).toBe("/deposits?deposit=d1");
    expect(notificationPath(n("verification_success", { kind: "settings" }))).toBe("/settings");
    expect(notificationPath(n("verification_denied", undefined))).toBe("/settings");
    expect(notificationPath(n("subscription_activated", null))).toBe("/settings");
    expect(notificationPath(n("wallet_changed", { kind: "settings" }))).toBe("/settings");
    expect(notificationPath(n("something_new", null))).toBeUndefined();
  });
});

describe("notification sheet", () => {
  it("shows what arrives while the cabinet is open, marks it read, and the bell counts the rest", async () => {
    const items = [note(1)];
    const reads: string[] = [];
    // The first pulse sees the one unread at launch; a later one sees a second.
    inboxStub(items, reads, [1, 2, 2, 2, 2, 2]);
    await renderApp({ path: "/news", user: USER(1) });
    await screen.findByTestId("notification-bell");
    await act(() => new Promise((r) => setTimeout(r, 300)));
    expect(screen.queryByTestId("notification-dialog")).toBeNull();
    items.unshift(note(2));
    const dialog = await screen.findByTestId("notification-dialog");
    expect(
      within(dialog)
        .getAllByTestId("notification")
        .map((row) => row.dataset.kind),
    ).toEqual(["refill_credited"]);
    expect(within(dialog).getByText("Refill 2 credited")).toBeTruthy();
    await waitFor(() => expect(reads).toEqual([UUID(2)]));
    fireEvent.click(within(dialog).getByTestId("notification-close"));
    await waitFor(() => expect(screen.queryByTestId("notification-dialog")).toBeNull());
    await waitFor(() =>
      expect(screen.getByTestId("notification-bell").getAttribute("aria-label")).toBe("Notifications, 1 unread"),
    );
  });
});

describe("a screen's header", () => {
  it("titles the screen with its one h1; on the web a screen under More has a Back link, in Telegram not", async () => {
    inboxStub([], []);
    const { router } = await renderApp({ path: "/news", user: USER(0) });
    const title = await screen.findByRole("heading", { level: 1 });
    expect(title.textContent).toBe("News");
    const back = screen.getByTestId("page-back");
    expect(back.textContent).toBe("Back");
    // Opened directly, it leads to the screen above.
    expect(back.getAttribute("href")).toBe("/more");
    fireEvent.click(back);
    await waitFor(() => expect(router.state.location.pathname).toBe("/more"));
    await screen.findByRole("heading", { level: 1, name: "More" });
    // A top-level screen has none.
    expect(screen.queryByTestId("page-back")).toBeNull();
  });

  it("inside Telegram leaves the way back to Telegram's Back button", async () => {
    setTelegramBridge(fakeBridge().bridge);
    inboxStub([], []);
    await renderApp({ path: "/news", user: USER(0) });
    await screen.findByRole("heading", { level: 1, name: "News" });
    expect(screen.queryByTestId("page-back")).toBeNull();
    expect(screen.getByTestId("notification-bell")).toBeTruthy();
  });
});
