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
  initData,
  mainButton,
  miniApp,
  mockTelegramEnv,
  openTelegramLink,
  themeParams,
  viewport,
} from "@telegram-apps/sdk-react";
import type { Appearance, TelegramBridge } from "./bridge";
import { readLaunchParams, type TelegramLaunch } from "./launch";

const NO_INSETS = { top: 0, bottom: 0, left: 0, right: 0 };

/**
 * Development switch (`?tgDevMock=1`, e.g. from the server's `/api/dev/telegram-launch`): with no real
 * client on the other side, answer the requests a client would, so the app runs as if launched from
 * Telegram with the launch parameters in the URL.
 */
function installDevMock(): void {
  const raw = readLaunchParams()?.get("tgWebAppThemeParams");
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

export async function bootTelegram(launch: TelegramLaunch): Promise<TelegramBridge> {
  if (launch.devMock) installDevMock();

  init();
  initData.restore();
  backButton.mount.ifAvailable();
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
    rawInitData: initData.raw(),
    startParam: launch.startParam ?? initData.startParam(),
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
    openTelegramLink: (url) => {
      const [opened] = openTelegramLink.ifAvailable(url);
      if (!opened) window.open(url, "_blank", "noopener");
    },
  };
}
