/**
 * Kassa in Telegram's native clients: the bridge (`TelegramWebviewProxy`) as iOS, Android and
 * Telegram Desktop send it, with a notch and a home indicator (non-zero safe areas), fullscreen with
 * Telegram's controls over the content (content safe area). Nothing sits under the home indicator;
 * every money field has an accessible name; on iOS the session is kept in Telegram's SecureStorage,
 * on Desktop (no keychain; known to lose the webview's local storage between launches) in its
 * DeviceStorage, and survives the webview's cookies and storage being cleared.
 *
 * `E2E_SCREENSHOTS=<dir>` also saves each client's cabinet and refill screens there (`E2E_LANGUAGE=de`
 * for another language).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page, Route } from "playwright-core";
import { describe, expect, it } from "vitest";
import { base, telegramSessionThroughApi } from "./support/app";
import { creditedRefill } from "./support/cli";
import {
  DARK_THEME,
  type Insets,
  LIGHT_THEME,
  launchHash,
  newTelegramUser,
  postedEvents,
  sendTelegramEvent,
  signedInitData,
  waitForPosted,
} from "./support/telegram-client";
import { telegramFile, telegramPhone } from "./support/telegram-file";

const SHOTS = process.env.E2E_SCREENSHOTS;
/** The Telegram user's language (`E2E_LANGUAGE=de` for German screens); the assertions hold in any. */
const LANGUAGE = process.env.E2E_LANGUAGE ?? "en";
let browser: Browser;

telegramFile((shared) => {
  browser = shared;
});

const onScreen = (page: Page, name: string, timeout = 15_000) =>
  page.locator(`[data-screen='${name}']`).first().waitFor({ state: "visible", timeout });

/** The accessible name of a text field from its label, aria-label or aria-labelledby (not its placeholder). */
const accessibleNames = (page: Page) =>
  page.locator("input[inputmode='decimal'], input[name='txHash'], input[name='wallet']").evaluateAll((inputs) =>
    inputs.map((el) => {
      const input = el as HTMLInputElement;
      const byIds = (input.getAttribute("aria-labelledby") ?? "")
        .split(/\s+/)
        .map((id) => document.getElementById(id)?.textContent?.trim() ?? "")
        .join(" ")
        .trim();
      const byLabels = Array.from(input.labels ?? [])
        .map((label) => label.textContent?.trim() ?? "")
        .join(" ")
        .trim();
      return { name: input.name, accessibleName: byIds || input.getAttribute("aria-label")?.trim() || byLabels };
    }),
  );

type Shown = { is_visible?: boolean } | null;

/** The Telegram sign-ins (`POST /api/auth/telegram…`) the page makes from now on. */
function telegramSignIns(page: Page): string[] {
  const signIns: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname.startsWith("/api/auth/telegram"))
      signIns.push(request.url());
  });
  return signIns;
}

interface Client {
  platform: "ios" | "android" | "tdesktop";
  version: string;
  theme: Record<string, string>;
  safeArea: Insets;
  contentSafeArea: Insets;
  fullscreen: boolean;
  width: number;
  keychain?: Map<string, string>;
  deviceStorage?: Map<string, string>;
}

const CLIENTS: Client[] = [
  {
    // iPhone in fullscreen: notch and home indicator, Telegram's close and menu buttons over the content.
    platform: "ios",
    version: "9.0",
    theme: LIGHT_THEME,
    safeArea: { top: 59, bottom: 34, left: 0, right: 0 },
    contentSafeArea: { top: 46, bottom: 0, left: 0, right: 0 },
    fullscreen: true,
    width: 390,
    keychain: new Map(),
  },
  {
    // A small Android phone with gesture navigation, dark theme, no SecureStorage offered.
    platform: "android",
    version: "8.0",
    theme: DARK_THEME,
    safeArea: { top: 24, bottom: 24, left: 0, right: 0 },
    contentSafeArea: { top: 0, bottom: 0, left: 0, right: 0 },
    fullscreen: false,
    width: 320,
  },
  {
    // Telegram Desktop's Mini App window: no insets, SecureStorage refused, DeviceStorage answered.
    platform: "tdesktop",
    version: "9.0",
    theme: LIGHT_THEME,
    safeArea: { top: 0, bottom: 0, left: 0, right: 0 },
    contentSafeArea: { top: 0, bottom: 0, left: 0, right: 0 },
    fullscreen: false,
    width: 384,
    deviceStorage: new Map(),
  },
];

// Each test opens several screens; a loaded machine needs more than the default minute.
describe("inside Telegram's native clients (iOS, Android, Desktop)", { timeout: 150_000 }, () => {
  for (const client of CLIENTS) {
    it(`${client.platform}: nothing under the home indicator, money fields named, session kept`, async () => {
      const { context, page } = await telegramPhone(browser, {
        ...client,
        viewport: { width: client.width, height: 720 },
      });
      const signIns = telegramSignIns(page);
      // A long name with no space to break at: the greeting must not push Refresh off the screen.
      const user = newTelegramUser(700_000_000, (id) => ({
        first_name: `Maximilianus${id}Konstantinopolski`,
        username: `mo${id}`,
        language_code: LANGUAGE,
      }));
      const launch = () =>
        launchHash({
          user,
          theme: client.theme,
          platform: client.platform,
          version: client.version,
          fullscreen: client.fullscreen,
        });
      // Ready at the first paint, not after the session: the sign-in's reply is held until the app has told
      // the client it is ready (Telegram keeps its own loader up until then), and released anyway after 15 s.
      let readyBeforeSession: boolean | undefined;
      const holdSignIn = async (route: Route) => {
        readyBeforeSession ??= await waitForPosted(page, "web_app_ready", () => true, 15_000).then(
          () => true,
          () => false,
        );
        await route.continue();
      };
      await page.route("**/api/auth/telegram**", holdSignIn);
      await page.goto(`${base()}/${launch()}`);
      await onScreen(page, "cabinet");
      await page.unroute("**/api/auth/telegram**", holdSignIn);
      expect(readyBeforeSession, "web_app_ready while the session was still being made").toBe(true);
      const ready = await waitForPosted(page, "web_app_ready");
      const first = (await postedEvents(page))[0];
      console.log(
        `[ready] ${client.platform}: web_app_ready ${((ready.t ?? 0) - (first?.t ?? 0)).toFixed(0)} ms after ${first?.eventType}`,
      );

      // The tab bar ends above the home indicator, its labels included.
      const { bottom, labelBottom, viewport } = await page.locator(".tab-bar").evaluate((bar) => {
        const labels = Array.from(bar.querySelectorAll(".tab-bar-item > :last-child"));
        return {
          bottom: bar.getBoundingClientRect().bottom,
          labelBottom: Math.max(...labels.map((l) => l.getBoundingClientRect().bottom)),
          viewport: window.innerHeight,
        };
      });
      expect(bottom).toBeLessThanOrEqual(viewport);
      expect(labelBottom).toBeLessThanOrEqual(viewport - client.safeArea.bottom);
      // The content starts below the notch and, in fullscreen, below Telegram's own buttons.
      const top = await page.locator("main.cabinet-content").evaluate((el) => el.getBoundingClientRect().top);
      expect(top).toBeGreaterThanOrEqual(client.safeArea.top + client.contentSafeArea.top);
      // In the iOS look the cabinet's own blocks are rounded like telegram-ui's iOS sections (one shape per screen).
      if (client.platform === "ios") {
        // The stats bar mounts once the balance is on screen, after the screen itself.
        await page.locator(".stats-bar").waitFor({ timeout: 15_000 });
        const corners = await page
          .locator(".balance-hero-wrap, .stats-bar")
          .evaluateAll((blocks) => blocks.map((el) => getComputedStyle(el).borderTopLeftRadius));
        expect(corners).toEqual(["12px", "12px"]);
      }
      // Refresh stays on screen beside a long greeting, here and at 384 and 412 px.
      for (const width of [client.width, 384, 412]) {
        await page.setViewportSize({ width, height: 720 });
        const refresh = await page
          .locator("[data-testid='refresh-control']")
          .first()
          .evaluate((el) => ({ right: el.getBoundingClientRect().right, width: document.documentElement.clientWidth }));
        expect(refresh.right, `Refresh at ${width} px`).toBeLessThanOrEqual(refresh.width);
      }
      await page.setViewportSize({ width: client.width, height: 720 });
      // Every currency row shows its whole amount (a cell's title cuts what does not fit).
      const clipped = await page
        .locator("[data-testid^='currency-option-'] [data-testid='currency-held']")
        .evaluateAll((items) =>
          items
            .map((el) => el.parentElement ?? el)
            .filter((el) => el.scrollWidth > el.clientWidth)
            .map((el) => el.textContent),
        );
      expect(clipped).toEqual([]);
      if (SHOTS) {
        mkdirSync(SHOTS, { recursive: true });
        await page.screenshot({
          path: join(SHOTS, `telegram-${client.platform}-${client.width}-${LANGUAGE}-cabinet.png`),
        });
      }

      // Every money field has an accessible name, on this platform's look too. A form's screen shows
      // Telegram's Main button instead of the tab bar; Telegram's Back button leads out of it.
      const fields: { name: string; accessibleName: string }[] = [];
      for (const screen of ["refill", "deposits", "withdrawal"]) {
        await page.locator(`[data-testid='tab-${screen}']`).click();
        await onScreen(page, screen);
        if (screen === "deposits") {
          // Deposits shows the investor's deposits first; its Main button ("Open a deposit") opens the form's sheet.
          const mainShown = async () =>
            (
              (await postedEvents(page)).filter((e) => e.eventType === "web_app_setup_main_button").at(-1)
                ?.eventData as Shown
            )?.is_visible === true;
          await expect.poll(mainShown, { timeout: 15_000 }).toBe(true);
          await sendTelegramEvent(page, "main_button_pressed");
        }
        await page.locator("input[name='amount']").first().waitFor({ timeout: 15_000 });
        await expect.poll(() => page.locator(".tab-bar").count(), { timeout: 15_000 }).toBe(0);
        fields.push(...(await accessibleNames(page)));
        // The amount's and the form's first select's labels can be seen, on the iOS look too
        // (telegram-ui shows no header there).
        // The withdrawal history's date filters too: in the iOS look telegram-ui draws no header.
        const dates = screen === "withdrawal" ? ["input[name='from']", "input[name='to']"] : [];
        for (const control of dates) await page.locator(control).first().waitFor({ state: "attached" });
        for (const control of ["input[name='amount']", "form select", ...dates]) {
          const label = await page
            .locator(control)
            .first()
            .evaluate(
              (el) => (el as HTMLInputElement).labels?.[0]?.textContent?.trim() ?? el.getAttribute("aria-label"),
            );
          const seen = await page
            .locator(control)
            .first()
            .evaluate((el) => {
              const visible = (node: Element) => {
                const box = (node as HTMLElement).getBoundingClientRect();
                const style = getComputedStyle(node);
                return box.width > 0 && box.height > 0 && style.visibility !== "hidden" && style.display !== "none";
              };
              const field = el.closest(".form-field, .select-field") ?? el.parentElement?.parentElement ?? el;
              return Array.from(field.querySelectorAll(".field-label, .field-title"))
                .filter(visible)
                .map((node) => node.textContent?.trim());
            });
          expect(seen, `${screen}: ${control}`).toContain(label);
        }
        if (SHOTS && screen === "refill")
          await page.screenshot({
            path: join(SHOTS, `telegram-${client.platform}-${client.width}-${LANGUAGE}-refill.png`),
          });
        if (screen === "deposits") {
          // Back closes the sheet first, then leads out of the screen.
          await sendTelegramEvent(page, "back_button_pressed");
          await expect.poll(() => page.locator("input[name='amount']").count(), { timeout: 15_000 }).toBe(0);
        }
        // Telegram's Back is shown now (the last word on it; a hide told late may have been cancelled).
        const backShown = async () =>
          (
            (await postedEvents(page)).filter((e) => e.eventType === "web_app_setup_back_button").at(-1)
              ?.eventData as Shown
          )?.is_visible === true;
        await expect.poll(backShown, { timeout: 15_000 }).toBe(true);
        await sendTelegramEvent(page, "back_button_pressed");
        await onScreen(page, "cabinet");
      }
      await page.locator("[data-testid='open-exchange']").click();
      await page.locator("input[name='amount']").first().waitFor();
      fields.push(...(await accessibleNames(page)));
      expect(fields.filter((f) => f.name === "amount").length).toBeGreaterThanOrEqual(4);
      expect(fields.filter((f) => !f.accessibleName)).toEqual([]);

      expect(signIns).toHaveLength(1);
      const kept = client.keychain ?? client.deviceStorage;
      if (kept) {
        // iOS keeps the token in the keychain, Desktop in its DeviceStorage: cleared cookies and
        // storage do not sign the user out, and no new Telegram sign-in is made.
        await expect.poll(() => kept.get("kassa_refresh_token") ?? "", { timeout: 15_000 }).toMatch(/\S+/);
        await context.clearCookies();
        await page.evaluate(() => localStorage.clear());
        await page.goto(`${base()}/${launch()}`);
        await onScreen(page, "cabinet");
        expect(signIns).toHaveLength(1);
      }
      await context.close();
    });
  }

  it("iOS biometric lock: nothing opens without Face ID (failed, cancelled, access denied, unavailable, token missing); off, kept as before; no biometrics, no switch", async () => {
    const keychain = new Map<string, string>();
    const { context, page } = await telegramPhone(browser, {
      viewport: { width: 390, height: 720 },
      keychain,
      biometrics: { available: true, grant: true },
    });
    const signIns = telegramSignIns(page);
    const user = newTelegramUser(710_000_000, (id) => ({
      first_name: "Bio",
      username: `bio${id}`,
      language_code: "en",
    }));
    const launch = () =>
      launchHash({
        user,
        platform: "ios",
        version: "9.0",
      });
    const lockSwitch = page.locator("[data-testid='biometric-lock']");
    const lockCell = page.locator("label:has([data-testid='biometric-lock'])").first();
    const biometricToken = () => page.evaluate(() => sessionStorage.getItem("tg-biometry-token"));
    // The Mini App closed and opened again (a new document, not a change of the address's fragment).
    const reopen = async () => {
      await page.goto("about:blank");
      await page.goto(`${base()}/${launch()}`);
      await onScreen(page, "cabinet");
    };
    const reopenLocked = async () => {
      await page.goto("about:blank");
      await page.goto(`${base()}/${launch()}`);
      await onScreen(page, "locked");
    };
    const openSettings = async () => {
      await page.locator("[data-testid='tab-more']").click();
      await page.locator("a[href='/settings']").first().click();
      await onScreen(page, "settings");
      await page.locator("[data-settings-cell='security']").click();
      await page.locator("[data-settings-screen='security']").waitFor();
      await lockSwitch.waitFor({ state: "attached", timeout: 15_000 });
    };
    await page.goto(`${base()}/${launch()}`);
    await onScreen(page, "cabinet");
    await expect.poll(() => keychain.get("kassa_refresh_token") ?? "", { timeout: 15_000 }).toMatch(/\S+/);

    // On: the token leaves the keychain for the biometric token store.
    await openSettings();
    expect(await lockSwitch.isChecked()).toBe(false);
    await lockCell.click();
    await expect.poll(() => lockSwitch.isChecked(), { timeout: 15_000 }).toBe(true);
    expect(keychain.has("kassa_refresh_token")).toBe(false);
    expect(await biometricToken()).toMatch(/\S+/);

    // Reopened: Face ID is asked, and the same session goes on (no new sign-in, no token update: Android would
    // prompt for it a second time).
    await context.clearCookies();
    await page.evaluate(() => localStorage.clear());
    const tokenBefore = await biometricToken();
    await reopen();
    await waitForPosted(page, "web_app_biometry_request_auth");
    expect(signIns).toHaveLength(1);
    await page.waitForTimeout(500);
    expect((await postedEvents(page)).filter((e) => e.eventType === "web_app_biometry_update_token")).toEqual([]);

    // A busy phone answers every question late (longer than the storages are waited for): the lock still holds,
    // Face ID is asked, and the same session goes on.
    await page.evaluate(() => sessionStorage.setItem("tg-answer-delay", "1500"));
    await reopen();
    await waitForPosted(page, "web_app_biometry_request_auth");
    expect(signIns).toHaveLength(1);
    await page.evaluate(() => sessionStorage.removeItem("tg-answer-delay"));

    // Face ID fails or is cancelled: the locked screen, nothing else — no Telegram sign-in, no cabinet, and the
    // biometric token stays for the next check. "Try again" that passes opens the same session.
    for (const answer of ["failed", "cancelled"]) {
      await page.evaluate((a) => sessionStorage.setItem("tg-biometry-answer", a), answer);
      await reopenLocked();
      await page.locator("[data-testid='lock-try-again']").waitFor();
      expect(await page.locator("[data-screen='cabinet']").count()).toBe(0);
      expect(signIns).toHaveLength(1);
      expect(await biometricToken()).toBe(tokenBefore);
      await page.evaluate(() => sessionStorage.removeItem("tg-biometry-answer"));
      await page.locator("[data-testid='lock-try-again']").click();
      await onScreen(page, "cabinet");
      expect(signIns).toHaveLength(1);
    }

    // "Sign in another way": the login asks for the password; Telegram does not sign in, silently or by a button.
    await page.evaluate(() => sessionStorage.setItem("tg-biometry-answer", "cancelled"));
    await reopenLocked();
    await page.locator("[data-testid='lock-another-way']").click();
    await onScreen(page, "login");
    await page.locator("input[name='password']").waitFor();
    await page.waitForTimeout(1000);
    expect(await page.locator("[data-testid='telegram-sign-in']").count()).toBe(0);
    expect(signIns).toHaveLength(1);
    expect(await biometricToken()).toBe(tokenBefore);
    await page.evaluate(() => sessionStorage.removeItem("tg-biometry-answer"));

    // Access refused in Telegram's settings: the locked screen leads there; allowed again, Try again opens.
    await page.evaluate(() => sessionStorage.removeItem("tg-biometry-granted"));
    await reopenLocked();
    await page.locator("[data-testid='lock-open-settings']").click();
    await waitForPosted(page, "web_app_biometry_open_settings");
    await page.evaluate(() => sessionStorage.setItem("tg-biometry-granted", "1"));
    await page.locator("[data-testid='lock-try-again']").click();
    await onScreen(page, "cabinet");
    expect(signIns).toHaveLength(1);

    // Biometrics removed from the phone: still locked.
    await page.evaluate(() => sessionStorage.setItem("tg-biometry-unavailable", "1"));
    await reopenLocked();
    expect(signIns).toHaveLength(1);
    await page.evaluate(() => sessionStorage.removeItem("tg-biometry-unavailable"));

    // The biometric token gone (the client dropped it): the lock stays on; after a passed check Telegram signs in,
    // and the new session goes behind the lock, not to the keychain.
    await page.evaluate(() => sessionStorage.removeItem("tg-biometry-token"));
    await reopen();
    expect(signIns).toHaveLength(2);
    await expect.poll(() => biometricToken(), { timeout: 15_000 }).toMatch(/\S+/);
    expect(keychain.has("kassa_refresh_token")).toBe(false);

    // Off: the token goes back to the keychain and a launch asks for no Face ID.
    await openSettings();
    await expect.poll(() => lockSwitch.isChecked(), { timeout: 15_000 }).toBe(true);
    await lockCell.click();
    await expect.poll(() => lockSwitch.isChecked(), { timeout: 15_000 }).toBe(false);
    await expect.poll(() => keychain.get("kassa_refresh_token") ?? "", { timeout: 15_000 }).toMatch(/\S+/);
    expect(await biometricToken()).toBeNull();
    await reopen();
    expect((await postedEvents(page)).some((e) => e.eventType === "web_app_biometry_request_auth")).toBe(false);
    expect(signIns).toHaveLength(2);
    await context.close();

    // Access refused by the user: the switch stays off and says why. No biometrics: no switch.
    for (const biometrics of [
      { available: true, grant: false },
      { available: false, grant: false },
    ]) {
      const { context: other, page: phone } = await telegramPhone(browser, {
        viewport: { width: 390, height: 720 },
        keychain: new Map(),
        biometrics,
      });
      const hash = launchHash({
        user: newTelegramUser(720_000_000, () => ({ first_name: "Bio", language_code: "en" })),
        platform: "ios",
        version: "9.0",
      });
      await phone.goto(`${base()}/settings/security${hash}`);
      await phone.locator("[data-settings-screen='security']").waitFor();
      await phone.locator("[data-section='security'] input[name='codeChannel']").first().waitFor({ state: "attached" });
      const toggle = phone.locator("[data-testid='biometric-lock']");
      if (!biometrics.available) {
        expect(await toggle.count()).toBe(0);
      } else {
        await toggle.waitFor({ state: "attached" });
        await phone.locator("label:has([data-testid='biometric-lock'])").first().click();
        await phone.locator("[data-testid='biometric-lock-refused']").waitFor();
        expect(await toggle.isChecked()).toBe(false);
        if (SHOTS) {
          mkdirSync(SHOTS, { recursive: true });
          await phone.locator("[data-testid='biometric-lock-refused']").scrollIntoViewIfNeeded();
          await phone.screenshot({ path: join(SHOTS, `telegram-ios-390-${LANGUAGE}-biometric-lock-refused.png`) });
        }
        // The way to give access back: Telegram's biometric settings for this bot.
        await phone.locator("[data-testid='biometric-lock-open-settings']").click();
        await waitForPosted(phone, "web_app_biometry_open_settings");
      }
      await other.close();
    }
  });

  it("Android, ru at 320 px: after a deposit opens, Add to Home Screen is offered once, fits, and opens the client's own prompt", async () => {
    const { context, page } = await telegramPhone(browser, {
      theme: DARK_THEME,
      viewport: { width: 320, height: 720 },
      homeScreen: "missed",
    });
    // Russian: the longest button labels of the four languages.
    const initData = signedInitData(newTelegramUser(730_000_000, () => ({ first_name: "Home", language_code: "ru" })));
    await creditedRefill((await telegramSessionThroughApi(initData)).token, "500");
    const hash = launchHash({ initData, theme: DARK_THEME, platform: "android", version: "8.0" });
    const mainButton = async () =>
      (await postedEvents(page)).filter((e) => e.eventType === "web_app_setup_main_button").at(-1)?.eventData as {
        is_visible?: boolean;
        is_progress_visible?: boolean;
      } | null;
    /** Opens a deposit of 100 USDT with Telegram's Main button, as on the phone. */
    const openDeposit = async () => {
      await onScreen(page, "deposits");
      await expect.poll(async () => (await mainButton())?.is_visible, { timeout: 15_000 }).toBe(true);
      await sendTelegramEvent(page, "main_button_pressed");
      await page.locator("input[name='amount']").first().fill("100");
      await sendTelegramEvent(page, "main_button_pressed");
      await page.locator("[data-testid='deposit-confirmation']").waitFor({ timeout: 15_000 });
      await expect.poll(async () => (await mainButton())?.is_progress_visible, { timeout: 15_000 }).toBe(false);
      await sendTelegramEvent(page, "main_button_pressed");
      await page.locator("[data-testid='form-success']").waitFor({ timeout: 15_000 });
    };
    await page.goto(`${base()}/deposits${hash}`);
    await openDeposit();
    const offer = page.locator("[data-testid='home-screen-offer']");
    await offer.waitFor({ timeout: 15_000 });
    if (SHOTS) {
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: join(SHOTS, "telegram-android-320-ru-home-screen-offer.png") });
    }
    // Nothing of it runs past the screen's edge.
    const overflow = await offer.evaluate((el) =>
      Array.from(el.querySelectorAll("*"))
        .filter((node) => node.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
        .map((node) => node.textContent?.trim()),
    );
    expect(overflow).toEqual([]);
    await offer.getByRole("button").first().click();
    await waitForPosted(page, "web_app_add_to_home_screen");
    await expect.poll(() => offer.count(), { timeout: 15_000 }).toBe(0);
    // The next launch and the next deposit: the offer is not made again, and the client is not asked.
    await page.goto("about:blank");
    await page.goto(`${base()}/deposits${hash}`);
    await openDeposit();
    expect((await postedEvents(page)).filter((e) => e.eventType === "web_app_check_home_screen")).toEqual([]);
    expect(await offer.count()).toBe(0);
    await context.close();
  });
});
