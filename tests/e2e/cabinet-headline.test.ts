/**
 * One number at a glance (issue 37): on a 320 × 640 phone, in every language, the cabinet opens with its one
 * headline, the total of everything held in the investor's current currency, as the server tells it
 * (`GET /user/overview`'s `current`), and Refill and Exchange under it, all inside the viewport without scrolling;
 * the greeting takes at most two lines. Tapping a currency of the list makes it the current one: the headline is
 * then told in it.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "./support/api";
import { type ApiSession, demoSession, gotoInLanguage, screen, useSession } from "./support/app";
import { phoneContext, releaseChromium, sharedChromium } from "./support/browser";
import { settle } from "./support/fit";
import { LANGUAGES, text } from "./support/locales";

/** With E2E_SCREENSHOTS=<dir>: the cabinet's first screen to look at (`cabinet-<lang>-<width>-<light|dark>.png`). */
const SHOTS = process.env.E2E_SCREENSHOTS;

let browser: Browser;
let demo: ApiSession;
/** The demo investor's phone, one page for the file's tests: each opens the cabinet afresh in it. */
let phone: Page;
beforeAll(async () => {
  browser = await sharedChromium();
  demo = await demoSession();
  const context = await phoneContext(browser);
  await useSession(context, demo);
  phone = await context.newPage();
});
afterAll(async () => {
  await releaseChromium(browser);
});

/** The cabinet opened afresh (a new document) in `language`, on a phone of that size and scheme. */
async function openCabinet(
  language: string,
  { width = 320, height = 640, scheme = "light" as "light" | "dark" } = {},
): Promise<Page> {
  const page = phone;
  await page.setViewportSize({ width, height });
  await page.emulateMedia({ colorScheme: scheme });
  await gotoInLanguage(page, "/", language);
  await screen(page, "cabinet");
  await page.locator("[data-testid='overview-total']").waitFor({ timeout: 20_000 });
  return page;
}

/** Where `selector`'s element is, against the viewport, and how far the page is scrolled. */
const boxOf = (page: Page, selector: string) =>
  page.locator(selector).evaluate((el) => {
    const rect = el.getBoundingClientRect();
    return {
      top: rect.top,
      bottom: rect.bottom,
      left: rect.left,
      right: rect.right,
      height: innerHeight,
      width: innerWidth,
      scrolled: scrollY,
    };
  });

describe("the cabinet's headline at 320 × 640", () => {
  for (const language of LANGUAGES)
    it(`shows the server's total in the current currency, Refill and Exchange above the fold, a greeting of two lines at most (${language})`, async () => {
      const page = await openCabinet(language);
      for (const selector of [
        "[data-testid='overview-total']",
        "[data-testid='balance']",
        "[data-testid='amount-on-deposit']",
        "[data-testid='open-refill']",
        "[data-testid='open-exchange']",
      ]) {
        const box = await boxOf(page, selector);
        expect(box.scrolled, selector).toBe(0);
        expect(box.top, `${selector} top`).toBeGreaterThanOrEqual(0);
        expect(box.left, `${selector} left`).toBeGreaterThanOrEqual(0);
        expect(box.right, `${selector} right`).toBeLessThanOrEqual(box.width);
        // Above the tab bar, not only inside the window.
        const tabBar = await page.evaluate(() => {
          const tops = [...document.querySelectorAll("[data-testid='tab-bar'] *")]
            .map((el) => el.getBoundingClientRect())
            .filter((rect) => rect.height > 0)
            .map((rect) => rect.top);
          return Math.min(innerHeight, ...tops);
        });
        expect(box.bottom, `${selector} bottom (tab bar at ${tabBar})`).toBeLessThanOrEqual(
          Math.min(box.height, tabBar),
        );
      }
      // The greeting: the page's one h1, at most two lines, nothing cut.
      expect(await page.locator("h1").count()).toBe(1);
      const greeting = await page.locator("[data-testid='welcome']").evaluate((el) => {
        const lines = new Set([...el.getClientRects()].map((rect) => Math.round(rect.top)));
        const range = document.createRange();
        range.selectNodeContents(el);
        const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
        const h1 = el.closest("h1") as HTMLElement;
        return {
          lines: Math.max(lines.size, tops.size),
          cut: h1.scrollWidth > h1.clientWidth || h1.scrollHeight > h1.clientHeight + 1,
          text: el.textContent,
        };
      });
      expect(greeting.lines, greeting.text ?? "").toBeLessThanOrEqual(2);
      expect(greeting.cut).toBe(false);
      expect(greeting.text).toBe(
        text(language, "cabinet", "welcome").replace(
          "{{login}}",
          (demo.user as { fullName?: string }).fullName || "demo",
        ),
      );
      // The figure is the server's total in the current currency, as it tells it.
      const { current } = await apiCall("overview", { token: demo.token });
      const headline = page.locator("[data-testid='overview-total']");
      expect(await headline.getAttribute("data-amount")).toBe(current.total);
      expect(await headline.getAttribute("data-currency")).toBe(current.currency);
      // The total is the one big figure: the balance's own is beneath it, small.
      expect(await page.locator(".balance-hero-amount").count()).toBe(1);
    });

  it("tapping a currency of the list makes it the current one: the headline is then told in it", async () => {
    const page = await openCabinet("en");
    const { current: before } = await apiCall("overview", { token: demo.token });
    try {
      const rows = page.locator("[data-testid='currency-list'] [data-testid^='currency-option-']");
      const codes = await rows.evaluateAll((all) => all.map((row) => row.getAttribute("data-currency") ?? ""));
      const other = codes.find((code) => code !== before.currency);
      expect(other, `the demo investor holds more than ${before.currency}: ${codes.join(", ")}`).toBeDefined();
      const row = page.locator(`[data-testid='currency-option-${other}']`);
      expect(await row.getAttribute("aria-pressed")).toBe("false");
      await row.click();
      const headline = page.locator("[data-testid='overview-total']");
      await expect.poll(() => headline.getAttribute("data-currency"), { timeout: 10_000 }).toBe(other);
      const { current: after } = await apiCall("overview", { token: demo.token });
      expect(after.currency).toBe(other);
      await expect.poll(() => headline.getAttribute("data-amount"), { timeout: 10_000 }).toBe(after.total);
      expect(await row.getAttribute("aria-pressed")).toBe("true");
      expect(
        await page.locator(`[data-testid='currency-option-${before.currency}']`).getAttribute("aria-pressed"),
      ).toBe("false");
      expect(await page.locator(".balance-hero-label").innerText()).toBe(
        text("en", "cabinet", "overview.total").replace("{{currency}}", other ?? ""),
      );
    } finally {
      // The demo investor as he was, for the worker's other files.
      await apiCall("setBalanceCurrency", { token: demo.token, body: { currency: before.currency } });
    }
  });

  it.runIf(SHOTS)(
    "screenshots: ru and de, 320 × 640 and 390 × 844, light and dark",
    async () => {
      const dir = SHOTS as string;
      mkdirSync(dir, { recursive: true });
      for (const language of ["ru", "de"] as const)
        for (const [width, height] of [
          [320, 640],
          [390, 844],
        ] as const)
          for (const scheme of ["light", "dark"] as const) {
            const page = await openCabinet(language, { width, height, scheme });
            await settle(page);
            await page.screenshot({ path: join(dir, `cabinet-${language}-${width}-${scheme}.png`) });
          }
    },
    600_000,
  );
});
