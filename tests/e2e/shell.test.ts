/**
 * The foundation in a real browser: the app boots as the web fallback, follows the system's light or
 * dark scheme, switches between the four languages, and the maintenance page replaces the app and
 * goes away by itself.
 */
import type { Browser, Page, Request } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { base } from "./support/app";
import { chromiumForFile, phoneContext } from "./support/browser";
import { kassaCli } from "./support/cli";
import { LANGUAGES, text } from "./support/locales";

let browser: Browser;
/** A phone in en-US, shared by the tests below one after another (`visitor`). */
let phone: Page | undefined;

chromiumForFile((shared) => {
  browser = shared;
});
afterAll(async () => {
  await kassaCli("maintenance", "off").catch(() => undefined);
});

async function screen(page: Page, name: string, timeout = 15_000) {
  await page.locator(`[data-screen='${name}']`).first().waitFor({ state: "visible", timeout });
}

/**
 * The en-US phone as a visitor who has never been here, its system in `colorScheme`: nothing of the app kept (its
 * cookies and storage cleared); the test's first `goto` boots the app afresh.
 */
async function visitor(colorScheme: "light" | "dark" = "light"): Promise<Page> {
  phone ??= await (await phoneContext(browser, { locale: "en-US" })).newPage();
  await phone.context().clearCookies();
  if (phone.url().startsWith(base()))
    await phone.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
  await phone.emulateMedia({ colorScheme });
  return phone;
}

describe("web fallback", () => {
  it("boots outside Telegram on the login screen, without the Telegram SDK, in the system's light scheme", async () => {
    const page = await visitor("light");
    const scripts: string[] = [];
    const record = (r: Request) => {
      if (r.resourceType() === "script") scripts.push(r.url());
    };
    page.on("request", record);
    await page.goto(`${base()}/deposits`);
    await screen(page, "login");
    // A signed-out visitor of a cabinet screen is sent to sign in, and back there afterwards.
    expect(new URL(page.url()).pathname).toBe("/login");
    expect(new URL(page.url()).searchParams.get("next")).toBe("/deposits");
    await expect.poll(() => page.locator("[data-appearance]").getAttribute("data-appearance")).toBe("light");
    const events = await page.evaluate(() => (window as unknown as { __tgEvents?: unknown[] }).__tgEvents);
    expect(events).toBeUndefined();
    expect(scripts.filter((s) => /sdk/i.test(s))).toEqual([]);
    page.off("request", record);
  });

  it("follows a dark system scheme, and the system's change while it is open", async () => {
    const page = await visitor("dark");
    await page.goto(`${base()}/login`);
    await screen(page, "login");
    const appearance = () => page.locator("[data-appearance]").getAttribute("data-appearance");
    await expect.poll(appearance).toBe("dark");
    await page.emulateMedia({ colorScheme: "light" });
    await expect.poll(appearance).toBe("light");
    await page.emulateMedia({ colorScheme: "dark" });
    await expect.poll(appearance).toBe("dark");
  });
});

describe("languages", () => {
  it("switches the texts to each of the four languages and keeps the choice", async () => {
    const page = await visitor();
    await page.goto(`${base()}/login`);
    await screen(page, "login");
    await expect.poll(() => page.locator("body").innerText()).toContain(text("en", "common", "tagline"));
    for (const lng of ["ru", "de", "kk", "en"] as const) {
      await page.locator(`.language-option[lang='${lng}']`).click();
      await expect.poll(() => page.locator("body").innerText()).toContain(text(lng, "common", "tagline"));
      await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(lng);
      for (const other of LANGUAGES.filter((l) => l !== lng)) {
        expect(await page.locator("body").innerText()).not.toContain(text(other, "common", "tagline"));
      }
    }
    // The saved choice wins over the browser's language after a reload.
    await page.locator(".language-option[lang='de']").click();
    await page.reload();
    await screen(page, "login");
    await expect.poll(() => page.locator("body").innerText()).toContain(text("de", "common", "tagline"));
  });

  it("downloads only the active language", async () => {
    const context = await phoneContext(browser, { locale: "de-DE" });
    const page = await context.newPage();
    const bodies: Promise<string>[] = [];
    page.on("response", (r) => {
      if (r.request().resourceType() === "script") bodies.push(r.text());
    });
    await page.goto(`${base()}/login`);
    await screen(page, "login");
    await expect.poll(() => page.locator("body").innerText()).toContain(text("de", "common", "tagline"));
    await page.waitForLoadState("networkidle");
    const scripts = await Promise.all(bodies);
    expect(scripts.some((js) => js.includes(text("de", "common", "tagline")))).toBe(true);
    for (const other of ["en", "ru", "kk"] as const) {
      expect(scripts.filter((js) => js.includes(text(other, "common", "tagline")))).toEqual([]);
    }
    await context.close();
  });
});

describe("maintenance", () => {
  it("replaces the app while technical work is on and brings it back by itself when it ends", async () => {
    const page = await visitor();
    await page.goto(`${base()}/login`);
    await screen(page, "login");
    await page.evaluate(() => {
      (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
    });

    await kassaCli("maintenance", "on", "--until", "2030-01-01T12:00:00Z", "--message-en", "Upgrading the ledger");
    await screen(page, "maintenance", 30_000);
    expect(await page.locator("[data-screen='login']").count()).toBe(0);
    expect(await page.locator("body").innerText()).toContain("Upgrading the ledger");
    await page.locator("[data-testid='maintenance-until']").waitFor();

    await kassaCli("maintenance", "off");
    await screen(page, "login", 30_000);
    expect(await page.locator("[data-screen='maintenance']").count()).toBe(0);
    // No reload happened: the marker set on the page survived.
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  });
});
