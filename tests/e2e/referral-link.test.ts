/**
 * An invitation link on the web, in Chromium against the real server: `/?ref=<login>` sends a signed-out visitor
 * to the login screen, and the registration they go on to names that inviter, survives a reload, and makes the
 * account under them (not under the default inviter).
 */
import type { Browser } from "playwright-core";
import { describe, expect, it } from "vitest";
import { apiCall } from "./support/api";
import { base, completeRegistration, PASSWORD, screen, signUpThroughApi } from "./support/app";
import { chromiumForFile, phoneContext } from "./support/browser";
import { text } from "./support/locales";

let browser: Browser;
chromiumForFile((shared) => {
  browser = shared;
});

describe("an invitation link", () => {
  it("/?ref=<login>: the account made through the login screen and a reload of the registration has that inviter", async () => {
    const inviter = (await signUpThroughApi()).login;
    const context = await phoneContext(browser, { locale: "en-US" });
    await context.addInitScript(() => localStorage.setItem("kassa.language", "en"));
    const page = await context.newPage();

    await page.goto(`${base()}/?ref=${inviter}`);
    await screen(page, "login");
    await page.getByText(text("en", "auth", "login.register"), { exact: true }).click();
    await screen(page, "register");
    const cell = page.locator("[data-testid='inviter']");
    await cell.filter({ hasText: inviter }).waitFor({ timeout: 10_000 });
    // A reload of the registration, whose URL no longer names the inviter, keeps it.
    await page.reload();
    await screen(page, "register");
    await cell.filter({ hasText: inviter }).waitFor({ timeout: 10_000 });

    const login = await completeRegistration(page);
    await context.close();

    // The server's word: the new account's inviter.
    const { refreshToken } = await apiCall("login", { body: { login, password: PASSWORD } });
    const profile = await apiCall("userData", { token: refreshToken });
    expect(profile).toMatchObject({ login, inviter });
  });
});
