/**
 * A simulated Telegram client at the Mini App bridge. A real client injects launch parameters into the
 * URL and receives the app's calls through `window.TelegramWebviewProxy.postEvent`, answering some of
 * them with events through `window.Telegram.WebView.receiveEvent`. This does the same inside Chromium
 * and records every event the app posts, so tests can assert them.
 */
import { randomBytes } from "node:crypto";
import { sign } from "@telegram-apps/init-data-node";
import type { BrowserContext, Page } from "playwright-core";

export interface PostedEvent {
  eventType: string;
  eventData: unknown;
  /** When the client received it (`performance.now()` of the page that records it). */
  t?: number;
}

/** The server's development bot token (server/src/env.ts), with which the e2e server signs and checks init data. */
export const DEV_BOT_TOKEN = "123456789:KASSA-DEVELOPMENT-TOKEN-not-for-production";

export const LIGHT_THEME = {
  bg_color: "#ffffff",
  text_color: "#000000",
  hint_color: "#999999",
  link_color: "#2481cc",
  button_color: "#2481cc",
  button_text_color: "#ffffff",
  secondary_bg_color: "#efeff3",
  header_bg_color: "#ffffff",
  accent_text_color: "#2481cc",
  section_bg_color: "#ffffff",
  section_header_text_color: "#6d6d72",
  subtitle_text_color: "#999999",
  destructive_text_color: "#ff3b30",
  bottom_bar_bg_color: "#f7f7f9",
  section_separator_color: "#e3e3e8",
};

export const DARK_THEME = {
  bg_color: "#17212b",
  text_color: "#f5f5f5",
  hint_color: "#708499",
  link_color: "#6ab3f3",
  button_color: "#5288c1",
  button_text_color: "#ffffff",
  secondary_bg_color: "#232e3c",
  header_bg_color: "#17212b",
  accent_text_color: "#6ab2f2",
  section_bg_color: "#17212b",
  section_header_text_color: "#6ab3f3",
  subtitle_text_color: "#708499",
  destructive_text_color: "#ec3942",
  bottom_bar_bg_color: "#1e2c3a",
  section_separator_color: "#111921",
};

export interface TelegramUser {
  id: number;
  first_name: string;
  last_name?: string;
  username?: string;
  language_code?: string;
}

/** A Telegram user the server has not seen: `from` plus a random part as its id (each file its own range). */
export function newTelegramUser(from: number, fields: (id: number) => Omit<TelegramUser, "id">): TelegramUser {
  const id = from + Math.floor(Math.random() * 1e8);
  return { id, ...fields(id) };
}

/**
 * Init data signed as Telegram signs it, by an implementation independent of the server's: signed with the
 * development bot's token (the test servers' own), now unless `authDate` says otherwise.
 */
export function signedInitData(
  user: TelegramUser,
  { authDate = new Date(), startParam }: { authDate?: Date; startParam?: string } = {},
) {
  return sign(
    {
      user: { ...user, allows_write_to_pm: true },
      query_id: "AAHdF6IQAAAAAN0XohDhrOrc",
      // Real clients (Bot API 8.0+) add a third-party Ed25519 signature; its value is not checked here.
      signature: randomBytes(64).toString("base64url"),
      ...(startParam ? { start_param: startParam } : {}),
    } as Parameters<typeof sign>[0],
    DEV_BOT_TOKEN,
    authDate,
  );
}

export interface LaunchOptions {
  initData?: string;
  /** Init data for this user (`signedInitData`), where `initData` is not given. */
  user?: TelegramUser;
  theme?: Record<string, string>;
  platform?: string;
  version?: string;
  startParam?: string;
  /** Launched in fullscreen (Bot API 8.0 `tgWebAppFullscreen`). */
  fullscreen?: boolean;
}

/** The hash a Telegram client appends to the Mini App URL. */
export function launchHash({
  user,
  initData = user ? signedInitData(user) : "",
  theme = LIGHT_THEME,
  platform = "tdesktop",
  version = "8.0",
  startParam,
  fullscreen,
}: LaunchOptions): string {
  const params = new URLSearchParams();
  params.set("tgWebAppData", initData);
  params.set("tgWebAppVersion", version);
  params.set("tgWebAppPlatform", platform);
  params.set("tgWebAppThemeParams", JSON.stringify(theme));
  if (startParam) params.set("tgWebAppStartParam", startParam);
  if (fullscreen) params.set("tgWebAppFullscreen", "1");
  return `#${params.toString()}`;
}

export interface Insets {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

export const NO_INSETS: Insets = { top: 0, bottom: 0, left: 0, right: 0 };

/** An iPhone in fullscreen: the notch and the home indicator, and Telegram's close and menu buttons over the content. */
export const IPHONE_FULLSCREEN: Required<Pick<ClientOptions, "safeArea" | "contentSafeArea">> = {
  safeArea: { top: 59, bottom: 34, left: 0, right: 0 },
  contentSafeArea: { top: 46, bottom: 0, left: 0, right: 0 },
};

export interface ClientOptions {
  /** Device safe area (notch, home indicator) the client reports. */
  safeArea?: Insets;
  /** Telegram's own controls over the content (fullscreen header). */
  contentSafeArea?: Insets;
  /**
   * Telegram's SecureStorage (Bot API 9.0): kept in this Map, outside the page, so it survives
   * reloads and cleared site data as the phone's keychain does. Without it the calls are refused.
   */
  keychain?: Map<string, string>;
  /** Telegram's DeviceStorage (Bot API 9.0, the desktop clients' store), kept like the keychain. */
  deviceStorage?: Map<string, string>;
  /**
   * Telegram's BiometricManager (Bot API 7.2), as the phone clients answer it: `available` false is a
   * phone without biometrics (the default); `grant` is the user's answer when the app asks for access.
   * The biometric token is kept outside the page like the keychain (session storage, `tg-biometry-token`).
   * Switches in session storage, as the user or the phone would change them between launches:
   * `tg-biometry-answer` = `failed` (a face not recognised) or `cancelled` (the prompt closed; Telegram answers
   * `failed` for both); `tg-biometry-granted` removed = access refused in Telegram's settings;
   * `tg-biometry-unavailable` = `1` = biometrics removed from the phone.
   */
  biometrics?: { available: boolean; grant: boolean };
  /**
   * "Add to Home Screen" (Bot API 8.0) as an Android client answers it: `web_app_check_home_screen` gets this
   * status until the user adds the app through the client's prompt (`web_app_add_to_home_screen`), then
   * `added`. Without it the client does not answer (a client that does not know the question).
   */
  homeScreen?: "missed" | "added" | "unsupported" | "unknown";
}

/** Installs the bridge before any script of the page runs. */
export async function installTelegramClient(
  context: BrowserContext,
  theme: Record<string, string> = LIGHT_THEME,
  options: ClientOptions = {},
) {
  const { keychain, deviceStorage } = options;
  if (keychain || deviceStorage) {
    // Answered in the page at once (a round trip to the test process is too slow on a loaded machine);
    // the test process keeps the copy the test reads.
    await context.exposeFunction("__tgStorageMirror", (kind: string, key: string, value: string | null) => {
      const store = kind === "secure" ? keychain : deviceStorage;
      if (value === null) store?.delete(key);
      else store?.set(key, value);
    });
  }
  await context.addInitScript(
    ({ themeParams, safeArea, contentSafeArea, hasKeychain, hasDeviceStorage, biometrics, homeScreen }) => {
      const w = window as unknown as Record<string, unknown> & {
        __tgEvents: { eventType: string; eventData: unknown; t: number }[];
        __tgStorageMirror?: (kind: string, key: string, value: string | null) => Promise<void>;
        Telegram?: { WebView?: { receiveEvent?: (type: string, data?: unknown) => void } };
      };
      w.__tgEvents = [];
      // `tg-answer-delay` in session storage (ms): a busy phone, every answer late by that much.
      const reply = (eventType: string, eventData?: unknown) =>
        setTimeout(
          () => w.Telegram?.WebView?.receiveEvent?.(eventType, eventData),
          Number(sessionStorage.getItem("tg-answer-delay") ?? 0),
        );
      const biometryAvailable = () => biometrics.available && sessionStorage.getItem("tg-biometry-unavailable") !== "1";
      const biometryInfo = () =>
        biometryAvailable()
          ? {
              available: true,
              type: "face",
              access_requested: sessionStorage.getItem("tg-biometry-requested") === "1",
              access_granted: sessionStorage.getItem("tg-biometry-granted") === "1",
              token_saved: Boolean(sessionStorage.getItem("tg-biometry-token")),
              device_id: "test-phone",
            }
          : { available: false };
      w.TelegramWebviewProxy = {
        postEvent(eventType: string, eventData?: string) {
          const data = eventData ? JSON.parse(eventData) : null;
          w.__tgEvents.push({ eventType, eventData: data, t: performance.now() });
          const granted = () => biometryAvailable() && sessionStorage.getItem("tg-biometry-granted") === "1";
          switch (eventType) {
            case "web_app_biometry_get_info":
              reply("biometry_info_received", biometryInfo());
              break;
            case "web_app_biometry_request_access":
              // Asked once: both phone clients answer a second request with what stands (a refusal is undone in
              // Telegram's settings only) and never tell the app when the user changes it there.
              if (biometryAvailable() && sessionStorage.getItem("tg-biometry-requested") !== "1") {
                sessionStorage.setItem("tg-biometry-requested", "1");
                if (biometrics.grant) sessionStorage.setItem("tg-biometry-granted", "1");
              }
              reply("biometry_info_received", biometryInfo());
              break;
            case "web_app_biometry_request_auth": {
              const refused = ["failed", "cancelled"].includes(sessionStorage.getItem("tg-biometry-answer") ?? "");
              reply(
                "biometry_auth_requested",
                granted() && !refused
                  ? { status: "authorized", token: sessionStorage.getItem("tg-biometry-token") ?? "" }
                  : { status: "failed" },
              );
              break;
            }
            case "web_app_biometry_update_token": {
              const token = (data as { token?: string } | null)?.token ?? "";
              if (!granted()) {
                reply("biometry_token_updated", { status: "failed" });
                break;
              }
              if (token) sessionStorage.setItem("tg-biometry-token", token);
              else sessionStorage.removeItem("tg-biometry-token");
              reply("biometry_token_updated", { status: token ? "updated" : "removed" });
              break;
            }
            case "web_app_check_home_screen":
              if (homeScreen)
                reply("home_screen_checked", { status: sessionStorage.getItem("tg-home-screen") ?? homeScreen });
              break;
            case "web_app_add_to_home_screen":
              if (homeScreen === "missed") {
                sessionStorage.setItem("tg-home-screen", "added");
                reply("home_screen_added");
              }
              break;
            case "web_app_request_theme":
              reply("theme_changed", { theme_params: themeParams });
              break;
            case "web_app_request_viewport":
              reply("viewport_changed", {
                height: window.innerHeight,
                width: window.innerWidth,
                is_expanded: true,
                is_state_stable: true,
              });
              break;
            case "web_app_request_safe_area":
              reply("safe_area_changed", safeArea);
              break;
            case "web_app_request_content_safe_area":
              reply("content_safe_area_changed", contentSafeArea);
              break;
            case "web_app_secure_storage_get_key":
            case "web_app_secure_storage_save_key":
            case "web_app_device_storage_get_key":
            case "web_app_device_storage_save_key": {
              const { req_id, key, value } = data as { req_id: string; key: string; value?: string | null };
              const kind = eventType.includes("secure") ? "secure" : "device";
              const prefix = `${kind}_storage`;
              if (!(kind === "secure" ? hasKeychain : hasDeviceStorage)) {
                reply(`${prefix}_failed`, { req_id, error: "UNSUPPORTED" });
                break;
              }
              // The client's storage outlives the page's cookies and local storage: kept under its own
              // key in session storage, which the tests do not clear.
              const slot = `tg-${kind}:${key}`;
              if (eventType.endsWith("get_key")) {
                reply(`${prefix}_key_received`, { req_id, value: sessionStorage.getItem(slot), can_restore: false });
              } else {
                if (value === null || value === undefined) sessionStorage.removeItem(slot);
                else sessionStorage.setItem(slot, value);
                void w.__tgStorageMirror?.(kind, key, value ?? null);
                reply(`${prefix}_key_saved`, { req_id });
              }
              break;
            }
          }
        },
      };
    },
    {
      themeParams: theme,
      safeArea: options.safeArea ?? NO_INSETS,
      contentSafeArea: options.contentSafeArea ?? NO_INSETS,
      hasKeychain: Boolean(keychain),
      hasDeviceStorage: Boolean(deviceStorage),
      biometrics: options.biometrics ?? { available: false, grant: false },
      homeScreen: options.homeScreen,
    },
  );
}

export function postedEvents(page: Page): Promise<PostedEvent[]> {
  return page.evaluate(() => (window as unknown as { __tgEvents: PostedEvent[] }).__tgEvents);
}

/** Delivers an event to the app as a native Telegram client does. */
export function sendTelegramEvent(page: Page, eventType: string, eventData?: unknown) {
  return page.evaluate(
    ([type, data]) =>
      (
        window as unknown as { Telegram: { WebView: { receiveEvent: (t: string, d?: unknown) => void } } }
      ).Telegram.WebView.receiveEvent(type as string, data),
    [eventType, eventData] as const,
  );
}

/** Waits until the app has posted an event matching `predicate`, and returns it. */
export function waitForPosted(
  page: Page,
  eventType: string,
  predicate: (data: unknown) => boolean = () => true,
  timeoutMs = 10_000,
): Promise<PostedEvent> {
  return waitForEvent(() => postedEvents(page), eventType, predicate, timeoutMs);
}

/** Waits until `posted` (what the app has posted so far) holds an event matching `predicate`, and returns the last. */
export async function waitForEvent(
  posted: () => Promise<PostedEvent[]>,
  eventType: string,
  predicate: (data: unknown) => boolean,
  timeoutMs: number,
): Promise<PostedEvent> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const events = await posted();
    const last = events.filter((e) => e.eventType === eventType && predicate(e.eventData)).at(-1);
    if (last) return last;
    if (Date.now() > deadline) {
      const seen = events.map((e) => e.eventType).join(", ");
      throw new Error(`The app did not post ${eventType} in ${timeoutMs} ms; it posted: ${seen}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
