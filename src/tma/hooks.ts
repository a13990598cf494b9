/**
 * The app's hooks into Telegram. Each is a no-op outside Telegram (no bridge), so screens use them
 * unconditionally.
 */
import { type Mutation, type MutationCache, QueryClientContext } from "@tanstack/react-query";
import { atom, useAtomValue, useStore } from "jotai";
import { createContext, useContext, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from "react";
import { DARK_SCHEME_QUERY, systemAppearance, watchMedia } from "@/config/media";
import {
  type Appearance,
  getTelegramBridge,
  type ImpactStyle,
  type MainButtonParams,
  type NotificationType,
  type TelegramBridge,
} from "./bridge";
import { uiPlatformOf } from "./launch";
import { placeholderUp } from "./screen-coming-in";
import type { LockState } from "./token-store";

export function useTelegram(): TelegramBridge | null {
  return getTelegramBridge();
}

function subscribeSystemScheme(listener: () => void): () => void {
  return watchMedia(DARK_SCHEME_QUERY, listener);
}

/** Telegram's theme (dark when its background is dark), or the system's colour scheme on the web; live. */
export function useAppearance(): Appearance {
  const bridge = getTelegramBridge();
  return useSyncExternalStore(
    bridge ? bridge.appearance.subscribe : subscribeSystemScheme,
    bridge ? bridge.appearance.get : systemAppearance,
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

/** Marks a placeholder standing for a screen still coming in (screen-coming-in.ts): Back waits for the screen. */
export function usePlaceholder(): void {
  useEffect(() => placeholderUp(), []);
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
const mainButtonShownAtom = atom((get) => get(mainButtonsShownAtom) > 0);

export function useMainButtonShown(): boolean {
  return useAtomValue(mainButtonShownAtom);
}

/**
 * The open sheets, bottom first. While one is open it owns the bottom bar (only a Main button asked
 * for inside the top sheet shows) and Telegram's Back closes it before anything else.
 */
const openSheets: { id: symbol; close: () => void }[] = [];
const sheetListeners = new Set<() => void>();

/** The sheet a component is rendered in (null: the screen itself). */
export const SheetContext = createContext<symbol | null>(null);

function sheetsChanged(): void {
  for (const listener of sheetListeners) listener();
  const bridge = getTelegramBridge();
  if (bridge) applyBottomBar(bridge);
}

/** Registers a sheet while it is mounted; returns its id for `SheetContext`. */
export function useSheetRegistration(onClose: () => void): symbol {
  const [id] = useState(() => Symbol("sheet"));
  const close = useRef(onClose);
  close.current = onClose;
  // A layout effect: the sheet is on the stack before the Main buttons inside it register (effects).
  useLayoutEffect(() => {
    openSheets.push({ id, close: () => close.current() });
    sheetsChanged();
    return () => {
      const at = openSheets.findIndex((sheet) => sheet.id === id);
      if (at >= 0) openSheets.splice(at, 1);
      sheetsChanged();
    };
  }, [id]);
  return id;
}

/** How many sheets are open; live. */
export function useOpenSheetCount(): number {
  return useSyncExternalStore(
    (listener) => {
      sheetListeners.add(listener);
      return () => sheetListeners.delete(listener);
    },
    () => openSheets.length,
  );
}

/** Closes the top sheet; false when none is open. */
export function closeTopSheet(): boolean {
  const top = openSheets.at(-1);
  if (!top) return false;
  top.close();
  return true;
}

interface MainButtonOwner {
  sheet: symbol | null;
  order: number;
  text: string;
  enabled: boolean;
  loading: boolean;
  visible: boolean;
  money: boolean;
  click: () => void;
  /** Where the requests a press starts are seen (the app's query client), to hold the button while they are out. */
  mutations: MutationCache | undefined;
}

/** Every mounted `useMainButton`; the bar shows the newest visible one of the top sheet (or the screen). */
const owners = new Map<symbol, MainButtonOwner>();
let ownerOrder = 0;
const clickInstalled = new WeakSet<TelegramBridge>();
const lastBar = new WeakMap<TelegramBridge, string>();
const lastSwipes = new WeakMap<TelegramBridge, boolean>();
/** Clients whose Main button is held: a press's request is still out. */
const held = new WeakSet<TelegramBridge>();

/**
 * A press of the Main button, guarded for every form it sends: a press is ignored while the button shows
 * disabled or its loader, and while a request an earlier press started is still out. The loader alone is
 * late: a request's pending state reaches the form a task after the press, and Telegram Web A delivers a
 * quick second press (or both of a double tap) before that. So the requests (mutations) the press starts,
 * which start within the press's own call, are watched in the query client, and the button stays held until
 * every one of them is answered. A press that sends nothing (a rule refused the input, a confirmation step
 * opened) holds nothing.
 */
function press(bridge: TelegramBridge): void {
  const owner = currentOwner();
  if (!owner?.enabled || owner.loading || held.has(bridge)) return;
  const cache = owner.mutations;
  const started: Mutation<unknown, unknown, unknown, unknown>[] = [];
  const stopWatching = cache?.subscribe((event) => {
    if (event.type === "added") started.push(event.mutation);
  });
  held.add(bridge);
  try {
    owner.click();
  } catch (error) {
    held.delete(bridge);
    throw error;
  } finally {
    stopWatching?.();
  }
  const out = () => started.some((mutation) => mutation.state.status === "pending");
  if (!cache || !out()) {
    held.delete(bridge);
    return;
  }
  const stop = cache.subscribe(() => {
    if (out()) return;
    stop();
    held.delete(bridge);
  });
}

function currentOwner(): MainButtonOwner | undefined {
  const layer = openSheets.at(-1)?.id ?? null;
  let found: MainButtonOwner | undefined;
  for (const owner of owners.values()) {
    if (owner.sheet === layer && owner.visible && (!found || owner.order > found.order)) found = owner;
  }
  return found;
}

/**
 * Puts the one Main button that owns the bottom bar on it (or hides it), and sets vertical swipes:
 * on everywhere but while a money form (a Main button) or a sheet (it is dragged down to close) is open.
 */
function applyBottomBar(bridge: TelegramBridge): void {
  const owner = currentOwner();
  const params: MainButtonParams = owner
    ? {
        text: owner.text,
        isEnabled: owner.enabled && !owner.loading,
        isLoaderVisible: owner.loading,
        isVisible: true,
      }
    : { isVisible: false, isLoaderVisible: false };
  const key = JSON.stringify(params);
  if (lastBar.get(bridge) !== key) {
    lastBar.set(bridge, key);
    bridge.mainButton.set(params);
  }
  // Only a money form (a slip of the finger must not fold the app mid-entry) or an open sheet turns swipes off;
  // a list's action (Open a deposit) or a profile form leaves them on, as Telegram asks.
  const moneyFormOpen = Array.from(owners.values()).some((o) => o.visible && o.money);
  const swipes = !moneyFormOpen && openSheets.length === 0;
  if (lastSwipes.get(bridge) !== swipes) {
    lastSwipes.set(bridge, swipes);
    bridge.setVerticalSwipes(swipes);
  }
}

export interface MainButtonOptions {
  text: string;
  onClick: () => void;
  enabled?: boolean;
  loading?: boolean;
  visible?: boolean;
  /** A money form's action: while it shows, vertical swipes only scroll. */
  money?: boolean;
}

/**
 * Telegram's Main button for a form's primary action: text, loader, enabled state and click; hidden
 * again when the screen unmounts. Returns whether it is in use, so the screen renders its own button on
 * the web. While it is shown the form is open: vertical swipes only scroll (a swipe must not fold the
 * app mid-entry) and the cabinet's tab bar steps aside (`mainButtonShownAtom`). While a sheet is open
 * only a Main button inside it shows: a screen's button waits under the sheet and does not answer. Every form
 * it submits is guarded against a second press while the first one's request is out (`press` above).
 */
export function useMainButton({
  text,
  onClick,
  enabled = true,
  loading = false,
  visible = true,
  money = false,
}: MainButtonOptions): boolean {
  const bridge = getTelegramBridge();
  const sheet = useContext(SheetContext);
  const mutations = useContext(QueryClientContext)?.getMutationCache();
  const [id] = useState(() => Symbol("main-button"));
  const handler = useRef(onClick);
  handler.current = onClick;

  useEffect(() => {
    if (!bridge) return;
    if (!clickInstalled.has(bridge)) {
      clickInstalled.add(bridge);
      bridge.mainButton.onClick(() => press(bridge));
    }
    const order = owners.get(id)?.order ?? ++ownerOrder;
    const click = () => handler.current();
    owners.set(id, { sheet, order, text, enabled, loading, visible, money, click, mutations });
    applyBottomBar(bridge);
  }, [bridge, id, sheet, text, enabled, loading, visible, money, mutations]);

  useEffect(() => {
    if (!bridge) return;
    return () => {
      owners.delete(id);
      // Once the commit's other effects have run: a form taking its skeleton's place (or one screen's button
      // another's) sets the bar once, and Telegram never hears it hidden in between.
      queueMicrotask(() => applyBottomBar(bridge));
    };
  }, [bridge, id]);

  const store = useStore();
  useEffect(() => {
    if (!bridge || !visible) return;
    store.set(mainButtonsShownAtom, store.get(mainButtonsShownAtom) + 1);
    return () => store.set(mainButtonsShownAtom, Math.max(0, store.get(mainButtonsShownAtom) - 1));
  }, [bridge, store, visible]);

  return bridge !== null;
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

/** The states in which the locked screen shows instead of the app (kept here: the web's entry never loads the store). */
export const LOCKED_STATES: readonly LockState[] = ["refused", "denied", "unavailable"];

const noLock = () => () => {};
const openState = (): LockState => "open";

/** Where this launch stands with the biometric lock (`open` outside Telegram or without one); live. */
export function useBiometricLockState(): LockState {
  const lock = getTelegramBridge()?.biometricLock;
  return useSyncExternalStore(lock ? lock.subscribe : noLock, lock ? lock.state : openState);
}
