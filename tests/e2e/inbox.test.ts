/**
 * The notification inbox end to end, in Chromium against the real server: the operator's confirmations write
 * notifications, the header's bell counts them (and nothing pops up over the balance at launch), the inbox lists
 * them, a tap opens the refill it concerns and the count goes down. Every cabinet screen is titled by one `h1`
 * (section headers are not headings of the first level), and on the web a screen under More has a way back.
 * With E2E_SCREENSHOTS=<dir>, the header with the bell and the inbox in light and dark at 320 px, de and ru.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { apiCall } from "./support/api";
import { type ApiSession, base, screen, useSession as signInContext, signUpThroughApi } from "./support/app";
import { chromiumForFile, phoneContext } from "./support/browser";
import { creditedRefill } from "./support/cli";
import { settle } from "./support/fit";
import { type Lng, text } from "./support/locales";

const SHOTS = process.env.E2E_SCREENSHOTS;

let browser: Browser;
chromiumForFile((shared) => {
  browser = shared;
});

async function openAs(investor: ApiSession, lng: Lng, options: Parameters<typeof phoneContext>[1] = {}) {
  const context = await phoneContext(browser, options);
  await context.addInitScript((language) => localStorage.setItem("kassa.language", language), lng);
  await signInContext(context, investor);
  return { context, page: await context.newPage() };
}

/** In-app navigation, as a tap on a link does: the router follows the history, nothing reloads. */
async function navigate(page: Page, path: string) {
  await page.evaluate((to) => {
    history.pushState({}, "", to);
    dispatchEvent(new PopStateEvent("popstate"));
  }, path);
}

const bellName = (page: Page) => page.locator("[data-testid='notification-bell']").getAttribute("aria-label");
const unreadOf = async (investor: ApiSession) =>
  (await apiCall("notificationsInbox", { query: { limit: 1 }, token: investor.token })).unread;

describe("notification inbox", () => {
  let context: BrowserContext | undefined;
  afterAll(async () => {
    await context?.close();
  });

  it("counts what the operator's confirmations wrote; a tap opens the refill and the count goes down", async () => {
    const investor = await signUpThroughApi();
    const older = await creditedRefill(investor.token, "30");
    await creditedRefill(investor.token, "45");
    expect(await unreadOf(investor)).toBe(2);

    const opened = await openAs(investor, "en");
    context = opened.context;
    const page = opened.page;
    await page.goto(`${base()}/`);
    await screen(page, "cabinet");
    await expect.poll(() => bellName(page)).toBe("Notifications, 2 unread");
    // What was unread at launch waits behind the bell: no sheet over the balance.
    await settle(page);
    await page.waitForTimeout(1_000);
    expect(await page.locator("[data-testid='notification-dialog']").count()).toBe(0);

    await page.locator("[data-testid='notification-bell']").click();
    await screen(page, "notifications");
    expect(await page.locator("h1").allInnerTexts()).toEqual(["Notifications"]);
    const rows = page.locator("[data-testid='notification']");
    await expect.poll(() => rows.count()).toBe(2);
    expect(
      await rows.evaluateAll((els) => els.map((el) => [el.getAttribute("data-kind"), el.getAttribute("data-unread")])),
    ).toEqual([
      ["refill_credited", "true"],
      ["refill_credited", "true"],
    ]);
    // Newest first: the older refill is the second row.
    expect(await rows.nth(1).innerText()).toContain("30.00");

    await rows.nth(1).click();
    await screen(page, "refill");
    expect(new URL(page.url()).search).toBe(`?refill=${older}`);
    await expect.poll(() => bellName(page)).toBe("Notifications, 1 unread");
    expect(await unreadOf(investor)).toBe(1);

    // Back in the inbox the tapped one reads as read.
    await page.goBack();
    await screen(page, "notifications");
    await expect
      .poll(() => rows.evaluateAll((els) => els.map((el) => el.getAttribute("data-unread"))))
      .toEqual(["true", "false"]);
  }, 180_000);
});

describe("screen titles", () => {
  it("every cabinet screen has one h1, its title; a screen under More has a way back on the web", async () => {
    const investor = await signUpThroughApi();
    const { context, page } = await openAs(investor, "en");
    const screens: [path: string, name: string, title: string][] = [
      ["/", "cabinet", text("en", "cabinet", "welcome").replace("{{login}}", "")],
      ["/refill", "refill", text("en", "refill", "title")],
      ["/deposits", "deposits", text("en", "deposits", "title")],
      ["/withdrawal", "withdrawal", text("en", "withdrawal", "title")],
      ["/more", "more", text("en", "nav", "more")],
      ["/partners", "partners", text("en", "partners", "title")],
      ["/operations", "operations", text("en", "operations", "title")],
      ["/settings", "settings", text("en", "settings", "title")],
      ["/news", "news", text("en", "news", "title")],
      ["/notifications", "notifications", text("en", "notifications", "title")],
    ];
    const problems: string[] = [];
    // The first screen loaded, the others reached in the app.
    await page.goto(`${base()}/`);
    for (const [path, name, title] of screens) {
      await navigate(page, path);
      await screen(page, name);
      await settle(page);
      const headings = await page.locator("h1").allInnerTexts();
      if (headings.length !== 1 || !headings[0]?.startsWith(title))
        problems.push(`${path}: ${JSON.stringify(headings)}`);
    }
    expect(problems).toEqual([]);

    // With the side bar (its product name is no heading) a screen still has one h1.
    await page.setViewportSize({ width: 1280, height: 800 });
    await navigate(page, "/operations");
    await screen(page, "operations");
    await page.locator(".side-bar").waitFor();
    expect(await page.locator("h1").allInnerTexts()).toEqual([text("en", "operations", "title")]);
    await page.setViewportSize({ width: 390, height: 844 });

    // Top-level screens have the tab bar; a screen under More has a back link to where the user came from.
    await page.goto(`${base()}/more`);
    await screen(page, "more");
    expect(await page.locator("[data-testid='page-back']").count()).toBe(0);
    await page.locator("a[href='/operations']").first().click();
    await screen(page, "operations");
    await page.locator("[data-testid='page-back']").click();
    await screen(page, "more");
    // Opened directly, the link leads to the screen above it.
    await page.goto(`${base()}/partners`);
    await screen(page, "partners");
    await page.locator("[data-testid='page-back']").click();
    await screen(page, "more");
    await context.close();
  }, 180_000);
});

describe.runIf(SHOTS)("inbox screenshots", () => {
  it("the header with the bell and the inbox: light and dark, 320 px, de and ru", async () => {
    const dir = SHOTS as string;
    mkdirSync(dir, { recursive: true });
    for (const lng of ["de", "ru"] as const) {
      // The server writes a notification in its investor's language.
      const investor = await signUpThroughApi("demo", lng);
      await creditedRefill(investor.token, "30");
      await creditedRefill(investor.token, "45");
      for (const scheme of ["light", "dark"] as const) {
        const { context, page } = await openAs(investor, lng, {
          viewport: { width: 320, height: 640 },
          colorScheme: scheme,
        });
        await page.goto(`${base()}/`);
        await screen(page, "cabinet");
        await settle(page);
        await page.screenshot({ path: join(dir, `inbox-header-${scheme}-${lng}.png`) });
        await page.goto(`${base()}/notifications`);
        await screen(page, "notifications");
        await settle(page);
        await page.screenshot({ path: join(dir, `inbox-list-${scheme}-${lng}.png`) });
        await context.close();
      }
    }
  }, 300_000);
});
