/**
 * The Telegram start sequence. This module is the only one that imports the SDK, and `main.tsx` loads
 * it with `import()` only when `launch.ts` saw a Telegram launch, so the web fallback never downloads it.
 */
import {
  backButton,
  closingBehavior,
  emitEvent,
  hapticFeedback,
  init,
  mainButton,
  miniApp,
  mockTelegramEnv,
  on,
  openTelegramLink,
  parseInitDataQuery,
  parseLaunchParamsQuery,
  postEvent,
  themeParams,
  viewport,
} from "@telegram-apps/sdk-react";
import type { Appearance, TelegramBridge } from "./bridge";
import { SDK_LAUNCH_PARAMS_KEY, type TelegramLaunch } from "./launch";

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

export async function bootTelegram(launch: TelegramLaunch): Promise<TelegramBridge> {
  offerLaunchParamsToSdk(launch.params);
  if (launch.devMock) installDevMock(launch);

  init();
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

  // The viewport (size, safe areas) is asked of the client; the app does not wait for the answer.
  if (viewport.mount.isAvailable()) {
    viewport
      .mount()
      .then(() => {
        viewport.bindCssVars.ifAvailable();
        viewport.expand.ifAvailable();
      })
      .catch((error: unknown) => console.warn("[kassa] viewport not mounted", error));
  }

  const appearance = (): Appearance => (themeParams.isDark() ? "dark" : "light");

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
        if (visible) backButton.show.ifAvailable();
        else backButton.hide.ifAvailable();
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
    openTelegramLink: (url) => {
      const [opened] = openTelegramLink.ifAvailable(url);
      if (!opened) window.open(url, "_blank", "noopener");
    },
  };
}
