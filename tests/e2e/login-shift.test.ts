/**
 * The login holds still while it fills in: with Telegram sign-in on (the default), the web login offers to open
 * the bot's Mini App in a cell below the form, which needs the flag and the bot's name from the server. The cell's
 * room is kept from the first paint, so its arrival does not push the registration links and the language below
 * it down (it did by 0.049, Lighthouse's CLS 0.048, a few points of the login's score).
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { base } from "./support/app";
import { launchChromium, layoutShifts, phoneContext, recordLayoutShifts } from "./support/browser";

/** Nothing on screen moves: what is left is rounding, far below Lighthouse's 0.1. */
const MAX_SHIFT = 0.005;

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
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
