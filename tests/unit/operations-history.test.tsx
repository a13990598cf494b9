/**
 * The history that explains itself and the statement: a cancelled withdrawal's return is its own entry,
 * rows sit under a heading per day, a row's sheet links its transaction to the network's block explorer
 * and states the exchange rate at about six significant digits; "Download statement" saves the CSV on the
 * web and hands Telegram a signed link inside it.
 */
import type { Operation, PaymentSystem, Withdrawal } from "@contract";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setLanguage } from "@/config/i18n";
import { setTelegramBridge } from "@/tma/bridge";
import { aPaymentSystem } from "./fixtures";
import { DEMO_USER, fakeBridge, type RouteReply, renderApp, showEveryPage, stubRoutes } from "./test-utils";

/** An instant on a local calendar day (the history groups by the user's own days). */
const at = (year: number, month: number, day: number, hour: number) =>
  new Date(year, month - 1, day, hour).toISOString();
const now = new Date();
const today = (hour: number) => at(now.getFullYear(), now.getMonth() + 1, now.getDate(), hour);

const SYSTEM: PaymentSystem = aPaymentSystem({
  name: "USDT TRC-20",
  network: "TRC-20",
  maxWithdrawal: "10000",
  explorerUrl: "https://tronscan.org/#/transaction/{tx}",
});

const WITHDRAWAL: Withdrawal = {
  id: "w1",
  status: "success",
  awaitingCode: false,
  paymentSystemId: "usdt-trc20",
  currency: "USDT",
  network: "TRC-20",
  wallet: "TXyz",
  amount: "20",
  fee: "0.2",
  amountToReceive: "19.8",
  txHash: "ab12/cd",
  createdAt: today(1),
  processedAt: today(2),
};

function historyApi(operations: Operation[], extra: Parameters<typeof stubRoutes>[0] = {}) {
  return stubRoutes({
    operations: { body: { items: operations, total: operations.length, page: 1, limit: 20, next: null } },
    paymentSystems: { body: [SYSTEM] },
    ...extra,
  });
}

// Put back after each test: a test replaces them to read what the page saved.
const objectUrls = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };

const rows = () => screen.getAllByTestId("operation-row");

afterEach(() => {
  setTelegramBridge(null);
  URL.createObjectURL = objectUrls.create;
  URL.revokeObjectURL = objectUrls.revoke;
});

describe("the history", () => {
  it("shows a cancelled withdrawal's return as its own entry, each kind with its icon", async () => {
    historyApi([
      {
        id: "o2",
        type: "withdrawal_return",
        currency: "USDT",
        amount: "20",
        createdAt: today(3),
        details: { withdrawalId: "w9", paymentSystemId: "usdt-trc20", withdrawalOutcome: "cancelled" },
      },
      {
        id: "o1",
        type: "withdrawal",
        currency: "USDT",
        amount: "-20",
        createdAt: today(2),
        details: { withdrawalId: "w9", paymentSystemId: "usdt-trc20" },
      },
    ]);
    await renderApp({ path: "/operations", user: DEMO_USER });
    await waitFor(() => expect(rows()).toHaveLength(2));
    const [back, out] = rows() as [HTMLElement, HTMLElement];
    expect(back.textContent).toContain("Withdrawal cancelled · returned");
    expect(back.textContent).toContain("+20.00 USDT");
    expect(back.querySelector("[data-icon]")?.getAttribute("data-icon")).toBe("withdrawal_return");
    expect(out.textContent).toContain("Withdrawal");
    expect(out.textContent).not.toContain("returned");
    expect(out.querySelector("[data-icon]")?.getAttribute("data-icon")).toBe("withdrawal");
  });

  it("names a return by why the money came back: rejected, failed, cancelled or its code expired, never a rejection as a cancellation", async () => {
    const back = (id: string, outcome: "rejected" | "error" | "cancelled" | "expired", at: number) => ({
      id,
      type: "withdrawal_return" as const,
      currency: "USDT" as const,
      amount: "20",
      createdAt: today(at),
      details: { withdrawalId: `w-${id}`, paymentSystemId: "usdt-trc20", withdrawalOutcome: outcome },
    });
    historyApi([
      back("o4", "rejected", 4),
      back("o3", "error", 3),
      back("o2", "cancelled", 2),
      back("o1", "expired", 1),
    ]);
    await renderApp({ path: "/operations", user: DEMO_USER });
    await waitFor(() => expect(rows()).toHaveLength(4));
    const [rejected, failed, cancelled, expired] = rows() as [HTMLElement, HTMLElement, HTMLElement, HTMLElement];
    expect(rejected.textContent).toContain("Withdrawal rejected · returned");
    expect(failed.textContent).toContain("Withdrawal failed · returned");
    expect(cancelled.textContent).toContain("Withdrawal cancelled · returned");
    expect(expired.textContent).toContain("Withdrawal code expired · returned");
  });

  it("groups rows by the user's day under a heading: Today, then older days by date", async () => {
    const lastYear = now.getFullYear() - 1;
    historyApi([
      { id: "o4", type: "accrual", currency: "USDT", amount: "1", createdAt: today(23) },
      { id: "o3", type: "accrual", currency: "USDT", amount: "1", createdAt: today(0) },
      { id: "o2", type: "refill", currency: "USDT", amount: "100", createdAt: at(lastYear, 3, 3, 23) },
      { id: "o1", type: "plan", currency: "USDT", amount: "-50", createdAt: at(lastYear, 3, 3, 0) },
      { id: "o0", type: "refill", currency: "USDT", amount: "50", createdAt: at(lastYear, 3, 2, 12) },
    ]);
    await renderApp({ path: "/operations", user: DEMO_USER });
    await waitFor(() => expect(screen.getAllByTestId("operation-day")).toHaveLength(3));
    const days = screen.getAllByTestId("operation-day");
    const heading = (day: HTMLElement) => day.querySelector("h2")?.textContent;
    expect(days.map(heading)).toEqual(["Today", `March 3, ${lastYear}`, `March 2, ${lastYear}`]);
    expect(
      days.map((day) =>
        within(day)
          .getAllByTestId("operation-row")
          .map((r) => r.dataset.operationId),
      ),
    ).toEqual([["o4", "o3"], ["o2", "o1"], ["o0"]]);
  });

  it("heads the days in the user's language", async () => {
    historyApi([{ id: "o1", type: "refill", currency: "USDT", amount: "5", createdAt: at(2025, 3, 3, 12) }]);
    await renderApp({ path: "/operations", user: DEMO_USER });
    // As Settings switches it: the app's own call, which also moves the language its formatters read (i18next's
    // changeLanguage alone left them in the language of an earlier test once).
    await act(() => setLanguage("de"));
    await waitFor(() =>
      expect(screen.getByTestId("operation-day").querySelector("h2")?.textContent).toBe("3. März 2025"),
    );
  });

  it("links a withdrawal's transaction to its network's explorer, opened by Telegram", async () => {
    const fake = fakeBridge();
    setTelegramBridge(fake.bridge);
    historyApi(
      [
        {
          id: "o1",
          type: "withdrawal",
          currency: "USDT",
          amount: "-20",
          createdAt: today(2),
          details: { withdrawalId: "w1", paymentSystemId: "usdt-trc20" },
        },
      ],
      { withdrawal: { body: WITHDRAWAL } },
    );
    await renderApp({ path: "/operations", user: DEMO_USER });
    await waitFor(() => expect(rows()).toHaveLength(1));
    fireEvent.click(rows()[0] as HTMLElement);
    const sheet = await screen.findByTestId("operation-details");
    const link = await within(sheet).findByTestId("operation-details-explorer");
    expect(link.getAttribute("href")).toBe("https://tronscan.org/#/transaction/ab12%2Fcd");
    expect(within(sheet).getByTestId("operation-details-tx-hash").textContent).toBe("ab12/cd");
    expect(within(sheet).getByTestId("operation-details-status").textContent).toBe("Paid out");
    fireEvent.click(link);
    expect(fake.bridge.openLink).toHaveBeenCalledWith("https://tronscan.org/#/transaction/ab12%2Fcd");
    // The row opens what it belongs to: the withdrawal's own screen.
    expect(within(sheet).getByTestId("operation-details-open").textContent).toBe("Go to the withdrawal");
  });

  it("says nothing of an explorer the operator has not set", async () => {
    historyApi(
      [
        {
          id: "o1",
          type: "withdrawal",
          currency: "USDT",
          amount: "-20",
          createdAt: today(2),
          details: { withdrawalId: "w1", paymentSystemId: "usdt-trc20" },
        },
      ],
      { withdrawal: { body: WITHDRAWAL }, paymentSystems: { body: [{ ...SYSTEM, explorerUrl: null }] } },
    );
    await renderApp({ path: "/operations", user: DEMO_USER });
    await waitFor(() => expect(rows()).toHaveLength(1));
    fireEvent.click(rows()[0] as HTMLElement);
    const sheet = await screen.findByTestId("operation-details");
    await within(sheet).findByTestId("operation-details-tx-hash");
    expect(within(sheet).queryByTestId("operation-details-explorer")).toBeNull();
  });

  it("keeps the sheet when what the operation belongs to cannot be read (a server fault)", async () => {
    let asked = 0;
    historyApi(
      [
        {
          id: "o1",
          type: "withdrawal_return",
          currency: "USDT",
          amount: "20",
          createdAt: today(2),
          details: { withdrawalId: "w1", paymentSystemId: "usdt-trc20" },
        },
      ],
      {
        withdrawal: () => {
          asked += 1;
          return { status: 500, body: { code: "INTERNAL", message: "Internal error" } };
        },
      },
    );
    await renderApp({ path: "/operations", user: DEMO_USER });
    await waitFor(() => expect(rows()).toHaveLength(1));
    fireEvent.click(rows()[0] as HTMLElement);
    const sheet = await screen.findByTestId("operation-details");
    // The query's first try and its two retries have failed; the screen has had the moment to answer.
    await waitFor(() => expect(asked).toBe(3));
    await act(() => new Promise((resolve) => setTimeout(resolve, 200)));
    expect(screen.getByTestId("operation-details")).toBe(sheet);
    expect(within(sheet).getByTestId("operation-details-id").textContent).toBe("o1");
    expect(within(sheet).queryByTestId("operation-details-open")).toBeNull();
    expect(screen.getAllByTestId("operation-row")).toHaveLength(1);
  });

  it("opens a deposit's operation on the deposit", async () => {
    historyApi([
      {
        id: "o1",
        type: "accrual",
        currency: "USDT",
        amount: "1.5",
        createdAt: today(2),
        details: { depositId: "d7", days: 1 },
      },
    ]);
    const { router } = await renderApp({ path: "/operations", user: DEMO_USER });
    await waitFor(() => expect(rows()).toHaveLength(1));
    fireEvent.click(rows()[0] as HTMLElement);
    fireEvent.click(await screen.findByTestId("operation-details-open"));
    await waitFor(() =>
      expect(`${router.state.location.pathname}${router.state.location.search}`).toBe("/deposits?deposit=d7"),
    );
  });

  it("states an exchange's rate at about six significant digits", async () => {
    historyApi([
      {
        id: "o1",
        type: "exchange",
        currency: "TON",
        amount: "18.181818181",
        createdAt: today(2),
        details: { exchange: { from: "USDT", to: "TON", debited: "100", received: "18.181818181" } },
      },
    ]);
    await renderApp({ path: "/operations", user: DEMO_USER });
    await waitFor(() => expect(rows()).toHaveLength(1));
    fireEvent.click(rows()[0] as HTMLElement);
    const rate = await screen.findByTestId("operation-details-rate");
    expect(rate.textContent).toBe("1 USDT = 0.181818 TON");
  });
});

describe("a long history", () => {
  it("keeps a bounded number of rows in the document with a thousand loaded, each day a list of its size", async () => {
    // A thousand operations, one every 15 minutes (96 a day) back from now, in four pages of 250.
    const start = now.getTime();
    const operations: Operation[] = Array.from({ length: 1000 }, (_, i) => ({
      id: `op-${i}`,
      type: "accrual",
      currency: "USDT",
      amount: "1",
      createdAt: new Date(start - i * 15 * 60_000).toISOString(),
    }));
    historyApi([], {
      operations: (request) => {
        const after = new URL(request.url).searchParams.get("after");
        const from = after ? operations.findIndex((o) => o.id === after) + 1 : 0;
        const items = operations.slice(from, from + 250);
        const next = from + 250 < operations.length ? (items.at(-1)?.id ?? null) : null;
        return { body: { items, total: operations.length, page: 1, limit: 20, next } };
      },
    });
    await renderApp({ path: "/operations", user: DEMO_USER });
    const list = await screen.findByTestId("operations-list");
    const box = () => list.querySelector<HTMLElement>(".window-list");
    // The history's box is as tall as every line loaded.
    const height = () => Number.parseFloat(box()?.style.height ?? "0");
    await showEveryPage(height, 4);
    expect(rows().length).toBeGreaterThan(5);
    expect(rows().length).toBeLessThan(60);
    // Every day shown is a section under its heading, its rows a list: each row's place in the day, the day's size
    // (a day of which only the heading is about the screen has no list yet).
    const days = screen.getAllByTestId("operation-day");
    const dayOf = (o: Operation) => new Date(o.createdAt).toDateString();
    expect(days.filter((day) => within(day).queryAllByRole("listitem").length > 0).length).toBeGreaterThan(0);
    for (const day of days) {
      expect(day.querySelector("h2")?.textContent).toBeTruthy();
      const items = within(day).queryAllByRole("listitem");
      if (items.length === 0) {
        expect(within(day).queryByRole("list")).toBeNull();
        continue;
      }
      const ids = items.map((item) => within(item).getByTestId("operation-row").dataset.operationId);
      const first = operations.find((o) => o.id === ids[0]) as Operation;
      const sameDay = operations.filter((o) => dayOf(o) === dayOf(first));
      for (const [k, item] of items.entries()) {
        expect(item.getAttribute("aria-setsize")).toBe(String(sameDay.length));
        expect(item.getAttribute("aria-posinset")).toBe(String(sameDay.findIndex((o) => o.id === ids[k]) + 1));
      }
    }
  });
});

/** The statement's CSV as the server answers it, and everything the page asked for. */
function statementApi(reply: (url: URL) => Response) {
  const answer = historyApi([]);
  const asked: URL[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), "http://localhost");
      if (url.pathname.endsWith("/user/operations/statement")) {
        asked.push(url);
        expect(new Headers(init?.headers).get("Authorization")).toBe("Bearer token-1");
        return reply(url);
      }
      return answer(input, init);
    }),
  );
  return asked;
}

const CSV = "\uFEFFdate,operation_id\r\n2026-11-02T10:00:00.000Z,o1\r\n";

async function openStatement() {
  await renderApp({ path: "/operations", user: DEMO_USER });
  fireEvent.click(await screen.findByTestId("statement-open"));
  return screen.findByTestId("statement-sheet");
}

function setDate(sheet: HTMLElement, name: "from" | "to", value: string) {
  fireEvent.change(sheet.querySelector(`input[name='${name}']`) as HTMLInputElement, { target: { value } });
}

describe("the statement", () => {
  it("on the web fetches the period's CSV with the session and saves it under the server's name", async () => {
    const asked = statementApi(
      () =>
        new Response(CSV, {
          headers: {
            "Content-Type": "text/csv; charset=utf-8",
            "Content-Disposition": 'attachment; filename="kassa-statement-2026-10-01-2026-10-31-BTC.csv"',
          },
        }),
    );
    const saved: { name: string; href: string; blob?: Blob }[] = [];
    const blobs = new Map<string, Blob>();
    // These hold the saved Blob for the test to read.
    URL.createObjectURL = (blob: Blob) => {
      const href = `blob:test/${blobs.size}`;
      blobs.set(href, blob);
      return href;
    };
    URL.revokeObjectURL = () => undefined;
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, href: this.href, blob: blobs.get(this.href) });
    });
    const sheet = await openStatement();
    // This month by default.
    const first = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}-01`;
    expect((sheet.querySelector("input[name='from']") as HTMLInputElement).value).toBe(first);
    setDate(sheet, "from", "2026-10-01");
    setDate(sheet, "to", "2026-10-31");
    fireEvent.change(sheet.querySelector("select[name='currency']") as HTMLSelectElement, { target: { value: "BTC" } });
    fireEvent.click(within(sheet).getByTestId("statement-submit"));
    await within(sheet).findByTestId("form-success");
    expect(asked).toHaveLength(1);
    expect(Object.fromEntries((asked[0] as URL).searchParams)).toEqual({
      from: "2026-10-01",
      to: "2026-10-31",
      currency: "BTC",
    });
    expect(saved).toHaveLength(1);
    expect(saved[0]?.name).toBe("kassa-statement-2026-10-01-2026-10-31-BTC.csv");
    expect(await saved[0]?.blob?.text()).toBe(CSV.slice(1));
    expect(within(sheet).getByTestId("form-success").textContent).toBe(
      "The statement has been saved to your downloads",
    );
  });

  it("two submits in one go (a double tap on Telegram's Main button) ask for one statement", async () => {
    const asked = statementApi(() => new Response(CSV, { headers: { "Content-Type": "text/csv; charset=utf-8" } }));
    URL.createObjectURL = () => "blob:test/0";
    URL.revokeObjectURL = () => undefined;
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => undefined);
    const sheet = await openStatement();
    setDate(sheet, "from", "2026-10-01");
    setDate(sheet, "to", "2026-10-31");
    const form = sheet.querySelector("form") as HTMLFormElement;
    act(() => {
      form.requestSubmit();
      form.requestSubmit();
    });
    await within(sheet).findByTestId("form-success");
    expect(asked).toHaveLength(1);
  });

  it("says the catalogue's words for a period over a year and for too many statements, keeping the dates", async () => {
    let reply = new Response(
      JSON.stringify({ code: "VALIDATION_FAILED", message: "Invalid", fields: { "query.to": "periodTooLong" } }),
      { status: 400, headers: { "Content-Type": "application/json" } },
    );
    statementApi(() => reply);
    const sheet = await openStatement();
    setDate(sheet, "from", "2024-01-01");
    setDate(sheet, "to", "2025-12-31");
    fireEvent.click(within(sheet).getByTestId("statement-submit"));
    await waitFor(() =>
      expect(sheet.querySelector("[data-field-error='to']")?.textContent).toBe(
        "The period can be at most a year (366 days)",
      ),
    );
    expect((sheet.querySelector("input[name='from']") as HTMLInputElement).value).toBe("2024-01-01");
    expect((sheet.querySelector("input[name='to']") as HTMLInputElement).value).toBe("2025-12-31");

    reply = new Response(JSON.stringify({ code: "RATE_LIMITED", message: "Repeat the request in a few minutes" }), {
      status: 429,
      headers: { "Content-Type": "application/json", "Retry-After": "600" },
    });
    setDate(sheet, "to", "2024-12-31");
    fireEvent.click(within(sheet).getByTestId("statement-submit"));
    expect((await within(sheet).findByTestId("form-error")).textContent).toBe("Repeat the request in a few minutes");
    expect((sheet.querySelector("input[name='to']") as HTMLInputElement).value).toBe("2024-12-31");
  });

  it("on the web a session that has ended leads to sign-in, as any call does", async () => {
    const asked = statementApi(
      () =>
        new Response(JSON.stringify({ code: "UNAUTHORIZED", message: "Unauthorized" }), {
          status: 401,
          headers: { "Content-Type": "application/json" },
        }),
    );
    const { router } = await renderApp({ path: "/operations", user: DEMO_USER });
    fireEvent.click(await screen.findByTestId("statement-open"));
    const sheet = await screen.findByTestId("statement-sheet");
    fireEvent.click(within(sheet).getByTestId("statement-submit"));
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
    expect(new URLSearchParams(router.state.location.search).get("next")).toBe("/operations");
    expect(asked.length).toBeGreaterThanOrEqual(1);
  });

  it("in Telegram asks for the signed link and hands it to the client's download prompt", async () => {
    const fake = fakeBridge();
    const downloadFile = vi.fn(async (_url: string, _name: string) => "downloading" as const);
    setTelegramBridge({ ...fake.bridge, downloadFile });
    const bodies: unknown[] = [];
    const link: (request: Request) => RouteReply<"statementLink"> = () => ({
      body: { url: "/user/operations/statement/file?link=signed.abc", expiresAt: "2026-11-25T12:05:00.000Z" },
    });
    const answer = historyApi([], { statementLink: link });
    vi.stubGlobal(
      "fetch",
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = new URL(String(input), "http://localhost");
        if (url.pathname.endsWith("/statement/link")) bodies.push(JSON.parse(String(init?.body)));
        expect(url.pathname.endsWith("/user/operations/statement")).toBe(false);
        return answer(input, init);
      }),
    );
    const sheet = await openStatement();
    setDate(sheet, "from", "2026-10-01");
    setDate(sheet, "to", "2026-10-31");
    // Inside Telegram the form's submit is the Main button.
    act(() => fake.pressMain());
    await waitFor(() => expect(downloadFile).toHaveBeenCalledTimes(1));
    expect(bodies).toEqual([{ from: "2026-10-01", to: "2026-10-31" }]);
    const [url, name] = downloadFile.mock.calls[0] as [string, string];
    expect(new URL(url).pathname).toMatch(/\/user\/operations\/statement\/file$/);
    expect(new URL(url).searchParams.get("link")).toBe("signed.abc");
    expect(name).toBe("kassa-statement-2026-10-01-2026-10-31.csv");
    expect(fake.bridge.openLink).not.toHaveBeenCalled();
  });

  it("in Telegram says nothing was saved when the user declines the client's prompt", async () => {
    const fake = fakeBridge();
    let answer: (value: "downloading" | "cancelled") => void = () => {};
    const downloadFile = vi.fn(
      (_url: string, _name: string) => new Promise<"downloading" | "cancelled">((resolve) => (answer = resolve)),
    );
    setTelegramBridge({ ...fake.bridge, downloadFile });
    historyApi([], {
      statementLink: {
        body: { url: "/user/operations/statement/file?link=signed.abc", expiresAt: "2026-11-25T12:05:00.000Z" },
      },
    });
    const sheet = await openStatement();
    setDate(sheet, "from", "2026-10-01");
    setDate(sheet, "to", "2026-10-31");
    act(() => fake.pressMain());
    await waitFor(() => expect(downloadFile).toHaveBeenCalledTimes(1));
    // The client answers `cancelled` (file_download_requested): no "offers to save", no success haptic.
    act(() => answer("cancelled"));
    await waitFor(() =>
      expect(fake.bridge.mainButton.set.mock.calls.at(-1)?.[0]).toMatchObject({ isLoaderVisible: false }),
    );
    expect(sheet.textContent).not.toMatch(/offers to save/i);
    expect(fake.bridge.haptics.notify).not.toHaveBeenCalledWith("success");
    expect(fake.bridge.openLink).not.toHaveBeenCalled();
  });

  it("in a Telegram client without the download prompt opens the signed link", async () => {
    const fake = fakeBridge();
    setTelegramBridge({ ...fake.bridge, downloadFile: async () => false });
    historyApi([], {
      statementLink: {
        body: { url: "/user/operations/statement/file?link=signed.abc", expiresAt: "2026-11-25T12:05:00.000Z" },
      },
    });
    const sheet = await openStatement();
    act(() => fake.pressMain());
    await waitFor(() => expect(fake.bridge.openLink).toHaveBeenCalledTimes(1));
    expect(String(fake.bridge.openLink.mock.calls[0]?.[0])).toMatch(
      /\/user\/operations\/statement\/file\?link=signed\.abc$/,
    );
    expect((await within(sheet).findByTestId("form-success")).textContent).toBe(
      "The statement has opened in your browser",
    );
  });
});
