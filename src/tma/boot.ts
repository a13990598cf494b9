/**
 * The Telegram start sequence. This module is the only one that imports the SDK, and `main.tsx` loads
 * it with `import()` only when `launch.ts` saw a Telegram launch, so the web fallback never downloads it.
 */
import {
  addToHomeScreen,
  backButton,
  biometry,
  checkHomeScreenStatus,
  closingBehavior,
  downloadFile,
  emitEvent,
  hapticFeedback,
  init,
  type MethodName,
  mainButton,
  miniApp,
  mockTelegramEnv,
  on,
  openLink,
  openTelegramLink,
  type PostEventFn,
  parseInitDataQuery,
  parseLaunchParamsQuery,
  postEvent,
  request,
  shareMessage,
  supports,
  themeParams,
} from "@telegram-apps/sdk-react";
import i18next from "i18next";
import { setTokenStore } from "@/lib/session";
import type { Appearance, TelegramBridge } from "./bridge";
import { buttonFill } from "./button-fill";
import { postToClient } from "./client-events";
import { installCopyFallback } from "./clipboard";
import { SDK_LAUNCH_PARAMS_KEY, type TelegramLaunch } from "./launch";
import { followSafeAreas } from "./safe-areas";
import { whenScreenIn } from "./screen-coming-in";
import { LOCK_ANSWER_TIMEOUT_MS, telegramStorages } from "./token-places";
import {
  type BiometricLock,
  type BiometricVault,
  framedTokenStore,
  lockableTokenStore,
  lockMark,
  telegramTokenStore,
} from "./token-store";

const NO_INSETS = { top: 0, bottom: 0, left: 0, right: 0 };

/**
 * Development switch (`?tgDevMock=1`, e.g. from the server's `/api/dev/telegram-launch`): with no real
 * client on the other side, answer the requests a client would, so the app runs as if launched from
 * Telegram with the launch parameters in the URL.
 */
function installDevMock(launch: TelegramLaunch): void {
  const raw = launch.params.get("tgWebAppThemeParams");
  let theme: Record<string, `#${string}`> = {};
  try {
    theme = raw ? JSON.parse(raw) : {};
  } catch {
    theme = {};
  }
  mockTelegramEnv({
    onEvent([method], next) {
      switch (method) {
        case "web_app_request_theme":
          return emitEvent("theme_changed", { theme_params: theme });
        case "web_app_request_viewport":
          return emitEvent("viewport_changed", {
            height: window.innerHeight,
            width: window.innerWidth,
            is_expanded: true,
            is_state_stable: true,
          });
        case "web_app_request_safe_area":
          return emitEvent("safe_area_changed", NO_INSETS);
        case "web_app_request_content_safe_area":
          return emitEvent("content_safe_area_changed", NO_INSETS);
        default:
          return next();
      }
    },
  });
  console.info("[kassa] Telegram environment mocked (development switch tgDevMock=1)");
}

function accepted(parse: (query: string) => unknown, query: string): boolean {
  try {
    parse(query);
    return true;
  } catch {
    return false;
  }
}

/**
 * The SDK checks every launch parameter strictly and, if one fails, treats the page as outside
 * Telegram. Init data it cannot read (e.g. without the `signature` field Telegram added in Bot API 8.0,
 * or empty) must not cost the theme, the buttons and the viewport: the SDK gets the parameters without
 * it, in the place it reads them from after the URL. The raw init data still goes to the server, which
 * checks its signature itself.
 */
function offerLaunchParamsToSdk(params: URLSearchParams): void {
  const query = new URLSearchParams(params);
  if (!accepted(parseLaunchParamsQuery, query.toString())) {
    const rawInitData = query.get("tgWebAppData");
    if (rawInitData !== null && !accepted(parseInitDataQuery, rawInitData)) query.delete("tgWebAppData");
    if (!accepted(parseLaunchParamsQuery, query.toString())) query.set("tgWebAppThemeParams", "{}");
  }
  try {
    sessionStorage.setItem(SDK_LAUNCH_PARAMS_KEY, JSON.stringify(query.toString()));
  } catch {
    // No storage: the SDK reads the URL, as it does by default.
  }
}

/**
 * What the SDK posts with (every call of its components, and its `postEvent` and `request`): as its strict default,
 * a method the client's version does not have throws, and the event goes out through `postToClient`, which is
 * the SDK bridge's way without its check of the whole `window` before each event.
 */
function postEventIn(version: string): PostEventFn {
  const post = (method: MethodName, params?: unknown) => {
    const unsupported =
      !supports(method, version) ||
      (method === "web_app_set_header_color" &&
        typeof params === "object" &&
        params !== null &&
        "color" in params &&
        !supports(method, "color", version));
    if (unsupported) throw new Error(`${method} is not supported in Mini Apps version ${version}`);
    if (!postToClient(method, params)) throw new Error(`No Telegram client to post ${method} to`);
  };
  return post as PostEventFn;
}

function offered(method: MethodName, version: string | undefined): boolean {
  try {
    return supports(method, version ?? "6.0");
  } catch {
    return false;
  }
}

/** Clients whose BiometricManager may offer Face ID, Touch ID or a fingerprint (Bot API 7.2). */
const BIOMETRIC_PLATFORMS = ["ios", "android"];

/** What the client's biometric prompt says the app asks for (in the app's language once it is loaded). */
const biometricReason = () => i18next.t("common:biometricReason", { defaultValue: "Unlock Kassa" });

/**
 * Telegram's BiometricManager (the SDK's `biometry`) as the token store's vault, or null on a client
 * that offers none: Telegram Web and the desktop clients are not asked (Web K would never answer).
 */
function biometricVault(platform: string, version: string | undefined): BiometricVault | null {
  if (!BIOMETRIC_PLATFORMS.includes(platform) || !offered("web_app_biometry_get_info", version)) return null;
  // Asked once; a client that does not answer in time counts as offering none (the wait is long: a lock kept on
  // must not open because the answer came late).
  let mounting: Promise<ReturnType<typeof biometry.state> | null> | null = null;
  const mounted = () => {
    mounting ??= Promise.race([
      Promise.resolve(biometry.mount(undefined)).then(() => biometry.state()),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), LOCK_ANSWER_TIMEOUT_MS)),
    ]).catch(() => null);
    return mounting;
  };
  return {
    info: async (fresh = false) => {
      const state = await mounted();
      if (!state) return null;
      if (fresh) {
        // Asked of the client again: neither the iOS nor the Android client tells the app when the user gives
        // access back in its settings, or takes it away (they answer `get_info` and `request_access` only).
        const answer = await request("web_app_biometry_get_info", "biometry_info_received", {
          timeout: LOCK_ANSWER_TIMEOUT_MS,
        }).catch(() => null);
        if (answer)
          return answer.available
            ? {
                available: true,
                type: answer.type,
                tokenSaved: answer.token_saved,
                accessGranted: answer.access_granted,
              }
            : { available: false, type: "", tokenSaved: false, accessGranted: false };
      }
      // Read again: the SDK keeps the state up to date with every answer of the client.
      const now = biometry.state();
      return { available: now.available, type: now.type, tokenSaved: now.tokenSaved, accessGranted: now.accessGranted };
    },
    requestAccess: async () => {
      await mounted();
      return biometry.requestAccess({ reason: biometricReason() });
    },
    authenticate: async () => {
      await mounted();
      const answer = await biometry.authenticate({ reason: biometricReason() });
      return answer.status === "authorized"
        ? { status: "authorized" as const, token: answer.token ?? "" }
        : { status: "failed" as const, token: "" };
    },
    save: async (token) => {
      await mounted();
      const status = await biometry.updateToken({ token, reason: biometricReason() });
      return status === (token ? "updated" : "removed");
    },
    openSettings: () => {
      biometry.openSettings.ifAvailable();
    },
  };
}

/**
 * Safe areas, content safe areas (`safe-areas.ts`), height and fullscreen, as CSS variables the layout reads
 * (`--tg-viewport-height`) and `data-tg-fullscreen` on the root element. Nothing waits for an answer.
 */
function trackViewport(launch: TelegramLaunch): void {
  const root = document.documentElement;
  followSafeAreas((method) => offered(method as MethodName, launch.version));
  root.dataset.tgFullscreen = String(launch.params.get("tgWebAppFullscreen") === "1");
  on("fullscreen_changed", ({ is_fullscreen }) => {
    root.dataset.tgFullscreen = String(is_fullscreen);
  });
  on("viewport_changed", ({ height, is_state_stable }) => {
    if (!Number.isFinite(height) || height <= 0) return;
    root.style.setProperty("--tg-viewport-height", `${height}px`);
    if (is_state_stable) root.style.setProperty("--tg-viewport-stable-height", `${height}px`);
  });
  for (const method of ["web_app_request_viewport", "web_app_expand"] as const) {
    if (!offered(method, launch.version)) continue;
    try {
      postEvent(method);
    } catch (error) {
      console.warn(`[kassa] ${method} not sent`, error);
    }
  }
}

type Theme = ReturnType<typeof themeParams.state>;

/**
 * The bottom bar (behind the Main button) in the colour of the app's own bars (`--tgui--surface_primary` in
 * styles/base.css): the theme's `bottom_bar_bg_color`, else its `bg_color`.
 */
function bottomBarColor(theme: Theme): string | undefined {
  return theme.bottom_bar_bg_color ?? theme.bg_color;
}

/**
 * Applies the colours taken from `theme`: the in-page primary buttons' fill (button-fill.ts), the bottom bar's
 * colour (posted directly: the SDK sends `web_app_set_bottom_bar_color` only when its own state changes, and at
 * launch it already holds the value, so a launch would send nothing), and, on a change, the Main button's
 * colours again.
 */
function followTheme(theme: Theme, version: string | undefined, changed = false): void {
  const fill = buttonFill(theme.button_color, theme.button_text_color);
  if (fill) document.documentElement.style.setProperty("--kassa-button-fill", fill);
  else document.documentElement.style.removeProperty("--kassa-button-fill");
  const bar = bottomBarColor(theme);
  if (bar && offered("web_app_set_bottom_bar_color", version)) {
    // Kept in the SDK's state as a colour, so its own follower (which re-sends a colour *key* on a change) stays
    // quiet and the client hears it once per change; sent directly when the SDK already holds it.
    if (miniApp.bottomBarColor() === bar) postEvent("web_app_set_bottom_bar_color", { color: bar as `#${string}` });
    else miniApp.setBottomBarColor.ifAvailable(bar as `#${string}`);
  }
  if (changed && (theme.button_color || theme.button_text_color)) {
    mainButton.setParams.ifAvailable({
      ...(theme.button_color ? { backgroundColor: theme.button_color } : {}),
      ...(theme.button_text_color ? { textColor: theme.button_text_color } : {}),
    });
  }
}

/** How long the app waits for the user's answer to Telegram's download prompt. */
const DOWNLOAD_ANSWER_TIMEOUT_MS = 120_000;

/** How long the app waits for the user to send a prepared message or close Telegram's chat picker. */
const PREPARED_MESSAGE_ANSWER_TIMEOUT_MS = 120_000;

/** How long the app waits for the client to say whether it is on the home screen; after it, "unknown". */
export const HOME_SCREEN_ANSWER_TIMEOUT_MS = 3_000;

/** How long a hidden Back button waits before Telegram is told (a show in the meantime cancels it). */
export const BACK_HIDE_DELAY_MS = 400;
/** How long after the boot a hidden Back button still waits (the first screen coming in). */
const BACK_STARTUP_MS = 3000;

/** Web A closes the Mini App on every `web_app_open_tg_link`; it has no share path that keeps it open. */
function closesOnTelegramLink(platform: string): boolean {
  return platform === "weba";
}

/** `answer`, or `otherwise` when it has not come within `ms` (a client that never answers holds nothing). */
function withCeiling<T, U>(answer: Promise<T>, ms: number, otherwise: U): Promise<T | U> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const ceiling = new Promise<U>((resolve) => {
    timer = setTimeout(() => resolve(otherwise), ms);
  });
  return Promise.race([answer, ceiling]).finally(() => clearTimeout(timer));
}

export async function bootTelegram(launch: TelegramLaunch): Promise<TelegramBridge> {
  offerLaunchParamsToSdk(launch.params);
  if (launch.devMock) installDevMock(launch);

  init(launch.version ? { postEvent: postEventIn(launch.version) } : undefined);
  backButton.mount.ifAvailable();
  // The SDK tells the client only about changes; say once where the button stands, so a client that
  // kept it from before a reload does not show a stale one.
  if (backButton.isSupported()) postEvent("web_app_setup_back_button", { is_visible: backButton.isVisible() });
  closingBehavior.mount.ifAvailable();
  mainButton.mount.ifAvailable();

  // Theme parameters come with the launch and then with every `theme_changed`; CSS variables
  // (--tg-theme-*) follow them, and telegram-ui reads those variables.
  themeParams.mountSync.ifAvailable();
  themeParams.bindCssVars.ifAvailable();
  miniApp.mountSync.ifAvailable();
  miniApp.bindCssVars.ifAvailable();
  // Every colour the app takes from the theme is taken again on each `theme_changed` (a day/night switch,
  // another theme chosen): the in-page primary buttons' fill, the Main button's colours (the SDK sends them
  // with every setup, so the client would keep the old ones) and the bottom bar's colour. Read from the state
  // the subscription is given: the SDK's derived getters still answer the old theme inside it.
  followTheme(themeParams.state(), launch.version);
  themeParams.state.sub((theme) => followTheme(theme, launch.version, true));
  // The client's own header and the space around the page match the app's page background.
  try {
    miniApp.setHeaderColor.ifAvailable("secondary_bg_color");
    miniApp.setBackgroundColor.ifAvailable("secondary_bg_color");
  } catch (error) {
    console.warn("[kassa] header and background colours not set", error);
  }

  // The viewport (size, safe areas) is asked of the client; the app never waits for the answer.
  trackViewport(launch);
  // Vertical swipes (folding the app by a swipe down) are on from the start, as Telegram asks; the hooks
  // turn them off only while a money form or a sheet is open (hooks.ts, `applyBottomBar`). Posted
  // directly: the SDK's swipe component starts from "off" at every fresh launch.
  const swipes = offered("web_app_setup_swipe_behavior", launch.version);
  const setVerticalSwipes = (enabled: boolean) => {
    if (swipes) postEvent("web_app_setup_swipe_behavior", { allow_vertical_swipe: enabled });
  };
  setVerticalSwipes(true);
  // Telegram Web's frame grants no clipboard-write: a copy there takes the fallback (clipboard.ts).
  installCopyFallback();

  // The refresh token goes where this client keeps it best (see token-store.ts).
  const storageOffered = (method: string) => offered(method as MethodName, launch.version);
  const tiers = telegramStorages(launch.platform, storageOffered);
  const kept = telegramTokenStore(launch.devMock ? [] : tiers, framedTokenStore());
  // Where the client offers biometrics, the investor may lock the kept session behind them (Settings).
  const vault = launch.devMock ? null : biometricVault(launch.platform, launch.version);
  let biometricLock: BiometricLock | undefined;
  if (vault) {
    // The lock's mark is read with the lock's long wait: a late answer must not read as "off".
    const markTiers = telegramStorages(launch.platform, storageOffered, LOCK_ANSWER_TIMEOUT_MS);
    const lockable = lockableTokenStore(kept, vault, lockMark(markTiers));
    biometricLock = lockable.lock;
    setTokenStore(lockable.store);
  } else setTokenStore(kept);

  const appearance = (): Appearance => (themeParams.isDark() ? "dark" : "light");
  let backHide: ReturnType<typeof setTimeout> | undefined;
  let cancelWait = () => {};
  const bootedAt = performance.now();

  return {
    platform: launch.platform,
    rawInitData: launch.params.get("tgWebAppData") || undefined,
    startParam: launch.startParam,
    appearance: {
      get: appearance,
      subscribe: (listener) => themeParams.isDark.sub(listener),
    },
    ready: () => {
      miniApp.ready.ifAvailable();
    },
    backButton: {
      setVisible: (visible) => {
        clearTimeout(backHide);
        cancelWait();
        if (visible) backButton.show.ifAvailable();
        // Hidden a moment later: a screen that is still coming in (a reload, its form not yet shown) says
        // "hidden" and then "shown" again, and Telegram's Back would flicker off and on. While the app
        // starts the hide waits for the start to be over, and while a placeholder stands for a screen (its
        // code, the session or its data loading, screen-coming-in.ts) it waits for the screen, then a moment.
        else {
          const hide = () => {
            let screenIn = true;
            cancelWait = whenScreenIn(() => {
              if (screenIn) backButton.hide.ifAvailable();
              else backHide = setTimeout(hide, BACK_HIDE_DELAY_MS);
            });
            screenIn = false;
          };
          const starting = BACK_STARTUP_MS - (performance.now() - bootedAt);
          backHide = setTimeout(hide, Math.max(BACK_HIDE_DELAY_MS, starting));
        }
      },
      onClick: (listener) => {
        const [added, off] = backButton.onClick.ifAvailable(listener);
        return added ? off : () => {};
      },
    },
    mainButton: {
      set: (params) => {
        mainButton.setParams.ifAvailable(params);
      },
      onClick: (listener) => {
        const [added, off] = mainButton.onClick.ifAvailable(listener);
        return added ? off : () => {};
      },
    },
    haptics: {
      notify: (type) => {
        hapticFeedback.notificationOccurred.ifAvailable(type);
      },
      impact: (style) => {
        hapticFeedback.impactOccurred.ifAvailable(style);
      },
      selection: () => {
        hapticFeedback.selectionChanged.ifAvailable();
      },
    },
    setClosingConfirmation: (enabled) => {
      if (enabled) closingBehavior.enableConfirmation.ifAvailable();
      else closingBehavior.disableConfirmation.ifAvailable();
    },
    onActivated: (listener) =>
      on("visibility_changed", (event) => {
        if (event.is_visible) listener();
      }),
    setVerticalSwipes,
    biometricLock,
    openTelegramLink: (url) => {
      const [opened] = openTelegramLink.ifAvailable(url);
      if (!opened) window.open(url, "_blank", "noopener");
    },
    openLink: (url) => {
      const [opened] = openLink.ifAvailable(url);
      if (!opened) window.open(url, "_blank", "noopener,noreferrer");
    },
    downloadFile: async (url, fileName) => {
      if (!downloadFile.isAvailable()) return false;
      // The client shows its prompt and answers with the user's choice (the SDK rejects a refusal); a client
      // that never answers does not hold the app for longer than the ceiling.
      const answer = downloadFile(url, fileName).then(
        () => "downloading" as const,
        () => "cancelled" as const,
      );
      return withCeiling(answer, DOWNLOAD_ANSWER_TIMEOUT_MS, "unanswered" as const);
    },
    homeScreen: offered("web_app_add_to_home_screen", launch.version)
      ? {
          status: async () => {
            try {
              const status = await checkHomeScreenStatus({ timeout: HOME_SCREEN_ANSWER_TIMEOUT_MS });
              return status === "added" || status === "missed" || status === "unsupported" ? status : "unknown";
            } catch {
              return "unknown";
            }
          },
          add: () => {
            addToHomeScreen.ifAvailable();
          },
        }
      : undefined,
    sendPreparedMessage: offered("web_app_send_prepared_message", launch.version)
      ? (id) =>
          // The client answers `prepared_message_sent`, or `prepared_message_failed` when the user closed the picker.
          withCeiling(
            shareMessage(id).then(
              () => "sent" as const,
              () => "declined" as const,
            ),
            PREPARED_MESSAGE_ANSWER_TIMEOUT_MS,
            "unanswered" as const,
          )
      : undefined,
    share: (url, text) => {
      if (closesOnTelegramLink(launch.platform)) return false;
      const link = `https://t.me/share/url?url=${encodeURIComponent(url)}&text=${encodeURIComponent(text)}`;
      const [opened] = openTelegramLink.ifAvailable(link);
      return opened;
    },
  };
}
