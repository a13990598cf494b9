/**
 * The login's header (mark, name, tagline: its largest text) is painted by the launcher before the app's code has
 * come (src/app/launcher/paint.ts, `paintLoginEarly`), where and as the app then shows it: the app's render adds no
 * larger paint (the largest paint stays the painted one), shifts nothing, and the code is asked for at once, before it.
 *
 * The login holds still while it fills in: with Telegram sign-in on (the default), the web login offers to open
 * the bot's Mini App in a cell below the form, which needs the flag and the bot's name from the server. The cell's
 * room is kept from the first paint, so its arrival does not push the registration links and the language below
 * it down (it did by 0.049, Lighthouse's CLS 0.048, a few points of the login's score).
 */
import type { Browser } from "playwright-core";
import { describe, expect, it } from "vitest";
import { base } from "./support/app";
import { chromiumForFile, layoutShifts, phoneContext, recordLayoutShifts } from "./support/browser";
import { CODE_AND_STYLES, hold } from "./support/early-paint";
import { text } from "./support/locales";

/** Nothing on screen moves: what is left is rounding, far below Lighthouse's 0.1. */
const MAX_SHIFT = 0.005;

let browser: Browser;
chromiumForFile((shared) => {
  browser = shared;
});

describe("the login's launch", () => {
  // The settings' replies on time, and late (a slow network or server: they come after the form has shown).
  for (const [width, settingsDelayMs] of [
    [390, 0],
    [320, 0],
    [390, 1500],
  ] as const)
    it(`shifts nothing below the form when the Telegram offer comes (${width} px, the settings ${settingsDelayMs} ms late)`, async () => {
      const context = await phoneContext(browser, { viewport: { width, height: 844 } });
      if (settingsDelayMs > 0)
        await context.route(/\/api\/settings\/(telegramAuthAvailable|botUsername)$/, async (route) => {
          await new Promise((resolve) => setTimeout(resolve, settingsDelayMs));
          await route.continue().catch(() => undefined);
        });
      await context.addInitScript(() => localStorage.setItem("kassa.language", "en"));
      await recordLayoutShifts(context);
      const page = await context.newPage();
      try {
        await page.goto(`${base()}/login`);
        await page.locator("[data-screen='login'] input").first().waitFor({ timeout: 20_000 });
        await page.locator("[data-testid='open-in-telegram']").waitFor({ timeout: 20_000 });
        await page.waitForLoadState("networkidle");
        await page.waitForTimeout(500);
        expect(await page.locator("[data-testid='open-in-telegram-room']").count()).toBe(0);
        const { total, shifts } = await layoutShifts(page);
        console.log(`[login-shift] ${width} px, settings ${settingsDelayMs} ms late: layout shift ${total.toFixed(4)}`);
        expect(total, JSON.stringify(shifts)).toBeLessThan(MAX_SHIFT);
      } finally {
        await context.close();
      }
    });
});

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

describe("the login's header painted before the app's code", () => {
  for (const [language, width, scheme] of [
    ["en", 390, "light"],
    ["ru", 320, "dark"],
    ["de", 320, "light"],
    ["kk", 390, "dark"],
  ] as const)
    it(`shows the tagline where and as the app then shows it, as the largest paint (${language}, ${width} px, ${scheme})`, async () => {
      const context = await phoneContext(browser, { viewport: { width, height: 844 }, colorScheme: scheme });
      await context.addInitScript((lng) => localStorage.setItem("kassa.language", lng), language);
      await context.addInitScript(() => {
        const largest: string[] = [];
        (window as unknown as { __largest: string[] }).__largest = largest;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as unknown as { element?: Element | null }[])
            largest.push(entry.element?.getAttribute("data-testid") ?? entry.element?.className ?? "");
        }).observe({ type: "largest-contentful-paint", buffered: true });
        const watch = new MutationObserver(() => {
          if (!document.querySelector("[data-testid='tagline-painted']")) return;
          (window as unknown as { __paintedAt: number }).__paintedAt = performance.now();
          watch.disconnect();
        });
        watch.observe(document, { childList: true, subtree: true });
      });
      await recordLayoutShifts(context);
      const release = await hold(context, CODE_AND_STYLES);
      const page = await context.newPage();
      try {
        await page.goto(`${base()}/login`, { waitUntil: "commit" });
        const painted = page.locator("[data-testid='tagline-painted']");
        await painted.waitFor({ timeout: 20_000 });
        expect(await painted.innerText()).toBe(text(language, "common", "tagline"));
        expect(await page.locator("[data-testid='painted-login']").getAttribute("aria-hidden")).toBe("true");
        const before = (await painted.boundingBox()) as Box;
        // Every line of the tagline whole on screen.
        expect(before.x).toBeGreaterThanOrEqual(0);
        expect(before.x + before.width).toBeLessThanOrEqual(width);
        expect(
          await painted.evaluate(
            (span) => span.scrollWidth <= span.clientWidth && span.scrollHeight <= span.clientHeight,
          ),
        ).toBe(true);
        release();

        const tagline = page.locator("[data-screen='login'] .brand-tagline");
        await tagline.waitFor({ timeout: 20_000 });
        await page.locator("[data-screen='login'] input").first().waitFor({ timeout: 20_000 });
        await page.waitForTimeout(300);
        const after = (await tagline.boundingBox()) as Box;
        for (const side of ["x", "y", "width", "height"] as const) expect(after[side]).toBeCloseTo(before[side], 0);
        expect(await tagline.innerText()).toBe(text(language, "common", "tagline"));
        expect(await page.locator("[data-testid='painted-login']").count()).toBe(0);
        // The app's own header came in the same place and size: the largest paint is still the painted one.
        const largest = (await page.evaluate("window.__largest")) as string[];
        expect(largest.at(-1), JSON.stringify(largest)).toBe("tagline-painted");
        const { total, shifts } = await layoutShifts(page);
        expect(total, JSON.stringify(shifts)).toBeLessThan(MAX_SHIFT);
        // The app's code was asked for at once: before the header was painted (once the page had been read).
        const code = await page.evaluate(() =>
          performance
            .getEntriesByType("resource")
            .filter((entry) => /\/assets\/[^/]+\.js$/.test(entry.name))
            .map((entry) => entry.startTime),
        );
        const paintedAt = (await page.evaluate("window.__paintedAt")) as number;
        expect(code.length).toBeGreaterThan(0);
        expect(Math.min(...code)).toBeLessThan(paintedAt);
      } finally {
        await context.close();
      }
    });
});
