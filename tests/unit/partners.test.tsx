/** The partners screen: the referral links, totals, bonuses, and the list's search, line and sort sent to the server. */
import type { Bonus, Referral, ReferralsReply } from "@contract";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { telegramReferralLink, telegramShareLink, webReferralLink } from "@/features/partners/model/referral-link";
import { setTelegramBridge } from "@/tma/bridge";
import { DEMO_USER, fakeBridge, renderApp, stubRoutes } from "./test-utils";

const ZERO = { USDT: "0", BTC: "0", ETH: "0", TON: "0" };

function referral(index: number, line = 1): Referral {
  return {
    id: `r${index}`,
    login: `partner${index}`,
    line,
    personalInvestments: { ...ZERO, USDT: String(100 * index) },
    profit: { ...ZERO, USDT: `${index}.5`, TON: index === 1 ? "2" : "0" },
    registeredAt: "2026-01-02T10:00:00.000Z",
  };
}

const TOTALS: ReferralsReply["totals"] = {
  referrals: 3,
  byLine: [
    { line: 1, count: 2, profit: { ...ZERO, USDT: "40" } },
    { line: 2, count: 1, profit: { ...ZERO, USDT: "4.3" } },
    { line: 3, count: 0, profit: ZERO },
  ],
  profit: { ...ZERO, USDT: "44.3" },
  turnover: { ...ZERO, USDT: "1200" },
};

const BONUSES: Bonus[] = [
  {
    index: 1,
    currency: "USDT",
    turnover: "1000",
    award: "10",
    progress: "1200",
    reached: true,
    paid: true,
    paidAt: "2026-01-03T00:00:00.000Z",
  },
  {
    index: 2,
    currency: "USDT",
    turnover: "5000",
    award: "75",
    progress: "1200",
    reached: false,
    paid: false,
    paidAt: null,
  },
  {
    index: 3,
    currency: "USDT",
    turnover: "25000",
    award: "500",
    progress: "1200",
    reached: false,
    paid: false,
    paidAt: null,
  },
  {
    index: 4,
    currency: "USDT",
    turnover: "100000",
    award: "2500",
    progress: "1200",
    reached: false,
    paid: false,
    paidAt: null,
  },
];

function setup(
  items: Referral[] = [referral(1), referral(2), referral(3, 2)],
  invite: Parameters<typeof stubRoutes>[0]["partnerInvite"] = {
    status: 404,
    body: { code: "NOT_FOUND", message: "Not found" },
  },
) {
  const queries: URLSearchParams[] = [];
  stubRoutes({
    partnerInvite: invite,
    setting: (request) =>
      request.url.endsWith("/settings/botUsername")
        ? { body: { key: "botUsername", value: "kassa_bot" } }
        : { status: 404, body: { code: "NOT_FOUND", message: "Not found" } },
    bonus: { body: BONUSES },
    referrals: (request) => {
      const query = new URL(request.url).searchParams;
      queries.push(query);
      return { body: { items, total: items.length, page: 1, limit: 50, totals: TOTALS } };
    },
  });
  return queries;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  setTelegramBridge(null);
});

describe("referral links", () => {
  it("builds the web link from the origin and the Telegram link from the bot's username", () => {
    expect(webReferralLink("https://kassa.example/", "demo")).toBe("https://kassa.example/register/demo");
    expect(telegramReferralLink("@kassa_bot", "demo")).toBe("https://t.me/kassa_bot?startapp=ref_demo");
    expect(telegramShareLink("https://t.me/kassa_bot?startapp=ref_demo", "Join me")).toBe(
      "https://t.me/share/url?url=https%3A%2F%2Ft.me%2Fkassa_bot%3Fstartapp%3Dref_demo&text=Join%20me",
    );
  });

  it("shows both links; copy writes the link, share opens Telegram's share sheet inside Telegram", async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, "clipboard", { configurable: true, value: { writeText } });
    const telegram = fakeBridge();
    setTelegramBridge(telegram.bridge);
    setup();
    await renderApp({ path: "/partners", user: DEMO_USER });
    expect((await screen.findByTestId("referral-link-web")).textContent).toBe(
      `${window.location.origin}/register/demo`,
    );
    expect((await screen.findByTestId("referral-link-telegram")).textContent).toBe(
      "https://t.me/kassa_bot?startapp=ref_demo",
    );
    const [copyWeb] = screen.getAllByTestId("copy-referral-link") as [HTMLElement];
    fireEvent.click(copyWeb);
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/register/demo`));
    expect(telegram.bridge.haptics.impact).toHaveBeenCalled();
    const shareTelegram = screen.getAllByTestId("share-referral-link")[1] as HTMLElement;
    fireEvent.click(shareTelegram);
    expect(telegram.bridge.share).toHaveBeenCalledWith("https://t.me/kassa_bot?startapp=ref_demo", "Join me on Kassa");
    expect(writeText).toHaveBeenCalledTimes(1);
  });

  it("copies instead of sharing in Telegram Web A, which would close the Mini App on a t.me link", async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, "clipboard", { configurable: true, value: { writeText } });
    const telegram = fakeBridge("weba");
    setTelegramBridge(telegram.bridge);
    setup();
    await renderApp({ path: "/partners", user: DEMO_USER });
    await screen.findByTestId("referral-link-telegram");
    fireEvent.click(screen.getAllByTestId("share-referral-link")[1] as HTMLElement);
    await waitFor(() => expect(writeText).toHaveBeenCalledWith("https://t.me/kassa_bot?startapp=ref_demo"));
    expect(telegram.bridge.openTelegramLink).not.toHaveBeenCalled();
  });

  it("inside Telegram 8.0 sends the Telegram link as the bot's prepared invitation, through Telegram's chat picker", async () => {
    const telegram = fakeBridge();
    const sendPreparedMessage = vi.fn(async (_id: string) => "sent" as const);
    Object.assign(telegram.bridge, { sendPreparedMessage });
    setTelegramBridge(telegram.bridge);
    setup(undefined, { body: { preparedMessageId: "prepared-42" } });
    await renderApp({ path: "/partners", user: DEMO_USER });
    await screen.findByTestId("referral-link-telegram");
    fireEvent.click(screen.getAllByTestId("share-referral-link")[1] as HTMLElement);
    await waitFor(() => expect(sendPreparedMessage).toHaveBeenCalledWith("prepared-42"));
    await waitFor(() => expect(telegram.bridge.haptics.notify).toHaveBeenCalledWith("success"));
    expect(telegram.bridge.share).not.toHaveBeenCalled();
    // The web link is not an invitation to the Mini App: it is shared as a link.
    fireEvent.click(screen.getAllByTestId("share-referral-link")[0] as HTMLElement);
    expect(telegram.bridge.share).toHaveBeenCalledWith(`${window.location.origin}/register/demo`, "Join me on Kassa");
    expect(sendPreparedMessage).toHaveBeenCalledTimes(1);
  });

  it("shares the link as before when the server has no invitation to prepare (no bot, not linked to Telegram)", async () => {
    const telegram = fakeBridge();
    const sendPreparedMessage = vi.fn(async (_id: string) => "sent" as const);
    Object.assign(telegram.bridge, { sendPreparedMessage });
    setTelegramBridge(telegram.bridge);
    setup();
    await renderApp({ path: "/partners", user: DEMO_USER });
    await screen.findByTestId("referral-link-telegram");
    fireEvent.click(screen.getAllByTestId("share-referral-link")[1] as HTMLElement);
    await waitFor(() =>
      expect(telegram.bridge.share).toHaveBeenCalledWith(
        "https://t.me/kassa_bot?startapp=ref_demo",
        "Join me on Kassa",
      ),
    );
    expect(sendPreparedMessage).not.toHaveBeenCalled();
  });

  it("shares with the browser's share sheet on the web", async () => {
    const share = vi.fn(async () => {});
    Object.defineProperty(navigator, "share", { configurable: true, value: share });
    setup();
    await renderApp({ path: "/partners", user: DEMO_USER });
    await screen.findByTestId("referral-link-web");
    fireEvent.click(screen.getAllByTestId("share-referral-link")[0] as HTMLElement);
    expect(share).toHaveBeenCalledWith({ url: `${window.location.origin}/register/demo`, text: "Join me on Kassa" });
    Reflect.deleteProperty(navigator, "share");
  });
});

describe("partners table", () => {
  it("lists rows with login, line and profit per currency, the totals per line and the bonuses", async () => {
    setup();
    await renderApp({ path: "/partners", user: DEMO_USER });
    await waitFor(() => expect(screen.getAllByTestId("referral-row")).toHaveLength(3));
    const [first, , third] = screen.getAllByTestId("referral-row") as [HTMLElement, HTMLElement, HTMLElement];
    expect(first.getAttribute("data-login")).toBe("partner1");
    expect(third.getAttribute("data-line")).toBe("2");
    const profit = within(first).getByTestId("referral-profit");
    expect(profit.getAttribute("data-amount")).toBe("1.5");
    expect(profit.getAttribute("data-currency")).toBe("USDT");
    expect(profit.textContent).toBe("1.50 USDT2.0000 TON");
    const totals = await screen.findByTestId("referral-totals");
    expect(within(totals).getByTestId("referral-count").textContent).toBe("3");
    expect(
      within(totals)
        .getAllByTestId("referral-line-total")
        .map((l) => l.textContent),
    ).toEqual(["Level 1Referrals: 240.00 USDT", "Level 2Referrals: 14.30 USDT", "Level 3Referrals: 00.00 USDT"]);
    const bonuses = screen.getAllByTestId("bonus");
    expect(bonuses.map((b) => b.getAttribute("data-reached"))).toEqual(["true", "false", "false", "false"]);
    expect(bonuses[1]?.textContent).toContain("1,200.00 of 5,000.00 USDT");
    expect(bonuses[1]?.textContent).toContain("Award 75.00 USDT");
  });

  it("debounces the login search: one request for what was typed once typing pauses", async () => {
    const queries = setup();
    await renderApp({ path: "/partners", user: DEMO_USER });
    await screen.findAllByTestId("referral-row");
    const before = queries.length;
    const search = document.querySelector("input[name='search']") as HTMLInputElement;
    // Typed in one go (no timer can run between the keystrokes): without the debounce each of them would ask the
    // server. No wall-clock wait is asserted: on a busy machine the debounced call had gone by the end of a 100 ms wait.
    for (const text of ["p", "pa", "par"]) fireEvent.change(search, { target: { value: text } });
    await waitFor(() => expect(queries.at(-1)?.get("search")).toBe("par"));
    expect(queries.slice(before).map((q) => q.get("search"))).toEqual(["par"]);
  });

  it("sends the line filter and the sort with its direction", async () => {
    const queries = setup();
    await renderApp({ path: "/partners", user: DEMO_USER });
    await screen.findAllByTestId("referral-row");
    expect(queries[0]?.get("sort")).toBe("createdAt");
    expect(queries[0]?.get("sortDir")).toBe("desc");
    expect(queries[0]?.has("after")).toBe(false);
    fireEvent.change(document.querySelector("select[name='line']") as HTMLSelectElement, { target: { value: "2" } });
    await waitFor(() => expect(queries.at(-1)?.get("line")).toBe("2"));
    fireEvent.change(document.querySelector("select[name='sort']") as HTMLSelectElement, {
      target: { value: "login" },
    });
    await waitFor(() => expect(queries.at(-1)?.get("sort")).toBe("login"));
    expect(queries.at(-1)?.get("sortDir")).toBe("asc");
    expect(queries.at(-1)?.get("line")).toBe("2");
    fireEvent.click(screen.getByTestId("sort-dir"));
    await waitFor(() => expect(queries.at(-1)?.get("sortDir")).toBe("desc"));
    fireEvent.change(document.querySelector("select[name='sort']") as HTMLSelectElement, {
      target: { value: "profit" },
    });
    await waitFor(() => expect(queries.at(-1)?.get("sort")).toBe("profit"));
  });

  it("asks for the next page after the last member of the page before (keyset paging)", async () => {
    const first = [referral(1), referral(2)];
    const second = [referral(3), referral(4, 2)];
    const queries: URLSearchParams[] = [];
    stubRoutes({
      setting: { status: 404, body: { code: "NOT_FOUND", message: "Not found" } },
      bonus: { body: BONUSES },
      referrals: (request) => {
        const query = new URL(request.url).searchParams;
        queries.push(query);
        const items = query.get("after") === first[1]?.id ? second : first;
        const next = items === first ? (first[1]?.id ?? null) : null;
        return { body: { items, total: 4, page: 1, limit: 50, totals: TOTALS, next } };
      },
    });
    await renderApp({ path: "/partners", user: DEMO_USER });
    await waitFor(() => expect(screen.getAllByTestId("referral-row")).toHaveLength(4));
    expect(queries.map((q) => q.get("after"))).toEqual([null, first[1]?.id]);
  });

  it("renders only the visible part of a long list", async () => {
    setup(Array.from({ length: 2000 }, (_, i) => referral(i + 1)));
    await renderApp({ path: "/partners", user: DEMO_USER });
    await waitFor(() => expect(screen.getAllByTestId("referral-row").length).toBeGreaterThan(0));
    expect(screen.getAllByTestId("referral-row").length).toBeLessThan(60);
  });
});
