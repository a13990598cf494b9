/**
 * Settings and the inbox where investors meet them: inside Telegram Web's cross-site iframe (Web A, and Web K
 * for the kept language, whose storage requests it never answers) and in the iPhone's webview in fullscreen.
 * Profile: Telegram's Back and Main buttons, the save read back from the server, a refused value kept with its
 * message; the language chosen survives the frame's reload in partitioned storage and reaches the server (the
 * inbox's notifications are then in it); the bell's count, a tapped notification opening its screen and read on
 * the server; the list's first cell and the save's message clear of the iPhone's insets.
 */
import type { Browser } from "playwright-core";
import { describe, expect, it } from "vitest";
import { apiCall } from "./support/api";
import { base, screen, telegramSessionThroughApi } from "./support/app";
import { creditedRefill } from "./support/cli";
import { text } from "./support/locales";
import {
  IPHONE_FULLSCREEN,
  launchHash,
  newTelegramUser,
  postedEvents,
  sendTelegramEvent,
  signedInitData,
} from "./support/telegram-client";
import { telegramFile, telegramPhone } from "./support/telegram-file";
import {
  APP_ORIGIN,
  lastFramePosted,
  openTelegramWeb,
  TELEGRAM_WEB_ARGS,
  type TelegramWeb,
  waitForFramePosted,
} from "./support/telegram-web";

let browser: Browser;
telegramFile((shared) => {
  browser = shared;
}, TELEGRAM_WEB_ARGS);

type Button = { is_visible?: boolean; text?: string };
const newUser = (from: number) =>
  newTelegramUser(from, (id) => ({ first_name: "Wen", username: `wen${id}`, language_code: "en" }));

/** Telegram Web (`client`) with the app opened in its frame by a new Telegram user, at the cabinet. */
async function launch(client: "a" | "k", initData = signedInitData(newUser(840_000_000))) {
  const web = await openTelegramWeb(browser, base(), client);
  const frame = await web.mount({ initData, platform: client === "a" ? "weba" : "webk", version: "9.1" });
  await screen(frame, "cabinet");
  return { web, frame, initData };
}

/** Telegram's Back button as the app set it last, polled until it is `shown`. */
const backShown = (web: TelegramWeb, shown: boolean) =>
  expect
    .poll(async () => (await lastFramePosted<Button>(web, "web_app_setup_back_button"))?.is_visible ?? false, {
      timeout: 10_000,
    })
    .toBe(shown);

/** From the cabinet through the app: More, then Settings. */
async function openSettings(frame: Awaited<ReturnType<typeof launch>>["frame"]) {
  await frame.locator("[data-testid='tab-more']").click();
  await screen(frame, "more");
  await frame.locator("a[href='/settings']").first().click();
  await frame.locator("[data-settings-cell='profile']").waitFor({ timeout: 15_000 });
}

describe("Settings and the inbox inside Telegram Web and the iPhone's webview", { timeout: 120_000 }, () => {
  it("Web A: Profile saved with the Main button, a refused phone kept with its message, Back to the list and out", async () => {
    const { web, frame, initData } = await launch("a");
    const investor = await telegramSessionThroughApi(initData);
    // At the cabinet Telegram's Back is hidden (never shown since the launch).
    expect((await lastFramePosted<Button>(web, "web_app_setup_back_button"))?.is_visible ?? false).toBe(false);
    await openSettings(frame);
    await frame.locator("[data-settings-cell='profile']").click();
    await frame.locator("[data-settings-screen='profile']").waitFor({ timeout: 15_000 });
    const city = frame.locator("[data-section='profile'] input[name='city']");
    await city.waitFor();
    await backShown(web, true);
    // The Main button carries the save, in the investor's language; the page has no button of its own.
    await waitForFramePosted(web, "web_app_setup_main_button", (d) => (d as Button).is_visible === true);
    expect((await lastFramePosted<Button>(web, "web_app_setup_main_button"))?.text).toBe(
      text("en", "settings", "save"),
    );
    expect(await frame.locator("[data-testid='submit-profile']").count()).toBe(0);

    // A phone without its plus: the rule's message under the field, what was typed kept, nothing sent, and
    // the Main button still there to try again.
    const phone = frame.locator("[data-section='profile'] input[name='phone']");
    await phone.fill("87010000000");
    const saves = () => web.requests.filter((r) => r === "PATCH /api/user-data").length;
    await web.send("main_button_pressed");
    await frame
      .locator("[data-section='profile']")
      .getByText(text("en", "validation", "phoneFormat"))
      .waitFor({ timeout: 10_000 });
    expect(await phone.inputValue()).toBe("87010000000");
    expect(saves()).toBe(0);
    expect((await lastFramePosted<Button>(web, "web_app_setup_main_button"))?.is_visible).toBe(true);

    // Put right (emptied: no phone change) with a new city, saved by the Main button, read back from the server.
    await phone.fill("");
    await city.fill("Pavlodar");
    await web.send("main_button_pressed");
    await expect
      .poll(() => frame.locator("[data-section='profile'] [data-testid='form-success']").innerText(), {
        timeout: 15_000,
      })
      .toBe(text("en", "settings", "saved"));
    expect(saves()).toBe(1);
    expect((await apiCall("userDataByType", { params: { type: "profile" }, token: investor.token })).city).toBe(
      "Pavlodar",
    );

    // Back: to the list, then to More where Settings was opened (top level: Back hidden); the cabinet, too.
    await web.send("back_button_pressed");
    await frame.locator("[data-settings-cell='profile']").waitFor({ timeout: 15_000 });
    expect(await frame.evaluate(() => location.pathname)).toBe("/settings");
    await backShown(web, true);
    await web.send("back_button_pressed");
    await screen(frame, "more");
    await backShown(web, false);
    await frame.locator("[data-testid='tab-cabinet']").click();
    await screen(frame, "cabinet");
    await frame.waitForTimeout(300);
    await backShown(web, false);
    expect((await web.events()).some((e) => e.eventType === "web_app_close")).toBe(false);
    await web.context.close();
  });

  for (const client of ["a", "k"] as const) {
    it(`Web ${client.toUpperCase()}: Deutsch chosen in the language screen stays after the frame reloads and reopens, and reaches the server`, async () => {
      const initData = signedInitData(newUser(840_000_000));
      // A notification written while the account's language is still Telegram's English.
      const investor = await telegramSessionThroughApi(initData);
      await creditedRefill(investor.token, "25");
      const language = async () => (await apiCall("currentUser", { token: investor.token })).language;
      expect(await language()).toBe("en");
      const { web, frame } = await launch(client, initData);
      await openSettings(frame);
      await frame.locator("[data-settings-cell='language']").click();
      await frame.locator("[data-settings-screen='language']").waitFor({ timeout: 15_000 });
      await frame.locator("label[data-language='de']").click();
      const heading = frame.locator("[data-screen='settings'] h1").first();
      await expect
        .poll(() => heading.innerText(), { timeout: 10_000 })
        .toBe(text("de", "settings", "screens.language"));
      // Kept in the frame's own (partitioned) storage: the app's site at the top level does not see it.
      expect(await frame.evaluate(() => localStorage.getItem("kassa.language"))).toBe("de");
      const top = await web.context.newPage();
      await top.goto(`${APP_ORIGIN}/api/health`);
      expect(await top.evaluate(() => localStorage.getItem("kassa.language"))).toBeNull();
      await top.close();
      // The choice went to the server at once.
      await expect.poll(language, { timeout: 10_000 }).toBe("de");

      // The frame reloaded: the same screen, in German, Deutsch chosen.
      await frame.evaluate(() => location.reload());
      await frame.locator("[data-settings-screen='language']").waitFor({ timeout: 60_000 });
      await expect
        .poll(() => heading.innerText(), { timeout: 10_000 })
        .toBe(text("de", "settings", "screens.language"));
      expect(await frame.locator("input[name='language'][value='de']").isChecked()).toBe(true);
      // Back still leads to the list after the reload, and Profile's Main button now says it in German.
      await backShown(web, true);
      await web.send("back_button_pressed");
      await frame.locator("[data-settings-cell='profile']").waitFor({ timeout: 15_000 });
      await frame.locator("[data-settings-cell='profile']").click();
      await frame.locator("[data-section='profile'] input[name='city']").waitFor({ timeout: 15_000 });
      await expect
        .poll(async () => (await lastFramePosted<Button>(web, "web_app_setup_main_button"))?.text, { timeout: 10_000 })
        .toBe(text("de", "settings", "save"));

      // Closed and opened again from the chat (Telegram still says "en"): the cabinet in German.
      await web.unmount();
      const again = await web.mount({ initData, platform: client === "a" ? "weba" : "webk", version: "9.1" });
      await screen(again, "cabinet");
      await again.locator("[data-testid='tab-more']").click();
      await screen(again, "more");
      await expect
        .poll(() => again.locator("[data-screen='more'] h1").first().innerText(), { timeout: 10_000 })
        .toBe(text("de", "nav", "more"));
      // The inbox: its title and the notification written before the choice, both in German.
      await again.locator("[data-testid='notification-bell']").click();
      await screen(again, "notifications");
      const title = again.locator("[data-testid='notification'][data-kind='refill_credited'] .notification-row-title");
      await expect
        .poll(() => title.first().innerText(), { timeout: 10_000 })
        .toBe(text("de", "bot", "notifications.refill_credited.title"));
      expect(await again.locator("[data-screen='notifications'] h1").first().innerText()).toBe(
        text("de", "notifications", "title"),
      );
      await web.context.close();
    });
  }

  it("Web A: the bell counts the unread, a tapped notification opens its refill and is read on the server, Back returns through the sheet", async () => {
    const initData = signedInitData(newUser(850_000_000));
    const investor = await telegramSessionThroughApi(initData);
    const older = await creditedRefill(investor.token, "30");
    await creditedRefill(investor.token, "45");
    const inbox = () => apiCall("notificationsInbox", { query: { limit: 10 }, token: investor.token });
    expect((await inbox()).unread).toBe(2);

    const { web, frame } = await launch("a", initData);
    const bell = frame.locator("[data-testid='notification-bell']");
    await expect.poll(() => bell.getAttribute("data-count"), { timeout: 10_000 }).toBe("2");
    expect(await bell.getAttribute("aria-label")).toBe("Notifications, 2 unread");
    await bell.click();
    await screen(frame, "notifications");
    await backShown(web, true);
    const rows = frame.locator("[data-testid='notification']");
    await expect.poll(() => rows.count()).toBe(2);
    // Newest first: the older refill's notification is the second row.
    const tapped = (await rows.nth(1).getAttribute("data-notification-id")) as string;
    await rows.nth(1).click();
    await screen(frame, "refill");
    expect(await frame.evaluate(() => location.search)).toBe(`?refill=${older}`);
    // The refill's own sheet is open over its screen.
    const sheet = frame.locator("[data-testid='wallet-dialog']");
    await sheet.waitFor({ timeout: 15_000 });
    await expect.poll(async () => (await inbox()).unread, { timeout: 10_000 }).toBe(1);
    expect((await inbox()).items.find((n) => n.id === tapped)?.readAt).not.toBeNull();
    await expect.poll(() => bell.getAttribute("data-count"), { timeout: 10_000 }).toBe("1");

    // Back: the sheet closes first (the screen stays), then the inbox with the tapped one read; Back again:
    // the cabinet, Back hidden.
    await backShown(web, true);
    await web.send("back_button_pressed");
    await sheet.waitFor({ state: "detached", timeout: 10_000 });
    await screen(frame, "refill");
    await web.send("back_button_pressed");
    await screen(frame, "notifications");
    await expect
      .poll(() => rows.evaluateAll((els) => els.map((el) => el.getAttribute("data-unread"))))
      .toEqual(["true", "false"]);
    await web.send("back_button_pressed");
    await screen(frame, "cabinet");
    await backShown(web, false);
    await web.context.close();
  });

  it("iPhone, fullscreen: the list's first cell and the save's message clear of the notch, Telegram's buttons and the home indicator", async () => {
    const { context, page } = await telegramPhone(browser, {
      viewport: { width: 390, height: 720 },
      ...IPHONE_FULLSCREEN,
    });
    const { safeArea, contentSafeArea } = IPHONE_FULLSCREEN;
    const hash = launchHash({
      user: newUser(860_000_000),
      platform: "ios",
      version: "9.0",
      fullscreen: true,
    });
    await page.goto(`${base()}/${hash}`);
    await screen(page, "cabinet");
    await page.locator("[data-testid='tab-more']").click();
    await screen(page, "more");
    await page.locator("a[href='/settings']").first().click();
    const first = page.locator("[data-settings-cell='profile']");
    await first.waitFor({ timeout: 15_000 });
    // The insets came from the client's safe_area_changed and content_safe_area_changed.
    expect(
      await page.evaluate(() =>
        getComputedStyle(document.documentElement).getPropertyValue("--tg-viewport-safe-area-inset-top"),
      ),
    ).toBe(`${safeArea.top}px`);
    const firstTop = await first.evaluate((el) => el.getBoundingClientRect().top);
    expect(firstTop).toBeGreaterThanOrEqual(safeArea.top + contentSafeArea.top);

    await first.click();
    const city = page.locator("[data-section='profile'] input[name='city']");
    await city.waitFor({ timeout: 15_000 });
    await city.fill("Aktobe");
    await expect
      .poll(async () => {
        const last = (await postedEvents(page)).filter((e) => e.eventType === "web_app_setup_main_button").at(-1);
        return (last?.eventData as Button | undefined)?.is_visible;
      })
      .toBe(true);
    await sendTelegramEvent(page, "main_button_pressed");
    const success = page.locator("[data-section='profile'] [data-testid='form-success']");
    await success.waitFor({ timeout: 15_000 });
    // Scrolled to the end, the form's footer (its message) and the whole screen end above the home indicator.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const { footer, screenEnd, viewport } = await success.evaluate((el) => ({
      footer: el.getBoundingClientRect().bottom,
      screenEnd: (el.closest("[data-screen]") as HTMLElement).getBoundingClientRect().bottom,
      viewport: window.innerHeight,
    }));
    expect(footer).toBeLessThanOrEqual(viewport - safeArea.bottom);
    expect(screenEnd).toBeLessThanOrEqual(viewport - safeArea.bottom);
    // Scrolled to the top, the form's first field is below the notch and Telegram's buttons.
    await page.evaluate(() => window.scrollTo(0, 0));
    const fieldTop = await page
      .locator("[data-section='profile'] input[name='fullName']")
      .evaluate((el) => el.getBoundingClientRect().top);
    expect(fieldTop).toBeGreaterThanOrEqual(safeArea.top + contentSafeArea.top);
    await context.close();
  });
});
