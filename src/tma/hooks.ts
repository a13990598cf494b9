/**
 * The app's hooks into Telegram. Each is a no-op outside Telegram (no bridge), so screens use them
 * unconditionally.
 */
import { atom, useAtomValue, useStore } from "jotai";
import { useEffect, useRef, useSyncExternalStore } from "react";
import {
  type Appearance,
  getTelegramBridge,
  type ImpactStyle,
  type NotificationType,
  type TelegramBridge,
} from "./bridge";
import { uiPlatformOf } from "./launch";

export function useTelegram(): TelegramBridge | null {
  return getTelegramBridge();
}

const DARK_QUERY = "(prefers-color-scheme: dark)";

function subscribeSystemScheme(listener: () => void): () => void {
  if (typeof window.matchMedia !== "function") return () => {};
  const query = window.matchMedia(DARK_QUERY);
  query.addEventListener("change", listener);
  return () => query.removeEventListener("change", listener);
}

function systemScheme(): Appearance {
  return typeof window.matchMedia === "function" && window.matchMedia(DARK_QUERY).matches ? "dark" : "light";
}

/** Telegram's theme (dark when its background is dark), or the system's colour scheme on the web; live. */
export function useAppearance(): Appearance {
  const bridge = getTelegramBridge();
  return useSyncExternalStore(
    bridge ? bridge.appearance.subscribe : subscribeSystemScheme,
    bridge ? bridge.appearance.get : systemScheme,
  );
}

/** telegram-ui's platform style: iOS look for iOS/macOS clients, base elsewhere (and on the web). */
export function useUiPlatform(): "ios" | "base" {
  return uiPlatformOf(getTelegramBridge()?.platform);
}

/** Shows Telegram's Back button while `visible`, calling `onBack` when it is pressed. */
export function useBackButton(visible: boolean, onBack: () => void): void {
  const handler = useRef(onBack);
  handler.current = onBack;
  useEffect(() => {
    const bridge = getTelegramBridge();
    if (!bridge) return;
    bridge.backButton.setVisible(visible);
    if (!visible) return;
    return bridge.backButton.onClick(() => handler.current());
  }, [visible]);
}

/** The clients already told the first screen is on: a page has one, so this is once per page. */
const readySent = new WeakSet<TelegramBridge>();

/** Tells Telegram the first screen is on (once per page), after it rendered. */
export function useMiniAppReady(): void {
  useEffect(() => {
    const bridge = getTelegramBridge();
    if (!bridge || readySent.has(bridge)) return;
    readySent.add(bridge);
    bridge.ready();
  }, []);
}

/** How many screens show Telegram's Main button right now. */
const mainButtonsShownAtom = atom(0);

/**
 * Telegram's Main button is on screen (inside Telegram only): the cabinet then hides its own tab bar,
 * so there is one bottom bar at a time.
 */
export const mainButtonShownAtom = atom((get) => get(mainButtonsShownAtom) > 0);

export function useMainButtonShown(): boolean {
  return useAtomValue(mainButtonShownAtom);
}

export interface MainButtonOptions {
  text: string;
  onClick: () => void;
  enabled?: boolean;
  loading?: boolean;
  visible?: boolean;
}

/**
 * Telegram's Main button for a form's primary action: text, loader, enabled state and click; hidden
 * again when the screen unmounts. Returns whether it is in use, so the screen renders its own button on
 * the web. While it is shown the form is open: vertical swipes only scroll (a swipe must not fold the
 * app mid-entry) and the cabinet's tab bar steps aside (`mainButtonShownAtom`).
 */
export function useMainButton({
  text,
  onClick,
  enabled = true,
  loading = false,
  visible = true,
}: MainButtonOptions): boolean {
  const bridge = getTelegramBridge();
  const handler = useRef(onClick);
  handler.current = onClick;

  useEffect(() => {
    bridge?.mainButton.set({ text, isEnabled: enabled && !loading, isLoaderVisible: loading, isVisible: visible });
  }, [bridge, text, enabled, loading, visible]);

  useEffect(() => {
    if (!bridge) return;
    const off = bridge.mainButton.onClick(() => handler.current());
    return () => {
      off();
      bridge.mainButton.set({ isVisible: false, isLoaderVisible: false });
    };
  }, [bridge]);

  const store = useStore();
  useEffect(() => {
    if (!bridge || !visible) return;
    const shown = store.get(mainButtonsShownAtom) + 1;
    store.set(mainButtonsShownAtom, shown);
    if (shown === 1) bridge.setVerticalSwipes(false);
    return () => {
      const left = Math.max(0, store.get(mainButtonsShownAtom) - 1);
      store.set(mainButtonsShownAtom, left);
      if (left === 0) bridge.setVerticalSwipes(true);
    };
  }, [bridge, store, visible]);

  return bridge !== null;
}

/** Asks the user to confirm closing the Mini App while `enabled` (unsaved input). */
export function useClosingConfirmation(enabled: boolean): void {
  useEffect(() => {
    const bridge = getTelegramBridge();
    if (!bridge || !enabled) return;
    bridge.setClosingConfirmation(true);
    return () => bridge.setClosingConfirmation(false);
  }, [enabled]);
}

/** Haptic feedback for money actions and copies; silent outside Telegram. */
export const haptics = {
  notify(type: NotificationType): void {
    getTelegramBridge()?.haptics.notify(type);
  },
  impact(style: ImpactStyle = "light"): void {
    getTelegramBridge()?.haptics.impact(style);
  },
  selection(): void {
    getTelegramBridge()?.haptics.selection();
  },
};

/** Opens a t.me link: inside Telegram without leaving it, on the web in a new tab. */
export function openTelegramLink(url: string): void {
  const bridge = getTelegramBridge();
  if (bridge) bridge.openTelegramLink(url);
  else window.open(url, "_blank", "noopener,noreferrer");
}

/**
 * Calls `listener` when the app comes back to the front: the page becomes visible again
 * (`visibilitychange`) or Telegram reports the Mini App active again (`visibility_changed`, the
 * WebApp API's `activated`).
 */
export function useBackToFront(listener: () => void): void {
  const handler = useRef(listener);
  handler.current = listener;
  useEffect(() => {
    const onVisibility = () => {
      if (document.visibilityState === "visible") handler.current();
    };
    document.addEventListener("visibilitychange", onVisibility);
    const offTelegram = getTelegramBridge()?.onActivated?.(() => handler.current());
    return () => {
      document.removeEventListener("visibilitychange", onVisibility);
      offTelegram?.();
    };
  }, []);
}

/** A t.me address (`https://t.me/...`, `telegram.me`), which Telegram opens itself. */
export function isTelegramLink(href: string): boolean {
  try {
    const url = new URL(href);
    return (url.protocol === "https:" || url.protocol === "http:") && /^(t|telegram)\.me$/i.test(url.hostname);
  } catch {
    return false;
  }
}

/**
 * Opens a link found in content (news): inside Telegram through the client (`openTelegramLink` for
 * t.me, `openLink` for the rest), so the Mini App is never navigated away; on the web in a new tab.
 * Returns false for what is not an http(s) link, which the caller then leaves alone.
 */
export function openExternalLink(href: string): boolean {
  let url: URL;
  try {
    url = new URL(href, window.location.href);
  } catch {
    return false;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return false;
  const bridge = getTelegramBridge();
  if (!bridge) {
    window.open(url.toString(), "_blank", "noopener,noreferrer");
    return true;
  }
  if (isTelegramLink(url.toString())) {
    url.protocol = "https:";
    url.hostname = "t.me";
    bridge.openTelegramLink(url.toString());
  } else bridge.openLink(url.toString());
  return true;
}

/**
 * Telegram's share sheet where the client has one that keeps the Mini App open; false when it has
 * none (outside Telegram, or Web A, which closes the Mini App on a t.me link), so the caller shares
 * another way (the system sheet, a copy).
 */
export function shareThroughTelegram(url: string, text: string): boolean {
  const bridge = getTelegramBridge();
  return bridge ? bridge.share(url, text) : false;
}
