/**
 * Kassa hosted as Telegram Web (K and A) hosts it: a cross-site iframe on https://web.telegram.org,
 * postMessage protocol, Chromium's third-party cookie blocking and storage partitioning on. The
 * session survives the frame being closed and reopened (Telegram sign-in: without a new sign-in, even
 * with stale init data; password sign-in: without signing in again); the Back button, the Main button
 * and a theme change work; and a client that never answers the safe-area requests (Web K) still gets
 * a ready, expanded app.
 */
import type { Browser, Frame } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { base, readNotifications, signUpThroughApi } from "./support/app";
import { kassaCli } from "./support/cli";
import { DARK_THEME, LIGHT_THEME, signedInitData } from "./support/telegram-client";
import { APP_ORIGIN, launchChromiumAsTelegramWeb, openTelegramWeb, waitForFramePosted } from "./support/telegram-web";

const DEV_BOT_TOKEN = "123456789:KASSA-DEVELOPMENT-TOKEN-not-for-production";
const DAY_MS = 24 * 60 * 60 * 1000;
/** `E2E_SCREENSHOTS=<dir>`: also save Telegram Web with the app in its frame, light and dark. */
const SHOTS = process.env.E2E_SCREENSHOTS;
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromiumAsTelegramWeb();
});
afterAll(async () => {
  await kassaCli("settings", "set", "telegramAuthAvailable", "true").catch(() => undefined);
  await browser?.close();
});

const onScreen = (frame: Frame, name: string, timeout = 15_000) =>
  frame.locator(`[data-screen='${name}']`).first().waitFor({ state: "visible", timeout });
const visible = (data: unknown) => (data as { is_visible?: boolean } | null)?.is_visible;
const tgUser = (id: number) => ({ id, first_name: "Wen", username: `wen${id}`, language_code: "en" });

// Each test opens several screens in a busy browser; a loaded machine needs more than the default minute.
describe("inside Telegram Web (cross-site iframe, third-party rules on)", { timeout: 150_000 }, () => {
  it("Web A: Telegram sign-in, then reopening with fresh or stale init data reuses the kept session", async () => {
    await kassaCli("settings", "set", "telegramAuthAvailable", "true");
    const web = await openTelegramWeb(browser, base(), "a");
    // What the app's own site keeps at the top level is not what its frame under Telegram sees.
    const top = await web.context.newPage();
    await top.goto(`${APP_ORIGIN}/api/health`);
    await top.evaluate(() => localStorage.setItem("kassa.probe", "top-level"));
    await top.close();

    const id = 800_000_000 + Math.floor(Math.random() * 1e8);
    const launch = (authDate: Date) => ({
      initData: signedInitData(tgUser(id), DEV_BOT_TOKEN, authDate, "ref_demo"),
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
    expect(web.requests).toContain("GET /api/user/me");

    // Reopened from an old message: init data three days old. The kept session is good: no error.
    await web.unmount();
    frame = await web.mount(launch(new Date(Date.now() - 3 * DAY_MS)));
    await onScreen(frame, "cabinet");
    expect(signIns()).toBe(1);
    expect(await frame.locator(".alert-error").count()).toBe(0);
    await web.context.close();
  });

  it("Web K: password sign-in kept after the frame is re-inserted; Back, Main button, theme; ready without safe-area answers", async () => {
    await kassaCli("settings", "set", "telegramAuthAvailable", "false");
    const investor = await signUpThroughApi();
    await readNotifications(investor.token);
    const web = await openTelegramWeb(browser, base(), "k", LIGHT_THEME);
    const launch = () => ({
      initData: signedInitData(tgUser(900_000_000 + Math.floor(Math.random() * 1e8)), DEV_BOT_TOKEN),
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
