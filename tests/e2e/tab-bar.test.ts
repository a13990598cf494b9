/**
 * The phone's tab bar in a real browser, light and dark: a navigation landmark named "Main menu" holding the five
 * tabs, the current one marked `aria-current="page"` (and the mark moves with the screen), and a bar that hides what
 * scrolls under it: an opaque background (telegram-ui's is 95 % opaque on the web, and text ghosted through its
 * labels) or a blur behind it.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { base, demoSession, readNotifications, screen, useSession } from "./support/app";
import { phoneContext, releaseChromium, sharedChromium } from "./support/browser";

let browser: Browser;
/** The demo investor's phone, one page for both schemes: each test opens the screen afresh in it. */
let phone: Page;
beforeAll(async () => {
  browser = await sharedChromium();
  const session = await demoSession();
  // No notification sheet over the screen.
  await readNotifications(session.token);
  const context = await phoneContext(browser, { viewport: { width: 390, height: 844 } });
  await useSession(context, session);
  phone = await context.newPage();
});
afterAll(async () => {
  await releaseChromium(browser);
});

/** The alpha of a computed CSS colour ("rgb(…)" is 1). */
function alphaOf(colour: string): number {
  const match = /rgba?\(([^)]+)\)/.exec(colour);
  const parts = match?.[1]?.split(/[,\s/]+/).filter(Boolean) ?? [];
  return parts.length === 4 ? Number(parts[3]) : 1;
}

describe("the tab bar", () => {
  for (const scheme of ["light", "dark"] as const) {
    it(`is a navigation landmark with the current tab marked, and hides what is under it (${scheme})`, async () => {
      const page = phone;
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`${base()}/deposits`);
      await screen(page, "deposits");

      const nav = page.getByRole("navigation", { name: "Main menu" });
      // The landmark's own box is empty (the bar inside it is fixed): there, not "visible".
      await nav.waitFor({ state: "attached" });
      expect(await nav.locator("[data-testid^='tab-']").count()).toBe(5);
      const current = () =>
        nav.locator("[aria-current='page']").evaluateAll((tabs) => tabs.map((t) => t.getAttribute("data-testid")));
      expect(await current()).toEqual(["tab-deposits"]);
      await nav.locator("[data-testid='tab-withdrawal']").click();
      await screen(page, "withdrawal");
      await expect.poll(current).toEqual(["tab-withdrawal"]);

      const look = await page.locator(".tab-bar").evaluate((bar) => {
        const style = getComputedStyle(bar);
        return { background: style.backgroundColor, filter: style.backdropFilter };
      });
      const blurred = /blur\(/.test(look.filter);
      expect({ opaque: alphaOf(look.background) === 1, blurred }).toEqual({ opaque: true, blurred: true });
    });
  }
});
