/**
 * Kassa hosted as Telegram Web (K and A) hosts it: a cross-site iframe on https://web.telegram.org,
 * postMessage protocol, Chromium's third-party cookie blocking and storage partitioning on. The
 * session survives the frame being closed and reopened (Telegram sign-in: without a new sign-in, even
 * with stale init data; password sign-in: without signing in again); the Back button, the Main button
 * and a theme change work; and a client that never answers the safe-area requests (Web K) still gets
 * a ready, expanded app.
 */
import type { Browser, Frame } from "playwright-core";
import { describe, expect, it } from "vitest";
import { base, readNotifications, signUpThroughApi } from "./support/app";
import { kassaCli } from "./support/cli";
import { DARK_THEME, LIGHT_THEME, newTelegramUser, signedInitData, type TelegramUser } from "./support/telegram-client";
import { setTelegramSignIn, telegramFile } from "./support/telegram-file";
import { APP_ORIGIN, openTelegramWeb, TELEGRAM_WEB_ARGS, waitForFramePosted } from "./support/telegram-web";

const DAY_MS = 24 * 60 * 60 * 1000;
/** `E2E_SCREENSHOTS=<dir>`: also save Telegram Web with the app in its frame, light and dark. */
const SHOTS = process.env.E2E_SCREENSHOTS;
/** Longer than the app's start (its first screen coming in), during which a hidden Back waits anyway. */
const BACK_START_OVER_MS = 4_000;
let browser: Browser;

telegramFile((shared) => {
  browser = shared;
}, TELEGRAM_WEB_ARGS);

const onScreen = (frame: Frame, name: string, timeout = 15_000) =>
  frame.locator(`[data-screen='${name}']`).first().waitFor({ state: "visible", timeout });
const visible = (data: unknown) => (data as { is_visible?: boolean } | null)?.is_visible;
const tgUser = (from: number): TelegramUser =>
  newTelegramUser(from, (id) => ({ first_name: "Wen", username: `wen${id}`, language_code: "en" }));

// Each test opens several screens in a busy browser; a loaded machine needs more than the default minute.
describe("inside Telegram Web (cross-site iframe, third-party rules on)", { timeout: 150_000 }, () => {
  it("Web A: Telegram sign-in, then reopening with fresh or stale init data reuses the kept session", async () => {
    await setTelegramSignIn(true);
    const web = await openTelegramWeb(browser, base(), "a");
    // What the app's own site keeps at the top level is not what its frame under Telegram sees.
    const top = await web.context.newPage();
    await top.goto(`${APP_ORIGIN}/api/health`);
    await top.evaluate(() => localStorage.setItem("kassa.probe", "top-level"));
    await top.close();

    const user = tgUser(800_000_000);
    const launch = (authDate: Date) => ({
      initData: signedInitData(user, { authDate, startParam: "ref_demo" }),
      platform: "weba" as const,
      version: "9.1",
      startParam: "ref_demo",
    });
    let frame = await web.mount(launch(new Date()));
    // The rules are on: storage is partitioned, a plain third-party cookie is refused, a partitioned one kept.
    expect(
      await frame.evaluate(() => {
        // biome-ignore lint/suspicious/noDocumentCookie: probing the browser's third-party cookie rules
        document.cookie = "probe_plain=1; Path=/; SameSite=None; Secure";
        // biome-ignore lint/suspicious/noDocumentCookie: probing the browser's third-party cookie rules
        document.cookie = "probe_partitioned=1; Path=/; SameSite=None; Secure; Partitioned";
        return {
          storage: localStorage.getItem("kassa.probe"),
          plain: document.cookie.includes("probe_plain"),
          partitioned: document.cookie.includes("probe_partitioned"),
        };
      }),
    ).toEqual({ storage: null, plain: false, partitioned: true });

    await onScreen(frame, "cabinet");
    await waitForFramePosted(web, "web_app_ready");
    await waitForFramePosted(web, "web_app_expand");
    const signIns = () => web.requests.filter((r) => r.startsWith("POST /api/auth/telegram")).length;
    expect(signIns()).toBe(1);

    // Closed and opened again from the chat: fresh init data, the kept session, no second sign-in.
    await web.unmount();
    frame = await web.mount(launch(new Date()));
    await onScreen(frame, "cabinet");
    expect(signIns()).toBe(1);
    // The kept token checked by the painted first screen's call (its reply carries the user's, as `GET /user/me`).
    expect(web.requests).toContain("GET /api/app/first-screen");

    // Reopened from an old message: init data three days old. The kept session is good: no error.
    await web.unmount();
    frame = await web.mount(launch(new Date(Date.now() - 3 * DAY_MS)));
    await onScreen(frame, "cabinet");
    expect(signIns()).toBe(1);
    expect(await frame.locator(".alert-error").count()).toBe(0);
    await web.context.close();
  });

  for (const client of ["k", "a"] as const) {
    it(`Web ${client.toUpperCase()}: ready at once, swipes on from launch, Copy without clipboard-write, sheets own the bottom bar and Back`, async () => {
      await setTelegramSignIn(true);
      const published = await kassaCli("news", "add", "--title-en", "Quarter report", "--body-en", "<p>Figures</p>");
      const newsId = /News (\S+) published/.exec(published)?.[1];
      const web = await openTelegramWeb(browser, base(), client);
      const platform = client === "k" ? "webk" : "weba";
      // Ready as soon as the first screen is on, without waiting for the network: with every API call held,
      // Telegram is still told (its loading placeholder gives way to the app's own), and no storage the client
      // lacks is asked for. Both clients report a Bot API past 9.0 (SecureStorage, DeviceStorage), which
      // neither keeps.
      const release = web.holdApi();
      const frame = await web.mount({ initData: signedInitData(tgUser(600_000_000)), platform, version: "9.1" });
      await waitForFramePosted(web, "web_app_ready", () => true, 60_000);
      await expect.poll(() => web.requests.some((r) => r.includes(" /api/")), { timeout: 60_000 }).toBe(true);
      release();
      await onScreen(frame, "cabinet");
      const events = await web.events();
      expect.soft(events.filter((e) => /storage/.test(e.eventType)).map((e) => e.eventType)).toEqual([]);
      // Vertical swipes are on from launch (not only after a money form was left).
      const swipes = () =>
        web
          .events()
          .then((all) =>
            all
              .filter((e) => e.eventType === "web_app_setup_swipe_behavior")
              .map((e) => (e.eventData as { allow_vertical_swipe: boolean }).allow_vertical_swipe),
          );
      expect.soft(await swipes(), "swipes at launch").toEqual([true]);

      // The Exchange sheet over the cabinet: Back shows (never Close) and closes the sheet, not the app.
      await frame.locator("[data-testid='open-exchange']").click();
      await frame.locator("[data-testid='exchange-dialog']").waitFor();
      await waitForFramePosted(web, "web_app_setup_back_button", (d) => visible(d) === true);
      await web.send("back_button_pressed");
      await frame.locator("[data-testid='exchange-dialog']").waitFor({ state: "detached" });
      await onScreen(frame, "cabinet");
      await waitForFramePosted(web, "web_app_setup_back_button", (d) => visible(d) === false);
      expect((await web.events()).some((e) => e.eventType === "web_app_close")).toBe(false);

      // A refill: the form's Main button gets the address; the sheet then owns the bottom bar.
      await frame.locator("[data-testid='tab-refill']").click();
      await onScreen(frame, "refill");
      await waitForFramePosted(web, "web_app_setup_main_button", (d) => visible(d) === true);
      await frame.locator("select[name='paymentSystemId']").selectOption("usdt-trc20");
      await frame.locator("input[name='amount']").fill("50");
      await web.send("main_button_pressed");
      await frame.locator("[data-testid='wallet-dialog']").waitFor();
      const lastMain = async () =>
        (await web.events()).filter((e) => e.eventType === "web_app_setup_main_button").at(-1)?.eventData;
      await expect.poll(async () => visible(await lastMain()), { timeout: 10_000 }).toBe(false);
      const refills = () => web.requests.filter((r) => r === "POST /api/funds/refills").length;
      expect(refills()).toBe(1);
      await web.send("main_button_pressed");
      await frame.waitForTimeout(300);
      expect(refills()).toBe(1);

      // An in-page primary button: Telegram's button colour moved only as far as 4.5:1 needs (the theme's
      // #2481cc reads at 4.1:1 under white), not darkened by a fixed 22 % (6.3:1).
      const fillContrast = await frame.locator("[data-testid='save-tx-hash']").evaluate((el) => {
        // rgb(…) in 0–255, or color(srgb …) in 0–1 (what color-mix gives).
        const channels = (color: string) => {
          const values = (color.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
          return color.startsWith("color(") ? values.map((v) => v * 255) : values;
        };
        const lum = (color: string) => {
          const [r = 0, g = 0, b = 0] = channels(color).map((v) => {
            const c = v / 255;
            return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
          });
          return 0.2126 * r + 0.7152 * g + 0.0722 * b;
        };
        const style = getComputedStyle(el);
        const [hi, lo] = [lum(style.backgroundColor), lum(style.color)].sort((a, b) => b - a) as [number, number];
        return (hi + 0.05) / (lo + 0.05);
      });
      expect.soft(fillContrast, "primary button contrast").toBeGreaterThanOrEqual(4.5);
      expect.soft(fillContrast, "primary button contrast").toBeLessThan(4.75);

      if (SHOTS) await web.page.screenshot({ path: `${SHOTS}/telegram-web${client}-wallet-sheet.png` });
      // Copy in a frame without clipboard-write: the address reaches the clipboard, and the button says so.
      await web.page.evaluate(() => navigator.clipboard.writeText("before"));
      const address = (await frame.locator("[data-testid='refill-address']").textContent())?.trim();
      await frame.locator("[data-testid='copy-address']").click();
      await expect.poll(() => web.clipboard(), { timeout: 10_000 }).toBe(address);
      await expect.poll(() => frame.locator("[data-testid='copy-address']").textContent()).toMatch(/copied/i);

      // Back closes the sheet and leaves the screen as it was, its Main button back.
      await waitForFramePosted(web, "web_app_setup_back_button", (d) => visible(d) === true);
      await web.send("back_button_pressed");
      await frame.locator("[data-testid='wallet-dialog']").waitFor({ state: "detached" });
      await onScreen(frame, "refill");
      await expect.poll(async () => visible(await lastMain()), { timeout: 10_000 }).toBe(true);

      // A reload of the form's screen on a slow network (every answer a second late and every file 0.6 s, the calls held
      // until the start is long over): Back stays on throughout, while the screen's code, the session and the form's systems
      // come in (no "hidden" then "shown" again).
      const beforeReload = (await web.events()).length;
      web.slowDown({ api: 1_000, files: 600 });
      // Whether the reloaded app said a load fault (a file later than its deadline, as a busy machine makes them):
      // the error screen has no form, so Back rightly goes while it shows.
      await web.context.addInitScript(() => {
        new MutationObserver((_, observer) => {
          if (!document.querySelector("[data-screen='error']")) return;
          (window as unknown as { __faultSaid: boolean }).__faultSaid = true;
          observer.disconnect();
        }).observe(document, { subtree: true, childList: true });
      });
      const releaseReload = web.holdApi();
      await frame.evaluate(() => window.location.reload());
      await expect
        .poll(async () => (await web.events()).slice(beforeReload).some((e) => e.eventType === "web_app_ready"), {
          timeout: 15_000,
        })
        .toBe(true);
      await frame.waitForTimeout(BACK_START_OVER_MS);
      releaseReload();
      await onScreen(frame, "refill");
      await frame.locator("input[name='amount']").waitFor({ timeout: 30_000 });
      web.slowDown({ api: 0, files: 0 });
      await frame.waitForTimeout(800);
      const afterReload = (await web.events()).slice(beforeReload);
      const backAfterReload = afterReload
        .filter((e) => e.eventType === "web_app_setup_back_button")
        .map((e) => visible(e.eventData));
      // On a failure, everything the app told the client since the reload, in order.
      const told = afterReload.map(
        (e) => `${e.eventType}${visible(e.eventData) === undefined ? "" : `:${visible(e.eventData)}`}`,
      );
      const faultSaid = await frame.evaluate(
        () => (window as unknown as { __faultSaid?: boolean }).__faultSaid === true,
      );
      if (faultSaid) {
        console.log(`[kassa] the reload said a load fault on this busy machine; Back: ${backAfterReload.join(" ")}`);
        expect.soft(backAfterReload.at(-1), `Back after a reload (${told.join(" ")})`).toBe(true);
      } else expect.soft(backAfterReload, `Back after a reload (${told.join(" ")})`).not.toContain(false);

      // The referral link: Copy, and Share (Web A copies, since it closes the app on a t.me link).
      await web.send("back_button_pressed");
      await onScreen(frame, "cabinet");
      await frame.locator("[data-testid='tab-more']").click();
      await onScreen(frame, "more");
      // The lines between a section's rows take the theme's section_separator_color.
      const separator = await frame
        .locator("section hr")
        .first()
        .evaluate((el) => getComputedStyle(el).borderBottomColor.replace(/\s/g, ""));
      expect.soft(separator, "section separator").toBe("rgb(227,227,232)");
      // A news item: Telegram's Back leads to the list, so the page shows no "← All news" of its own.
      await frame.locator("a[href='/news']").first().click();
      await onScreen(frame, "news");
      await frame.locator(`[data-news-id='${newsId}']`).click();
      await frame.locator("[data-testid='news-title']").waitFor();
      await waitForFramePosted(web, "web_app_setup_back_button", (d) => visible(d) === true);
      expect.soft(await frame.locator("[data-testid='news-back']").count(), "in-page back on a news item").toBe(0);
      await web.send("back_button_pressed");
      await onScreen(frame, "news");
      await web.send("back_button_pressed");
      await onScreen(frame, "more");
      await frame.locator("a[href='/partners']").first().click();
      await onScreen(frame, "partners");
      const link = (await frame.locator("[data-testid='referral-link-web']").textContent())?.trim();
      await web.page.evaluate(() => navigator.clipboard.writeText("before"));
      await frame.locator("[data-testid='copy-referral-link'][data-link='web']").click();
      await expect.poll(() => web.clipboard(), { timeout: 10_000 }).toBe(link);
      if (client === "a") {
        await web.page.evaluate(() => navigator.clipboard.writeText("before"));
        await frame.locator("[data-testid='share-referral-link'][data-link='web']").click();
        await expect.poll(() => web.clipboard(), { timeout: 10_000 }).toBe(link);
      }
      if (SHOTS) await web.page.screenshot({ path: `${SHOTS}/telegram-web${client}-partners.png` });

      // Both ways of copying refused (a stricter client): the text is shown selected with a hint, and the
      // button does not say "Copied".
      const telegramLink = (await frame.locator("[data-testid='referral-link-telegram']").textContent())?.trim();
      await web.page.evaluate(() => navigator.clipboard.writeText("before"));
      await frame.evaluate(() => {
        document.execCommand = () => false;
      });
      const copyTelegram = frame.locator("[data-testid='copy-referral-link'][data-link='telegram']");
      await copyTelegram.click();
      const manual = frame.locator("[data-testid='manual-copy-text']");
      await manual.waitFor();
      await expect
        .poll(() =>
          manual.evaluate((el) => {
            const area = el as HTMLTextAreaElement;
            return area.value.slice(area.selectionStart, area.selectionEnd);
          }),
        )
        .toBe(telegramLink);
      expect(await copyTelegram.textContent()).not.toMatch(/copied/i);
      expect(await web.clipboard()).toBe("before");
      if (SHOTS) await web.page.screenshot({ path: `${SHOTS}/telegram-web${client}-copy-by-hand.png` });
      // It is a sheet like the others: Back closes it.
      await waitForFramePosted(web, "web_app_setup_back_button", (d) => visible(d) === true);
      await web.send("back_button_pressed");
      await frame.locator("[data-testid='manual-copy']").waitFor({ state: "detached" });
      await onScreen(frame, "partners");
      await web.context.close();
    });
  }

  it("Web K: password sign-in kept after the frame is re-inserted; Back, Main button, theme; ready without safe-area answers", async () => {
    await setTelegramSignIn(false);
    const investor = await signUpThroughApi();
    await readNotifications(investor.token);
    const web = await openTelegramWeb(browser, base(), "k", LIGHT_THEME);
    const launch = () => ({
      initData: signedInitData(tgUser(900_000_000)),
      platform: "webk" as const,
    });

    let frame = await web.mount(launch());
    await onScreen(frame, "login");
    // Web K never answers web_app_request_safe_area: the app is ready and expanded all the same.
    await waitForFramePosted(web, "web_app_request_safe_area");
    await waitForFramePosted(web, "web_app_ready");
    await waitForFramePosted(web, "web_app_expand");

    await frame.locator("input[name='login']").fill(investor.login);
    await frame.locator("input[name='password']").fill("Ledger2026go");
    // Inside Telegram the form's submit is Telegram's Main button.
    await waitForFramePosted(web, "web_app_setup_main_button", (d) => visible(d) === true);
    await web.send("main_button_pressed");
    await onScreen(frame, "cabinet");

    // The user closes the Mini App and opens it again: still signed in, no login screen.
    await web.unmount();
    frame = await web.mount(launch());
    await onScreen(frame, "cabinet");
    expect(web.requests.filter((r) => r === "POST /api/auth/login")).toHaveLength(1);

    // Telegram's theme changes live; the tab bar takes the theme's bottom-bar colour.
    const tabBarColour = () =>
      frame.locator(".tab-bar").evaluate((el) => getComputedStyle(el).backgroundColor.replace(/\s/g, ""));
    await expect.poll(tabBarColour, { timeout: 15_000 }).toBe("rgb(247,247,249)");
    if (SHOTS) await web.page.screenshot({ path: `${SHOTS}/telegram-webk-light-cabinet.png` });
    await web.send("theme_changed", { theme_params: DARK_THEME });
    await expect
      .poll(
        () => frame.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--tg-theme-bg-color")),
        { timeout: 15_000 },
      )
      .toBe(DARK_THEME.bg_color);
    await expect.poll(tabBarColour, { timeout: 15_000 }).toBe("rgb(30,44,58)");
    if (SHOTS) await web.page.screenshot({ path: `${SHOTS}/telegram-webk-dark-cabinet.png` });

    // Back: shown below the top level, and pressing it goes back.
    await frame.locator("[data-testid='tab-more']").click();
    await onScreen(frame, "more");
    await frame.locator("a[href='/partners']").first().click();
    await onScreen(frame, "partners");
    await waitForFramePosted(web, "web_app_setup_back_button", (d) => visible(d) === true);
    await web.send("back_button_pressed");
    await onScreen(frame, "more");
    await waitForFramePosted(web, "web_app_setup_back_button", (d) => visible(d) === false);

    // A money form: Telegram's Main button is its submit, the tab bar steps aside, swipes only scroll.
    await frame.locator("[data-testid='tab-refill']").click();
    await onScreen(frame, "refill");
    await waitForFramePosted(web, "web_app_setup_main_button", (d) => visible(d) === true);
    await waitForFramePosted(
      web,
      "web_app_setup_swipe_behavior",
      (d) => (d as { allow_vertical_swipe?: boolean }).allow_vertical_swipe === false,
    );
    await expect.poll(() => frame.locator(".tab-bar").count(), { timeout: 15_000 }).toBe(0);
    await frame.locator("select[name='paymentSystemId']").selectOption("usdt-trc20");
    await frame.locator("input[name='amount']").fill("50");
    await web.send("main_button_pressed");
    await frame.locator("[data-testid='wallet-dialog']").waitFor();
    await web.context.close();
  });
});
