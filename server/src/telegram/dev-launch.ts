/**
 * The development switch (docs/telegram.md#without-telegram): a URL that opens the app as if Telegram launched it,
 * with the launch parameters Telegram puts in the URL fragment and init data signed by the
 * (development) bot token, so Telegram sign-in works on a machine without Telegram.
 */
import { createHash } from "node:crypto";
import { signInitData, type TelegramUser } from "../security/telegram-init-data";

/** Telegram Desktop's night theme, as a client sends it in `tgWebAppThemeParams`. */
export const DEV_DARK_THEME = {
  bg_color: "#17212b",
  text_color: "#f5f5f5",
  hint_color: "#708499",
  link_color: "#6ab3f3",
  button_color: "#5288c1",
  button_text_color: "#ffffff",
  secondary_bg_color: "#232e3c",
  header_bg_color: "#17212b",
  bottom_bar_bg_color: "#17212b",
  accent_text_color: "#6ab2f2",
  section_bg_color: "#17212b",
  section_header_text_color: "#6ab3f3",
  section_separator_color: "#111921",
  subtitle_text_color: "#708499",
  destructive_text_color: "#ec3942",
} as const;

/** Telegram for iOS's day theme, as a client sends it in `tgWebAppThemeParams`. */
export const DEV_LIGHT_THEME = {
  bg_color: "#ffffff",
  text_color: "#000000",
  hint_color: "#8e8e93",
  link_color: "#007aff",
  button_color: "#007aff",
  button_text_color: "#ffffff",
  secondary_bg_color: "#efeff4",
  header_bg_color: "#f8f8f8",
  bottom_bar_bg_color: "#f8f8f8",
  accent_text_color: "#007aff",
  section_bg_color: "#ffffff",
  section_header_text_color: "#6d6d72",
  section_separator_color: "#c8c7cc",
  subtitle_text_color: "#8e8e93",
  destructive_text_color: "#ff3b30",
} as const;

export const DEV_THEMES = { light: DEV_LIGHT_THEME, dark: DEV_DARK_THEME } as const;
type DevThemeName = keyof typeof DEV_THEMES;

export const TELEGRAM_PLATFORMS = [
  "android",
  "ios",
  "tdesktop",
  "macos",
  "weba",
  "webk",
  "unigram",
  "unknown",
] as const;
type TelegramPlatform = (typeof TELEGRAM_PLATFORMS)[number];

const DEV_TELEGRAM_USERNAME = "kassa_tester";

/** A stable Telegram user id for a username, so the same tester signs in as the same account. */
export function devTelegramUserId(username: string): number {
  const digest = createHash("sha256").update(username.toLowerCase()).digest();
  return 100_000_000 + (digest.readUInt32BE(0) % 900_000_000);
}

export interface DevLaunchOptions {
  botToken: string;
  now: Date;
  username?: string | undefined;
  startParam?: string | undefined;
  platform?: TelegramPlatform | undefined;
  languageCode?: string | undefined;
  /** Telegram's day (`light`) or night (`dark`, the default) theme. */
  theme?: DevThemeName | undefined;
}

function devTelegramUser(username: string, languageCode = "en"): TelegramUser {
  return {
    id: devTelegramUserId(username),
    first_name: "Kassa",
    last_name: "Tester",
    username,
    language_code: languageCode,
    allows_write_to_pm: true,
  };
}

/** The path (with fragment) to redirect to: `/?tgDevMock=1#tgWebAppData=…`. */
export function devLaunchLocation(options: DevLaunchOptions): { location: string; initData: string } {
  const username = options.username ?? DEV_TELEGRAM_USERNAME;
  const initData = signInitData(
    {
      user: devTelegramUser(username, options.languageCode),
      authDate: options.now,
      chatType: "sender",
      ...(options.startParam ? { startParam: options.startParam } : {}),
    },
    options.botToken,
  );
  const fragment = [
    `tgWebAppData=${encodeURIComponent(initData)}`,
    "tgWebAppVersion=8.0",
    `tgWebAppPlatform=${options.platform ?? "tdesktop"}`,
    `tgWebAppThemeParams=${encodeURIComponent(JSON.stringify(DEV_THEMES[options.theme ?? "dark"]))}`,
  ];
  if (options.startParam) fragment.push(`tgWebAppStartParam=${encodeURIComponent(options.startParam)}`);
  return { location: `/?tgDevMock=1#${fragment.join("&")}`, initData };
}
