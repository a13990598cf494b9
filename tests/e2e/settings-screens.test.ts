/**
 * Settings as a list of screens, on the real server: the list and every screen it opens at 390 and 320 px
 * in Russian and German, nothing cut (the shared fit check); the profile saved with the page's button on
 * the web and with Telegram's Main button inside a simulated client. With E2E_SCREENSHOTS=<dir>, the list
 * and two screens at 320 px, light and dark, in German and Russian.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "./support/api";
import {
  type ApiSession,
  base,
  gotoInLanguage,
  useSession as keepSession,
  screen,
  signUpThroughApi,
} from "./support/app";
import { phoneContext } from "./support/browser";
import { cutTexts, settle } from "./support/fit";
import { type Lng, text } from "./support/locales";
import { launchHash, newTelegramUser, postedEvents, sendTelegramEvent, waitForPosted } from "./support/telegram-client";
import { telegramFile, telegramPhone } from "./support/telegram-file";

const SHOTS = process.env.E2E_SCREENSHOTS;
/** The list's cells, in its order. */
const CELLS = ["profile", "security", "wallets", "verification", "subscription", "notifications", "language"];

let browser: Browser;
let investor: ApiSession;
/** The investor's phone on the web, one page for the file's web tests: each opens the list afresh in it. */
let phone: Page;

telegramFile((shared) => {
  browser = shared;
});
beforeAll(async () => {
  investor = await signUpThroughApi();
  const context = await phoneContext(browser, SHOTS ? { deviceScaleFactor: 1 } : {});
  await keepSession(context, investor);
  phone = await context.newPage();
});

/** The phone's page at this size and scheme; `openList` then opens the list in `lng`. */
async function webPage(lng: Lng, width: number, colorScheme: "light" | "dark" = "light", height = 720) {
  await phone.setViewportSize({ width, height });
  await phone.emulateMedia({ colorScheme });
  return { lng, page: phone };
}

/** Settings' list opened afresh (a new document) in `lng`. */
async function openList({ lng, page }: { lng: Lng; page: Page }) {
  await gotoInLanguage(page, "/settings", lng);
  await screen(page, "settings");
  await page.locator("[data-settings-cell='profile']").waitFor();
  await settle(page);
}

/** The screen on a tall phone: the whole of it above the tab bar. */
async function shoot(page: Page, path: string) {
  await settle(page);
  await page.screenshot({ path });
}

/** Taps the list's cell of `name` and waits for its screen, settled. */
async function openCell(page: Page, name: string) {
  await page.locator(`[data-settings-cell='${name}']`).click();
  await page.locator(`[data-settings-screen='${name}']`).waitFor({ timeout: 15_000 });
  await settle(page);
}

describe("settings as a list of screens", () => {
  for (const lng of ["ru", "de"] as const) {
    for (const width of [390, 320]) {
      it(`walks the list and every screen at ${width} px in ${lng}, nothing cut`, async () => {
        const web = await webPage(lng, width);
        const { page } = web;
        await openList(web);
        const cells = await page
          .locator("[data-settings-cell]")
          .evaluateAll((els) => els.map((el) => el.getAttribute("data-settings-cell")));
        expect(cells).toEqual(CELLS);
        // Each cell's status is said (the security one once the server answered).
        await expect
          .poll(() => page.locator("[data-settings-cell='security']").innerText())
          .toContain(text(lng, "settings", "security.channels.email"));
        expect(await cutTexts(page), `list ${lng} ${width}`).toEqual([]);
        for (const name of CELLS) {
          await openCell(page, name);
          expect(await page.title()).toContain(text(lng, "settings", `screens.${name}`));
          expect(await cutTexts(page), `${name} ${lng} ${width}`).toEqual([]);
          await page.goBack();
          await page.locator("[data-settings-cell='profile']").waitFor();
        }
        // The password, one level down from Security.
        await openCell(page, "security");
        await page.locator("[data-settings-cell='password']").click();
        await page.locator("[data-settings-screen='password']").waitFor();
        await settle(page);
        expect(await cutTexts(page), `password ${lng} ${width}`).toEqual([]);
      });
    }
  }

  it("saves the profile with the page's button on the web", async () => {
    const web = await webPage("de", 320);
    const { page } = web;
    await openList(web);
    await openCell(page, "profile");
    const city = page.locator("[data-section='profile'] input[name='city']");
    await city.fill("Karaganda");
    await page.locator("[data-testid='submit-profile']").click();
    await expect
      .poll(() => page.locator("[data-section='profile'] [data-testid='form-success']").innerText())
      .toBe(text("de", "settings", "saved"));
    await expect
      .poll(async () => (await apiCall("userDataByType", { params: { type: "profile" }, token: investor.token })).city)
      .toBe("Karaganda");
    // Back to the list, which opens at /settings as before.
    await page.goBack();
    await page.locator("[data-settings-cell='profile']").waitFor();
    expect(new URL(page.url()).pathname).toBe("/settings");
  });

  it("saves the profile with Telegram's Main button inside Telegram, and Back leads to the list", async () => {
    const { context, page } = await telegramPhone(browser, { viewport: { width: 390, height: 720 } });
    try {
      const hash = launchHash({
        user: newTelegramUser(730_000_000, () => ({ first_name: "Lena", language_code: "ru" })),
        platform: "android",
      });
      await page.goto(`${base()}/settings${hash}`);
      await page.locator("[data-settings-cell='profile']").waitFor({ timeout: 20_000 });
      await page.locator("[data-settings-cell='profile']").click();
      await page.locator("[data-settings-screen='profile']").waitFor({ timeout: 15_000 });
      const city = page.locator("[data-section='profile'] input[name='city']");
      await city.waitFor();
      // No save button on the page: the Main button says "Save" and is the submit.
      expect(await page.locator("[data-testid='submit-profile']").count()).toBe(0);
      const mainButton = async () =>
        (await postedEvents(page)).filter((e) => e.eventType === "web_app_setup_main_button").at(-1)?.eventData as
          | { is_visible?: boolean; text?: string }
          | undefined;
      await expect.poll(async () => (await mainButton())?.is_visible, { timeout: 15_000 }).toBe(true);
      expect((await mainButton())?.text).toBe(text("ru", "settings", "save"));
      await city.fill("Shymkent");
      await sendTelegramEvent(page, "main_button_pressed");
      await expect
        .poll(() => page.locator("[data-section='profile'] [data-testid='form-success']").innerText(), {
          timeout: 15_000,
        })
        .toBe(text("ru", "settings", "saved"));
      // Telegram's Back leads to the list.
      await sendTelegramEvent(page, "back_button_pressed");
      await page.locator("[data-settings-cell='profile']").waitFor({ timeout: 15_000 });
      expect(new URL(page.url()).pathname).toBe("/settings");
      // An account made in Telegram: its codes go to the Telegram chat, and the list says so.
      await expect
        .poll(() => page.locator("[data-settings-cell='security']").innerText())
        .toContain(text("ru", "settings", "security.channels.telegram"));
      await page.locator("[data-settings-cell='profile']").click();
      await expect.poll(() => city.inputValue(), { timeout: 15_000 }).toBe("Shymkent");
      // Opened directly (a link, the bot's menu) the screen has nothing in the app before it: Back leads to
      // the list, not out of the app to the page before the launch.
      // A new launch: another client's context, signed in by the init data alone.
      const { context: fresh, page: direct } = await telegramPhone(browser, { viewport: { width: 390, height: 720 } });
      await direct.goto(`${base()}/settings/profile${hash}`);
      await direct.locator("[data-settings-screen='profile']").waitFor({ timeout: 20_000 });
      await waitForPosted(
        direct,
        "web_app_setup_back_button",
        (d) => (d as { is_visible?: boolean }).is_visible === true,
      );
      await sendTelegramEvent(direct, "back_button_pressed");
      await direct.locator("[data-settings-cell='profile']").waitFor({ timeout: 15_000 });
      expect(new URL(direct.url()).pathname).toBe("/settings");
      await fresh.close();
    } finally {
      await context.close();
    }
  });

  it.runIf(SHOTS)(
    "takes the screenshots: list, profile and security at 320 px, light and dark, de and ru",
    async () => {
      const dir = SHOTS as string;
      mkdirSync(dir, { recursive: true });
      for (const lng of ["de", "ru"] as const) {
        for (const scheme of ["light", "dark"] as const) {
          const web = await webPage(lng, 320, scheme, 1000);
          const { page } = web;
          await openList(web);
          await shoot(page, join(dir, `settings-${lng}-${scheme}-list.png`));
          for (const name of ["profile", "security"]) {
            await openCell(page, name);
            await shoot(page, join(dir, `settings-${lng}-${scheme}-${name}.png`));
            await page.goBack();
            await page.locator("[data-settings-cell='profile']").waitFor();
          }
        }
      }
    },
  );
});
