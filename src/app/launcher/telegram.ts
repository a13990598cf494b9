// The launcher inside Telegram: the kept token read as the boot's token store reads it, with its storages
// (`tma/token-places.ts`), and the client's look for the painted balance, over the client's bridge without the SDK
// (the SDK downloads beside the app's code).

import { buttonFill } from "@/tma/button-fill";
import { postToClient } from "@/tma/client-events";
import { type TelegramLaunch, uiPlatformOf } from "@/tma/launch";
import { followSafeAreas } from "@/tma/safe-areas";
import { firstAnswer, readFramedToken, TELEGRAM_TOKEN_KEY, telegramStorages } from "@/tma/token-places";

export interface Look {
  client: string;
  platform: "ios" | "base";
  dark: boolean;
  colors: Record<string, string>;
}

const client = window as unknown as { TelegramWebviewProxy?: { postEvent?: unknown } };

const major = (launch: TelegramLaunch) => Number((launch.version ?? "6.0").split(".")[0]);

/**
 * How the app looks inside Telegram by its first render (`tma/boot.ts`, `app/provider.tsx`): the theme's colours as
 * the SDK binds them (`--tg-theme-*`) and the buttons' fill as the boot sets it (`--kassa-button-fill`), dark when
 * the theme's background is dark or missing (the SDK's `themeParams.isDark`), telegram-ui's iOS look on the Apple
 * clients. It also starts following the safe areas the client reports (the page's, `tma/safe-areas.ts`). Null for a
 * theme whose colours it cannot read as the SDK would: then nothing is painted.
 */
export function telegramLook(launch: TelegramLaunch): Look | null {
  let theme: unknown;
  try {
    theme = JSON.parse(launch.params.get("tgWebAppThemeParams") ?? "{}");
  } catch {
    return null;
  }
  if (!theme || typeof theme !== "object") return null;
  const colors: Record<string, string> = {};
  for (const [key, value] of Object.entries(theme)) {
    const color = hexColor(value);
    if (!color) return null;
    colors[`--tg-theme-${key.replace(/_/g, "-")}`] = color;
  }
  // The in-page buttons' fill, as the boot sets it from the same colours.
  const fill = buttonFill(colors["--tg-theme-button-color"], colors["--tg-theme-button-text-color"]);
  if (fill) colors["--kassa-button-fill"] = fill;
  const background = colors["--tg-theme-bg-color"];
  // The safe areas as the app pads with them, from here on (the boot finds them followed).
  followSafeAreas(() => major(launch) >= 8 && !launch.devMock);
  return {
    client: launch.platform,
    platform: uiPlatformOf(launch.platform),
    dark: !background || brightness(background) < 120,
    colors,
  };
}

/**
 * `#rgb` or `#rrggbb` as `#rrggbb` in lower case (as the SDK keeps theme colours), else null. Not the SDK's own
 * `toRGB` and `isColorDark` (below): imported here, their modules' top-level code comes into the page's head with
 * them, 2.7 KB gzip more for `toRGB` alone and 16.2 KB with `isColorDark` (index.html 18.7 KB gzip today).
 */
function hexColor(value: unknown): string | null {
  const match = typeof value === "string" ? /^#([\da-f]{3}|[\da-f]{6})$/i.exec(value.trim()) : null;
  const digits = match?.[1]?.toLowerCase();
  if (!digits) return null;
  return `#${digits.length === 3 ? [...digits].map((digit) => digit + digit).join("") : digits}`;
}

/** The SDK's `isColorDark` measure (dark below 120). */
function brightness(color: string): number {
  const [red = 0, green = 0, blue = 0] = [1, 3, 5].map((at) => Number.parseInt(color.slice(at, at + 2), 16));
  return Math.sqrt(0.299 * red * red + 0.587 * green * green + 0.114 * blue * blue);
}

/**
 * The kept token as the boot's token store reads it: the first of the client's storages that answers, else the
 * framed store. Only read: moving a token between stores is the boot's. With the biometric lock on, the token is in
 * none of these (the boot asks for Face ID): no calls.
 */
export async function keptTelegramToken(launch: TelegramLaunch): Promise<string | null> {
  const tiers = telegramStorages(launch.platform, () => major(launch) >= 9 && !launch.devMock);
  // A client that keeps the token in its storages but cannot be asked here: the boot reads it.
  if (tiers.length > 0 && typeof client.TelegramWebviewProxy?.postEvent !== "function") return null;
  return (await firstAnswer(tiers, TELEGRAM_TOKEN_KEY)).value || readFramedToken();
}

/**
 * Tells the client the Mini App can be shown (`web_app_ready`): Telegram keeps its loading placeholder over the page
 * until it hears it, so a balance painted before the app's code would wait behind it for that code. The app tells it
 * again once its own first screen is on (`useMiniAppReady`); the clients take a second one as they took the first.
 */
export function tellReady(): void {
  postToClient("web_app_ready");
}
