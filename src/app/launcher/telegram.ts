// The launcher inside Telegram: the kept token read where the boot's token store keeps it, and the client's look
// for the painted balance, over the client's bridge without the SDK (the SDK downloads beside the app's code).
// Where the token is kept and how long the client is waited for are the token store's (`tma/token-places.ts`).

import { postToClient } from "@/tma/client-post";
import { type TelegramLaunch, uiPlatformOf } from "@/tma/launch";
import { readFramedToken, STORAGE_ANSWER_TIMEOUT_MS, STORAGE_PLATFORMS, TELEGRAM_TOKEN_KEY } from "@/tma/token-places";

type Listener = (eventType: string, eventData: Record<string, unknown> | undefined) => void;
type Side = Partial<Record<"top" | "bottom" | "left" | "right", number>>;
export type Insets = { safe: Side | null; content: Side | null };
export interface Look {
  client: string;
  platform: "ios" | "base";
  dark: boolean;
  colors: Record<string, string>;
  insets: Promise<Insets | null>;
}

interface ClientWindow {
  Telegram?: { WebView?: { receiveEvent?: Listener } };
  TelegramWebviewProxy?: { postEvent?: unknown };
}
const client = window as unknown as ClientWindow;
/** Who waits for an event from the Telegram client (`listenToTheClient`). */
let bridgeListeners: Set<Listener> | undefined;

const major = (launch: TelegramLaunch) => Number((launch.version ?? "6.0").split(".")[0]);

/**
 * How the app looks inside Telegram by its first render (`tma/boot.ts`, `app/provider.tsx`): the theme's colours as
 * the SDK binds them (`--tg-theme-*`), dark when the theme's background is dark or missing (the SDK's
 * `themeParams.isDark`), telegram-ui's iOS look on the Apple clients, and the safe areas the client reports. Null
 * for a theme whose colours it cannot read as the SDK would: then nothing is painted.
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
  const background = colors["--tg-theme-bg-color"];
  return {
    client: launch.platform,
    platform: uiPlatformOf(launch.platform),
    dark: !background || brightness(background) < 120,
    colors,
    insets: safeAreaAnswers(launch),
  };
}

/** `#rgb` or `#rrggbb` as `#rrggbb` in lower case (as the SDK keeps theme colours), else null. */
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

/** The client's safe areas, asked for as the boot asks for them (Bot API 8.0); none after 400 ms. */
function safeAreaAnswers(launch: TelegramLaunch): Promise<Insets | null> {
  if (major(launch) < 8 || launch.devMock) return Promise.resolve(null);
  const ask = (kind: string) =>
    answer<Side | null>(
      `web_app_request_${kind}`,
      undefined,
      (eventType, eventData) => (eventType === `${kind}_changed` ? { value: (eventData as Side) ?? null } : null),
      400,
      null,
    );
  return Promise.all([ask("safe_area"), ask("content_safe_area")]).then(([safe, content]) => ({ safe, content }));
}

/**
 * The kept token as the boot's token store reads it: the first of the client's storages that answers, else the
 * framed store. Only read: moving a token between stores is the boot's. With the biometric lock on, the token is in
 * none of these (the boot asks for Face ID): no calls.
 */
export async function keptTelegramToken(launch: TelegramLaunch): Promise<string | null> {
  const tiers: string[] = [];
  if (major(launch) >= 9 && !launch.devMock) {
    if (STORAGE_PLATFORMS.secure.includes(launch.platform)) tiers.push("secure_storage");
    if (STORAGE_PLATFORMS.device.includes(launch.platform)) tiers.push("device_storage");
  }
  // A client that keeps the token in its storages but cannot be asked here: the boot reads it.
  if (tiers.length > 0 && typeof client.TelegramWebviewProxy?.postEvent !== "function") return null;
  for (const prefix of tiers) {
    const reqId = `launch-${Math.random().toString(36).slice(2)}`;
    const value = await answer<string | null | undefined>(
      `web_app_${prefix}_get_key`,
      { req_id: reqId, key: TELEGRAM_TOKEN_KEY },
      (eventType, eventData) => {
        if (eventData?.req_id !== reqId) return null;
        if (eventType === `${prefix}_key_received`) return { value: (eventData.value as string | null) ?? null };
        return eventType === `${prefix}_failed` ? { value: undefined } : null;
      },
      STORAGE_ANSWER_TIMEOUT_MS,
      undefined,
    );
    if (value === undefined) continue;
    if (value) return value;
    break;
  }
  return readFramedToken();
}

/** An event posted to the client and its answer (`match`), or `otherwise` when none came in `timeoutMs`. */
function answer<T>(
  eventType: string,
  eventData: unknown,
  match: (eventType: string, eventData: Record<string, unknown> | undefined) => { value: T } | null,
  timeoutMs: number,
  otherwise: T,
): Promise<T> {
  return new Promise((resolve) => {
    const listeners = listenToTheClient();
    const done = (value: T) => {
      listeners.delete(listener);
      clearTimeout(timer);
      resolve(value);
    };
    const listener: Listener = (type, data) => {
      const found = match(type, data);
      if (found) done(found.value);
    };
    listeners.add(listener);
    const timer = setTimeout(() => done(otherwise), timeoutMs);
    if (!postToClient(eventType, eventData)) done(otherwise);
  });
}

/**
 * Who waits for the client's events: the native clients call `Telegram.WebView.receiveEvent` (the SDK, loaded
 * later, keeps calling what it finds there), Telegram Web posts them to its frame as JSON strings.
 */
function listenToTheClient(): Set<Listener> {
  if (bridgeListeners) return bridgeListeners;
  const listeners = new Set<Listener>();
  bridgeListeners = listeners;
  const receive: Listener = (eventType, eventData) => {
    for (const listener of listeners) listener(eventType, eventData);
  };
  client.Telegram ??= {};
  client.Telegram.WebView ??= {};
  const previous = client.Telegram.WebView.receiveEvent;
  client.Telegram.WebView.receiveEvent = previous
    ? (eventType, eventData) => {
        previous(eventType, eventData);
        receive(eventType, eventData);
      }
    : receive;
  window.addEventListener("message", (event) => {
    if (event.source !== window.parent || typeof event.data !== "string") return;
    try {
      const { eventType, eventData } = JSON.parse(event.data);
      if (typeof eventType === "string") receive(eventType, eventData);
    } catch {
      // Not the client's.
    }
  });
  return listeners;
}

/**
 * Tells the client the Mini App can be shown (`web_app_ready`): Telegram keeps its loading placeholder over the page
 * until it hears it, so a balance painted before the app's code would wait behind it for that code. The app tells it
 * again once its own first screen is on (`useMiniAppReady`); the clients take a second one as they took the first.
 */
export function tellReady(): void {
  postToClient("web_app_ready");
}
