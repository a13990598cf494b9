/**
 * The app inside a simulated Telegram client (launch parameters in the URL, the bridge recorded): it
 * says it is ready, follows the theme live, and drives Telegram's Back button from its navigation.
 */
import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { base } from "./support/app";
import {
  DARK_THEME,
  LIGHT_THEME,
  launchHash,
  newTelegramUser,
  postedEvents,
  sendTelegramEvent,
  signedInitData,
  waitForPosted,
} from "./support/telegram-client";
import { setTelegramSignIn, telegramFile, telegramPhone } from "./support/telegram-file";

let browser: Browser;
telegramFile((shared) => {
  browser = shared;
});

const cssVar = (page: Page, name: string) =>
  page.evaluate((n) => getComputedStyle(document.documentElement).getPropertyValue(n).trim(), name);
const backVisible = (data: unknown) => (data as { is_visible?: boolean } | null)?.is_visible;

describe("inside Telegram (simulated client)", () => {
  it("a stale launch without a kept session says to reopen from the bot and offers the password", async () => {
    await setTelegramSignIn(true);
    const { context, page } = await telegramPhone(browser);
    // Init data 25 hours old (a Mini App left open, or reopened from an old message), nothing kept.
    const initData = signedInitData(
      newTelegramUser(700_000_000, () => ({ first_name: "Old", language_code: "en" })),
      {
        authDate: new Date(Date.now() - 25 * 60 * 60 * 1000),
      },
    );
    await page.goto(`${base()}/${launchHash({ initData, platform: "android" })}`);
    await page.locator("[data-screen='login']").waitFor();
    const notice = page.locator("[data-testid='form-error']");
    await expect.poll(() => notice.textContent(), { timeout: 15_000 }).toMatch(/open it again from the bot/i);
    // The password sign-in is there; a Telegram button that would send the same stale data is not.
    expect(await page.locator("input[name='login']").isVisible()).toBe(true);
    expect(await page.locator("input[name='password']").isVisible()).toBe(true);
    expect(await page.locator("[data-testid='telegram-sign-in']").count()).toBe(0);
    await context.close();
  });

  it("posts ready, follows the theme live and mirrors navigation on the Back button", async () => {
    // With Telegram sign-in off the login screen stays put, so navigation can be observed from it.
    await setTelegramSignIn(false);
    const { context, page } = await telegramPhone(browser);
    const user = { id: 700001, first_name: "Tess", username: "tess", language_code: "en" };
    await page.goto(`${base()}/login${launchHash({ user, platform: "android" })}`);
    await page.locator("[data-screen='login']").waitFor();

    await waitForPosted(page, "web_app_ready");
    await expect.poll(() => cssVar(page, "--tg-theme-bg-color")).toBe(LIGHT_THEME.bg_color);
    await expect.poll(() => page.locator("[data-appearance]").getAttribute("data-appearance")).toBe("light");

    // Telegram switches to its dark theme: the app follows without a reload.
    await sendTelegramEvent(page, "theme_changed", { theme_params: DARK_THEME });
    await expect.poll(() => cssVar(page, "--tg-theme-bg-color")).toBe(DARK_THEME.bg_color);
    await expect.poll(() => page.locator("[data-appearance]").getAttribute("data-appearance")).toBe("dark");

    // At the top the Back button is hidden; a sub-screen shows it; pressing it goes back.
    await waitForPosted(page, "web_app_setup_back_button", (d) => backVisible(d) === false);
    await page.locator("a[href='/forgot-password']").first().click();
    await page.locator("[data-screen='forgot-password']").waitFor();
    await waitForPosted(page, "web_app_setup_back_button", (d) => backVisible(d) === true);

    const before = (await postedEvents(page)).length;
    await sendTelegramEvent(page, "back_button_pressed");
    await page.locator("[data-screen='login']").waitFor();
    // Back at the top: the Back button is hidden (told a moment late, so a screen coming in cannot flicker it).
    const hidden = async () =>
      (await postedEvents(page))
        .slice(before)
        .some((e) => e.eventType === "web_app_setup_back_button" && backVisible(e.eventData) === false);
    await expect.poll(hidden, { timeout: 10_000 }).toBe(true);
    await context.close();
  });
});
