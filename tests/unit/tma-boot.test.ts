/**
 * The real SDK boot against a recorded native bridge, as a Telegram client drives it: calls go out
 * through `window.TelegramWebviewProxy.postEvent`, events come in through
 * `window.Telegram.WebView.receiveEvent`.
 */
import { postEvent } from "@telegram-apps/sdk-react";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { BACK_HIDE_DELAY_MS, bootTelegram, HOME_SCREEN_ANSWER_TIMEOUT_MS } from "@/tma/boot";
import type { TelegramBridge } from "@/tma/bridge";
import { detectTelegramLaunch } from "@/tma/launch";
import { placeholderUp } from "@/tma/screen-coming-in";

type Posted = { eventType: string; eventData: unknown };
const posted: Posted[] = [];
// Telegram Web's day and night themes: a blue button by day, a purple one by night.
const LIGHT = {
  bg_color: "#ffffff",
  text_color: "#000000",
  secondary_bg_color: "#efeff3",
  button_color: "#2b79c6",
  button_text_color: "#ffffff",
};
const DARK = {
  bg_color: "#17212b",
  text_color: "#f5f5f5",
  secondary_bg_color: "#232e3c",
  button_color: "#8774e1",
  button_text_color: "#ffffff",
  bottom_bar_bg_color: "#0f1620",
};
// Init data as older signers produce it: no `signature`, which the SDK's own parser insists on.
const INIT_DATA = new URLSearchParams({
  user: JSON.stringify({ id: 7, first_name: "Aigerim", language_code: "kk" }),
  auth_date: "1700000000",
  hash: "0f",
}).toString();

let bridge: TelegramBridge;
// What the boot left in sessionStorage; the shared setup empties storage after every test.
let savedSession: [string, string][] = [];
const receive = (type: string, data?: unknown) =>
  (
    window as unknown as { Telegram: { WebView: { receiveEvent: (t: string, d?: unknown) => void } } }
  ).Telegram.WebView.receiveEvent(type, data);
const postedOf = (type: string) => posted.filter((e) => e.eventType === type).map((e) => e.eventData);

beforeAll(async () => {
  (window as unknown as Record<string, unknown>).TelegramWebviewProxy = {
    postEvent(eventType: string, eventData?: string) {
      posted.push({ eventType, eventData: eventData ? JSON.parse(eventData) : null });
    },
  };
  const hash = new URLSearchParams({
    tgWebAppData: INIT_DATA,
    tgWebAppVersion: "8.0",
    tgWebAppPlatform: "android",
    tgWebAppThemeParams: JSON.stringify(LIGHT),
  });
  window.history.replaceState(null, "", `/#${hash}`);
  const launch = detectTelegramLaunch();
  if (!launch) throw new Error("launch not detected");
  bridge = await bootTelegram(launch);
  savedSession = Object.entries(sessionStorage);
});

beforeEach(() => {
  for (const [key, value] of savedSession) sessionStorage.setItem(key, value);
});

afterAll(() => {
  delete (window as unknown as Record<string, unknown>).TelegramWebviewProxy;
  window.history.replaceState(null, "", "/");
});

describe("Telegram boot with the real SDK", () => {
  it("binds the theme to CSS variables and reports light", () => {
    expect(document.documentElement.style.getPropertyValue("--tg-theme-bg-color")).toBe("#ffffff");
    expect(bridge.appearance.get()).toBe("light");
  });

  it("keeps the raw init data for Telegram sign-in even when the SDK would not parse it", () => {
    expect(bridge.rawInitData).toBe(INIT_DATA);
    expect(bridge.platform).toBe("android");
  });

  it("posts the SDK's events itself, refusing a method the client's version does not have", () => {
    const before = posted.length;
    // Mini Apps 8.0 (this launch's): asking for the theme is there, DeviceStorage (9.0) is not.
    postEvent("web_app_request_theme");
    expect(() => postEvent("web_app_device_storage_get_key", { req_id: "1", key: "k" })).toThrow(/version 8\.0/);
    expect(posted.slice(before)).toEqual([{ eventType: "web_app_request_theme", eventData: null }]);
  });

  it("posts the bottom bar's colour at launch", () => {
    // The light theme has no bottom_bar_bg_color: the bar takes the app's bar colour, the page's bg_color.
    expect(postedOf("web_app_set_bottom_bar_color")).toEqual([{ color: "#ffffff" }]);
    expect(document.documentElement.style.getPropertyValue("--kassa-button-fill")).toBe("#2b79c6");
  });

  it("takes every theme colour again on theme_changed, day to night and back", () => {
    const fill = () => document.documentElement.style.getPropertyValue("--kassa-button-fill");
    bridge.mainButton.set({ text: "Open", isVisible: true, isEnabled: true });
    const seen: string[] = [];
    const off = bridge.appearance.subscribe(() => seen.push(bridge.appearance.get()));
    const before = posted.length;
    receive("theme_changed", { theme_params: DARK });
    const night = posted.slice(before);
    // Purple under white reads at 3.9:1: moved towards black by the least that reaches 4.5:1.
    expect(fill()).toBe("#7867c8");
    expect(bridge.appearance.get()).toBe("dark");
    expect(night.filter((e) => e.eventType === "web_app_set_bottom_bar_color").map((e) => e.eventData)).toEqual([
      { color: "#0f1620" },
    ]);
    expect(night.filter((e) => e.eventType === "web_app_setup_main_button").at(-1)?.eventData).toMatchObject({
      color: "#8774e1",
      text_color: "#ffffff",
      text: "Open",
      is_visible: true,
    });
    const back = posted.length;
    receive("theme_changed", { theme_params: LIGHT });
    const day = posted.slice(back);
    expect(fill()).toBe("#2b79c6");
    expect(bridge.appearance.get()).toBe("light");
    expect(day.filter((e) => e.eventType === "web_app_set_bottom_bar_color").map((e) => e.eventData)).toEqual([
      { color: "#ffffff" },
    ]);
    expect(day.filter((e) => e.eventType === "web_app_setup_main_button").at(-1)?.eventData).toMatchObject({
      color: "#2b79c6",
    });
    off();
    expect(seen).toEqual(["dark", "light"]);
    bridge.mainButton.set({ isVisible: false });
  });

  it("follows theme_changed live", () => {
    let notified = 0;
    const off = bridge.appearance.subscribe(() => {
      notified += 1;
    });
    receive("theme_changed", { theme_params: DARK });
    off();
    expect(document.documentElement.style.getPropertyValue("--tg-theme-bg-color")).toBe("#17212b");
    expect(bridge.appearance.get()).toBe("dark");
    expect(notified).toBeGreaterThan(0);
  });

  it("posts web_app_ready when told the first screen is on", () => {
    bridge.ready();
    expect(postedOf("web_app_ready")).toHaveLength(1);
  });

  it("shows and hides the Back button and hears it pressed; a hide a show follows at once is never told", async () => {
    expect(postedOf("web_app_setup_back_button")).toEqual([{ is_visible: false }]);
    let pressed = 0;
    bridge.backButton.setVisible(true);
    const off = bridge.backButton.onClick(() => {
      pressed += 1;
    });
    receive("back_button_pressed");
    off();
    // Hidden and shown again at once (a screen still coming in): Telegram hears nothing of it.
    bridge.backButton.setVisible(false);
    bridge.backButton.setVisible(true);
    await new Promise((resolve) => setTimeout(resolve, BACK_HIDE_DELAY_MS + 50));
    expect(postedOf("web_app_setup_back_button").slice(-1)).toEqual([{ is_visible: true }]);
    bridge.backButton.setVisible(false);
    await vi.waitFor(
      () =>
        expect(postedOf("web_app_setup_back_button").slice(-2)).toEqual([{ is_visible: true }, { is_visible: false }]),
      { timeout: 60_000 },
    );
    expect(pressed).toBe(1);
    expect(postedOf("web_app_setup_back_button").slice(-2)).toEqual([{ is_visible: true }, { is_visible: false }]);
  });

  it("holds a hide while a placeholder stands for a screen coming in, then hides a moment after it is in", async () => {
    bridge.backButton.setVisible(true);
    // The timers only: the start's window is measured on the real clock from the boot (long over on a busy machine).
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const spinner = placeholderUp();
      bridge.backButton.setVisible(false);
      await vi.advanceTimersByTimeAsync(10_000);
      // The spinner gives way to the form's skeleton: still a screen coming in.
      const skeleton = placeholderUp();
      spinner();
      await vi.advanceTimersByTimeAsync(10_000);
      expect(postedOf("web_app_setup_back_button").at(-1)).toEqual({ is_visible: true });
      skeleton();
      expect(postedOf("web_app_setup_back_button").at(-1)).toEqual({ is_visible: true });
      await vi.advanceTimersByTimeAsync(BACK_HIDE_DELAY_MS + 1);
      expect(postedOf("web_app_setup_back_button").at(-1)).toEqual({ is_visible: false });

      // The screen that came in shows Back again before the moment is over: Telegram hears nothing of the hide.
      bridge.backButton.setVisible(true);
      const again = placeholderUp();
      bridge.backButton.setVisible(false);
      await vi.advanceTimersByTimeAsync(10_000);
      again();
      bridge.backButton.setVisible(true);
      await vi.advanceTimersByTimeAsync(10_000);
      expect(postedOf("web_app_setup_back_button").slice(-2)).toEqual([{ is_visible: false }, { is_visible: true }]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("drives haptics and the Main button through the client", () => {
    bridge.haptics.notify("success");
    bridge.mainButton.set({ text: "Send", isVisible: true, isEnabled: true });
    expect(postedOf("web_app_trigger_haptic_feedback")).toContainEqual({
      type: "notification",
      notification_type: "success",
    });
    expect(postedOf("web_app_setup_main_button").at(-1)).toMatchObject({
      text: "Send",
      is_visible: true,
      is_active: true,
    });
  });

  it("hands a file's https link and name to the client's download prompt (Mini Apps 8.0)", async () => {
    const url = "https://kassa.example/api/user/operations/statement/file?link=signed.abc";
    const taken = bridge.downloadFile?.(url, "kassa-statement-2026-10-01-2026-10-31.csv");
    expect(postedOf("web_app_request_file_download").at(-1)).toEqual({
      url,
      file_name: "kassa-statement-2026-10-01-2026-10-31.csv",
    });
    receive("file_download_requested", { status: "downloading" });
    expect(await taken).toBe("downloading");
    // The user declines the client's prompt: the client answers `cancelled`.
    const declined = bridge.downloadFile?.(url, "kassa-statement-2026-10-01-2026-10-31.csv");
    receive("file_download_requested", { status: "cancelled" });
    expect(await declined).toBe("cancelled");
  });

  it("asks the client whether the app is on the home screen and shows its own prompt (Mini Apps 8.0)", async () => {
    expect(bridge.homeScreen).toBeDefined();
    const asked = bridge.homeScreen?.status();
    expect(posted.at(-1)?.eventType).toBe("web_app_check_home_screen");
    receive("home_screen_checked", { status: "missed" });
    expect(await asked).toBe("missed");
    const again = bridge.homeScreen?.status();
    receive("home_screen_checked", { status: "added" });
    expect(await again).toBe("added");
    bridge.homeScreen?.add();
    expect(posted.at(-1)?.eventType).toBe("web_app_add_to_home_screen");
  });

  it("takes a client that never answers the home-screen question as unknown", async () => {
    vi.useFakeTimers();
    try {
      const asked = bridge.homeScreen?.status();
      await vi.advanceTimersByTimeAsync(HOME_SCREEN_ANSWER_TIMEOUT_MS + 1);
      expect(await asked).toBe("unknown");
    } finally {
      vi.useRealTimers();
    }
  });

  it("hands a prepared message to the client's chat picker and hears whether it was sent (Mini Apps 8.0)", async () => {
    const sent = bridge.sendPreparedMessage?.("prepared-1");
    expect(postedOf("web_app_send_prepared_message").at(-1)).toEqual({ id: "prepared-1" });
    receive("prepared_message_sent");
    expect(await sent).toBe("sent");
    const closed = bridge.sendPreparedMessage?.("prepared-2");
    receive("prepared_message_failed", { error: "USER_DECLINED" });
    expect(await closed).toBe("declined");
  });
});
