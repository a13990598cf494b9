import "@telegram-apps/telegram-ui/dist/styles.css";
import "./styles/app.css";
import "./styles/contrast.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createApp } from "@/app/app";
import { initI18n } from "@/config/i18n";
import { startParamPath } from "@/config/paths";
import { checkKeptToken, refreshCurrentUser } from "@/features/auth/api/session";
import { readSavedSession, restoreSession } from "@/lib/session";
import { isInsideTelegram, setTelegramBridge } from "@/tma/bridge";
import { detectTelegramLaunch, dropDevMockParam } from "@/tma/launch";

async function start(): Promise<void> {
  const launch = detectTelegramLaunch();
  dropDevMockParam();
  if (launch) {
    try {
      // Only a Telegram launch downloads the SDK.
      const { bootTelegram } = await import("@/tma/boot");
      setTelegramBridge(await bootTelegram(launch));
    } catch (error) {
      // Broken launch parameters or an old client: the app still runs, as the web app.
      console.error("[kassa] Telegram start failed; running as the web app", error);
    }
  }
  // A launch with a start parameter (`startapp=withdrawal_<id>`, a chat button) opens its screen; the
  // guards take a signed-out user through sign-in and on to it. Only at launch, from the app's start.
  const target = launch?.fresh ? startParamPath(launch.startParam) : undefined;
  if (target && window.location.pathname === "/") {
    window.history.replaceState(window.history.state, "", `${target}${window.location.hash}`);
  }
  void initI18n({ telegramLanguage: launch?.languageCode });
  if (isInsideTelegram()) {
    // Inside Telegram the kept token is checked before it counts: a good one is the session (no new
    // Telegram sign-in at each launch); a refused one is dropped quietly and the login screen signs in
    // with the fresh init data.
    void restoreSession({ read: () => readSavedSession({ checkToken: checkKeptToken }) });
  } else {
    // A restored user may be out of date (confirmed elsewhere, renamed): refresh it in the background.
    // A 401 there ends the session ('Session timed out', then login and back).
    void restoreSession().then((outcome) => {
      if (outcome === "signed-in") void refreshCurrentUser();
    });
  }

  const container = document.getElementById("root");
  if (!container) throw new Error("index.html has no #root");
  createRoot(container).render(<StrictMode>{createApp()}</StrictMode>);
}

void start();
