/**
 * The long lists in real Chromium against the real server: an investor with 1,000 operations over four days and
 * as many notifications (scripts/lib/long-history.mjs, through the API and the operator's routes), "Show more"
 * tapped until every row is loaded. The operations history and the inbox are virtualised: the rows in the
 * document stay few and flat from tap to tap (not one per row loaded), and scrolling through the list still
 * shows every row, in order, each under the heading of its own day, down to the oldest, which the bottom of the
 * page reaches; a focused row stays focused while it is scrolled away. One `h1` per screen. How long a tap takes
 * is measured by `npm run bench:lists`, not here. With E2E_SCREENSHOTS=<dir>, both lists after a few taps, scrolled
 * to a day's change and to the bottom, light and dark, at 320 px, in de and ru.
 *
 * The seeding moves the development clock (its days are today and the three after it): this file has a server
 * of its own, so the clock of the worker's server, and what its other files see, is not touched.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { longHistoryAmount, seedLongHistory } from "../../scripts/lib/long-history.mjs";
import { phoneContext, releaseChromium, sharedChromium } from "./support/browser";
import { settle } from "./support/fit";
import { type RunningServer, startServer } from "./support/server";

const SHOTS = process.env.E2E_SCREENSHOTS;
const OPERATIONS = 1000;
const DAYS = 4;
/** Rows in the document at most, whatever is loaded: a screen and the overscan either side. */
const ROWS_BOUND = 100;

let browser: Browser;
let server: RunningServer;
let session: Awaited<ReturnType<typeof seedLongHistory>>;

beforeAll(async () => {
  [browser, server] = await Promise.all([sharedChromium(), startServer()]);
  const { token } = JSON.parse(readFileSync(`${server.env.DATA_DIR}.operator.json`, "utf8")) as { token: string };
  session = await seedLongHistory({ base: server.baseURL, operatorToken: token, operations: OPERATIONS, days: DAYS });
}, 600_000);
afterAll(async () => {
  await releaseChromium(browser);
  await server?.stop();
});

async function openList(
  path: string,
  screenName: string,
  row: string,
  options: { as?: typeof session; lng?: string; context?: Parameters<typeof phoneContext>[1] } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const investor = options.as ?? session;
  const context = await phoneContext(browser, options.context);
  await context.addCookies([{ name: "kassa_token", value: investor.token, url: server.baseURL }]);
  await context.addInitScript(
    ([u, lng]) => {
      localStorage.setItem("kassa.user", JSON.stringify(u));
      if (lng) localStorage.setItem("kassa.language", lng);
    },
    [investor.user, options.lng ?? ""] as const,
  );
  const page = await context.newPage();
  await page.goto(`${server.baseURL}${path}`);
  await page.locator(`[data-screen='${screenName}']`).first().waitFor({ timeout: 30_000 });
  await page.locator(row).first().waitFor({ timeout: 30_000 });
  return { context, page };
}

/** Where "Show more" is in the page (its top from the top of the document), or null once every row is loaded. */
const moreTop = (page: Page) =>
  page.evaluate(() => {
    const button = document.querySelector("[data-testid='load-more']");
    return button ? button.getBoundingClientRect().top + window.scrollY : null;
  });

/**
 * Taps "Show more" (scrolled to it, as a thumb would) until the server has no more, each time until the new
 * page is in (the button moved down, or is gone); after each tap, how many rows and elements the document has.
 */
async function loadEverything(page: Page, row: string) {
  const counts: { rows: number; elements: number }[] = [];
  for (let taps = 0; ; taps++) {
    const before = await moreTop(page);
    if (before === null) break;
    expect(taps, "more taps than pages").toBeLessThan(OPERATIONS / 20 + 5);
    await page.locator("[data-testid='load-more']").click();
    await expect.poll(async () => (await moreTop(page)) ?? Number.POSITIVE_INFINITY).toBeGreaterThan(before + 1);
    await settle(page);
    counts.push(
      await page.evaluate(
        (selector) => ({
          rows: document.querySelectorAll(selector).length,
          elements: document.getElementsByTagName("*").length,
        }),
        row,
      ),
    );
  }
  return counts;
}

/** The counts stay bounded and flat: no more rows than ROWS_BOUND, the last tap's elements about the third's. */
function expectFlat(counts: { rows: number; elements: number }[]) {
  expect(counts.length).toBeGreaterThanOrEqual(OPERATIONS / 20 - 1);
  expect(Math.max(...counts.map((c) => c.rows))).toBeLessThan(ROWS_BOUND);
  const early = counts[2] as { elements: number };
  const last = counts.at(-1) as { elements: number };
  expect(last.elements).toBeLessThan(early.elements * 1.15);
}

/**
 * Scrolls the whole page from the top down, a part of a screen at a time, and returns what `read` found in the
 * document at each stop.
 */
async function scrollThrough<T>(page: Page, read: () => T[]): Promise<T[][]> {
  await page.evaluate(() => window.scrollTo(0, 0));
  const stops: T[][] = [];
  for (;;) {
    await page.evaluate(
      () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 0)))),
    );
    stops.push(await page.evaluate(read));
    const moved = await page.evaluate(() => {
      const before = window.scrollY;
      window.scrollBy(0, Math.round(window.innerHeight * 0.75));
      return window.scrollY > before;
    });
    if (!moved) break;
  }
  return stops;
}

describe("long lists: 1,000 rows loaded", () => {
  it("the operations history keeps its rows in the document flat and shows every row under its day", async () => {
    const row = "[data-testid='operation-row']";
    const { context, page } = await openList("/operations", "operations", row);
    expect(await page.locator("h1").count()).toBe(1);

    const counts = await loadEverything(page, row);
    expectFlat(counts);

    // Each stop: the rows rendered, each with its section's day and its own local day.
    const stops = await scrollThrough(page, () =>
      [...document.querySelectorAll<HTMLElement>("[data-testid='operation-row']")].map((el) => {
        const section = el.closest<HTMLElement>("[data-testid='operation-day']");
        const at = new Date(el.querySelector("time")?.getAttribute("datetime") ?? "");
        const pad = (n: number) => String(n).padStart(2, "0");
        return {
          amount: el.getAttribute("data-amount") ?? "",
          section: section?.getAttribute("data-day") ?? "",
          heading: section?.querySelector("h2")?.textContent ?? "",
          day: `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`,
        };
      }),
    );
    const seen = new Map<string, { section: string; heading: string; day: string }>();
    for (const stop of stops) {
      // In the document in order, newest (largest) first.
      const amounts = stop.map((r) => Number(r.amount));
      expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
      for (const r of stop) seen.set(r.amount, r);
    }
    // Every loaded row was shown, each under its own day's heading.
    expect(seen.size).toBe(OPERATIONS);
    for (let i = 0; i < OPERATIONS; i++) expect(seen.has(longHistoryAmount(i)), `row ${i}`).toBe(true);
    const misplaced = [...seen].filter(([, r]) => r.section !== r.day || r.heading.trim() === "");
    expect(misplaced).toEqual([]);
    // Four days, the newest first.
    const days = [...new Set([...seen.values()].map((r) => r.section))];
    expect(days).toEqual([...days].sort().reverse());
    expect(days).toHaveLength(DAYS);

    // At the bottom of the page the oldest row is on the screen.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await settle(page);
    const oldest = page.locator(`${row}[data-amount='${longHistoryAmount(0)}']`);
    await expect.poll(() => oldest.count()).toBe(1);
    const box = await oldest.boundingBox();
    const viewport = page.viewportSize();
    expect(box && viewport && box.y >= 0 && box.y + box.height <= viewport.height).toBe(true);

    // A focused row stays in the document, and focused, while it is scrolled away (and back).
    await page.evaluate(() => window.scrollTo(0, 0));
    await settle(page);
    const first = page.locator(row).first();
    const focusedAmount = await first.getAttribute("data-amount");
    await first.focus();
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await settle(page);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-amount"))).toBe(focusedAmount);
    expect(await page.locator(row).count()).toBeLessThan(ROWS_BOUND);
    expect(await page.locator("h1").count()).toBe(1);
    await context.close();
  }, 600_000);

  it("the inbox keeps its rows in the document flat and shows every notification, newest first", async () => {
    const row = "[data-testid='notification']";
    const { context, page } = await openList("/notifications", "notifications", row);
    expect(await page.locator("h1").count()).toBe(1);

    const counts = await loadEverything(page, row);
    expectFlat(counts);

    // What the server has, newest first, against what scrolling through the list shows.
    const ids: string[] = [];
    for (let after: string | null = null; ; ) {
      const res = await fetch(
        `${server.baseURL}/api/notification/inbox?limit=100${after ? `&after=${encodeURIComponent(after)}` : ""}`,
        { headers: { authorization: `Bearer ${session.token}` } },
      );
      const reply = (await res.json()) as { items: { id: string }[]; next: string | null };
      ids.push(...reply.items.map((n) => n.id));
      after = reply.next;
      if (!after) break;
    }
    expect(ids.length).toBeGreaterThanOrEqual(OPERATIONS);
    const stops = await scrollThrough(page, () =>
      [...document.querySelectorAll("[data-testid='notification']")].map(
        (el) => el.getAttribute("data-notification-id") ?? "",
      ),
    );
    const shown: string[] = [];
    for (const stop of stops) {
      // Each stop's rows are a run of the list, in its order.
      const at = ids.indexOf(stop[0] ?? "");
      expect(stop).toEqual(ids.slice(at, at + stop.length));
      for (const id of stop) if (!shown.includes(id)) shown.push(id);
    }
    expect(shown).toEqual(ids);
    expect(await page.locator("h1").count()).toBe(1);
    await context.close();
  }, 600_000);
});

describe.runIf(SHOTS)("long lists' screenshots", () => {
  it("the history and the inbox after a few taps: light and dark, 320 px, de and ru", async () => {
    const dir = SHOTS as string;
    mkdirSync(dir, { recursive: true });
    const { token } = JSON.parse(readFileSync(`${server.env.DATA_DIR}.operator.json`, "utf8")) as { token: string };
    for (const lng of ["de", "ru"] as const) {
      // The server writes notifications in the investor's language.
      const investor = await seedLongHistory({
        base: server.baseURL,
        operatorToken: token,
        operations: 120,
        days: 2,
        language: lng,
      });
      for (const scheme of ["light", "dark"] as const)
        for (const [path, name, row] of [
          ["/operations", "operations", "[data-testid='operation-row']"],
          ["/notifications", "notifications", "[data-testid='notification']"],
        ] as const) {
          const { context, page } = await openList(path, name, row, {
            as: investor,
            lng,
            context: { viewport: { width: 320, height: 640 }, colorScheme: scheme },
          });
          for (let tap = 0; tap < 3; tap++) {
            const before = (await moreTop(page)) ?? 0;
            await page.locator("[data-testid='load-more']").click();
            await expect
              .poll(async () => (await moreTop(page)) ?? Number.POSITIVE_INFINITY)
              .toBeGreaterThan(before + 1);
          }
          await settle(page);
          // Where one day's rows end and the next day's heading comes (the history), else the middle.
          await page.evaluate(() => {
            const second = document.querySelectorAll<HTMLElement>("[data-testid='operation-day']")[1];
            const top = second ? second.getBoundingClientRect().top + window.scrollY : document.body.scrollHeight / 2;
            window.scrollTo(0, top - window.innerHeight / 2);
          });
          await settle(page);
          await page.screenshot({ path: join(dir, `long-${name}-middle-${scheme}-${lng}.png`) });
          await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
          await settle(page);
          await page.screenshot({ path: join(dir, `long-${name}-bottom-${scheme}-${lng}.png`) });
          await context.close();
        }
    }
  }, 600_000);
});
