/**
 * The cabinet holds still while it fills in: the headline and the currencies' list come with the overview (one of the
 * launch's calls), what is below them only once it has come, and the income chart in a chunk of its own into room
 * kept for it, so nothing already on screen is pushed (Lighthouse's Cumulative Layout Shift, which weighs most in
 * its score after the paint times). Measured with the browser's own layout-shift entries on the demo investor, who
 * holds two currencies, a deposit and income.
 */
import type { Browser } from "playwright-core";
import { describe, expect, it } from "vitest";
import { base, demoSession, signUpThroughApi, useSession } from "./support/app";
import { chromiumForFile, layoutShifts, phoneContext, recordLayoutShifts } from "./support/browser";

/** Nothing on screen moves: what is left is rounding (Lighthouse's "good" ends at 0.1). */
const MAX_SHIFT = 0.005;

let browser: Browser;
chromiumForFile((shared) => {
  browser = shared;
});

describe("the cabinet's launch", () => {
  // The parts' data after their code as well (a slow network), not only before it.
  // German and Russian: the longest texts, and the parts below the fold (a second commit) pushed further down.
  // And an investor who holds nothing yet: the whole picture without currency lines.
  for (const [language, width, dataDelayMs, investor] of [
    ["en", 390, 0, "demo"],
    ["en", 320, 0, "demo"],
    ["en", 390, 1500, "demo"],
    ["de", 320, 0, "demo"],
    ["ru", 390, 1500, "demo"],
    ["en", 390, 0, "new"],
  ] as const)
    it(`shifts nothing on screen while its later parts come in (${investor} investor, ${language}, ${width} px, their data ${dataDelayMs} ms late)`, async () => {
      const context = await phoneContext(browser, { viewport: { width, height: 844 } });
      await context.addInitScript((lang) => localStorage.setItem("kassa.language", lang), language);
      if (dataDelayMs > 0)
        // The overview comes inside the painted first screen's reply on a phone: that call is late too.
        await context.route(/\/api\/(user\/(overview|income)|app\/first-screen)/, async (route) => {
          await new Promise((resolve) => setTimeout(resolve, dataDelayMs));
          await route.continue().catch(() => undefined);
        });
      await useSession(context, investor === "demo" ? await demoSession() : await signUpThroughApi());
      await recordLayoutShifts(context);
      const page = await context.newPage();
      try {
        await page.goto(`${base()}/`);
        await page.locator("[data-testid='overview-total']").waitFor({ timeout: 20_000 });
        await page.locator("[data-testid='income']").waitFor({ timeout: 20_000 });
        await page.waitForLoadState("networkidle");
        await page.waitForTimeout(500);
        const { total, shifts } = await layoutShifts(page);
        console.log(
          `[cabinet-shift] ${investor}, ${language}, ${width} px, data ${dataDelayMs} ms late: layout shift ${total.toFixed(4)}`,
        );
        expect(total, JSON.stringify(shifts)).toBeLessThan(MAX_SHIFT);
      } finally {
        await context.close();
      }
    });
});
