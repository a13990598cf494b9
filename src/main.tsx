import "@telegram-apps/telegram-ui/dist/styles.css";
import "./styles/base.css";
import "./styles/shell.css";
import "./styles/forms.css";
import "./styles/auth.css";
import "./styles/header.css";
import "./styles/subscription.css";
import "./styles/cabinet.css";
// With the app's styles, not its component: a stylesheet of the cabinet's launch chunk made the build's cabinet
// facade export a name it never defined (the cabinet failed to load).
import "./features/first-steps/first-steps.css";
import "./styles/contrast.css";
import { StrictMode, startTransition } from "react";
import { createRoot } from "react-dom/client";
import { createApp } from "@/app/app";
import { startLaunch } from "@/app/launch";
import { keepPaintedOver } from "@/app/painted-cover";
import { initI18n } from "@/config/i18n";
import { startParamPath } from "@/config/paths";
import { checkKeptToken, refreshCurrentUser } from "@/features/auth/api/session";
import { withDeadline } from "@/lib/load-faults";
import { createQueryClient } from "@/lib/query-client";
import { readSavedSession, restoreSession } from "@/lib/session";
import { isInsideTelegram, setTelegramBridge } from "@/tma/bridge";
import { detectTelegramLaunch, dropDevMockParam } from "@/tma/launch";

declare global {
  interface Window {
    /** Set once the entry runs: the tests tell by it whether the launcher's painted balance came before the app. */
    __kassaStarted?: boolean;
  }
}

/**
 * The built page preloads the entry's stylesheet instead of blocking its first paint on it (vite.config.ts): it
 * applies here, and the first render waits for it. A dev page has none (Vite injects the styles itself).
 */
function applyStyles(): Promise<unknown> {
  const preloaded = document.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="style"][data-kassa-styles]');
  return Promise.all(
    [...preloaded].map(
      (preload) =>
        new Promise((resolve) => {
          const sheet = document.createElement("link");
          sheet.rel = "stylesheet";
          sheet.crossOrigin = preload.crossOrigin;
          sheet.href = preload.href;
          sheet.onload = sheet.onerror = resolve;
          preload.after(sheet);
        }),
    ),
  );
}

/**
 * Gives the main thread back between the start's steps: each (the screen's code announced, the texts, the session,
 * the first render) is a task of its own rather than one long task a slow phone cannot paint or answer a tap
 * during. `scheduler.yield` where the browser has it (the rest of the start goes first when it resumes).
 */
function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === "function") return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * The longest a cabinet launch's first render waits for what it shows. Its data comes with the launcher's first call,
 * before the code, so the wait is only that code's: it ends at this only when a reply hangs (a download that hangs
 * ends it at the load deadline, `LOAD_DEADLINE_MS`). On a phone the painted figure covers it; unpainted (a wide
 * screen), the boot spinner.
 */
const FIRST_RENDER_WAIT_MS = 3000;

async function start(): Promise<void> {
  window.__kassaStarted = true;
  const styles = applyStyles();
  const launch = detectTelegramLaunch();
  dropDevMockParam();
  // A launch with a start parameter (`startapp=withdrawal_<id>`, a chat button) opens its screen; the
  // guards take a signed-out user through sign-in and on to it. Only at launch, from the app's start.
  const target = launch?.fresh ? startParamPath(launch.startParam) : undefined;
  if (target && window.location.pathname === "/") {
    window.history.replaceState(window.history.state, "", `${target}${window.location.hash}`);
  }
  // The modules' own evaluation was this task: the launch's work goes in the next.
  await yieldToMain();
  // The screen's code, its texts and the maintenance flag start now, side by side, beside the Telegram
  // boot and the session's restore (src/app/launch.ts).
  const queryClient = createQueryClient();
  const screen = startLaunch(queryClient, window.location.pathname, { telegram: launch !== undefined });
  await yieldToMain();
  const texts = initI18n({ telegramLanguage: launch?.languageCode, namespaces: screen.namespaces });
  await yieldToMain();
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
  // With a kept token the first screen's data is asked for at once, beside the session's check. Its code comes
  // with the cabinet's (announced above), so the login's first screen does not carry it.
  const launchData = screen.cabinet ? import("@/app/launch-data") : undefined;
  launchData?.catch(() => undefined);
  let dataSent: Promise<unknown> | undefined;
  const onToken = (token: string) => {
    dataSent = launchData?.then((data) => data.prefetchLaunchData(queryClient, screen, token));
    dataSent?.catch(() => undefined);
  };
  const restored = isInsideTelegram()
    ? // Inside Telegram the kept token is checked before it counts: a good one is the session (no new
      // Telegram sign-in at each launch); a refused one is dropped quietly and the login screen signs in
      // with the fresh init data.
      restoreSession({ read: () => readSavedSession({ checkToken: checkKeptToken, onToken }) })
    : restoreSession({ read: () => readSavedSession({ onToken }) });
  void restored.then((outcome) => {
    if (outcome !== "signed-in") {
      void launchData?.then((data) => data.dropLaunchData(queryClient, screen)).catch(() => undefined);
      return;
    }
    // On the web a restored user may be out of date (confirmed elsewhere, renamed): refresh it in the
    // background. A 401 there ends the session ('Session timed out', then login and back).
    if (!isInsideTelegram()) void refreshCurrentUser();
  });

  await yieldToMain();
  await styles;
  // The first render waits for the screen's code and texts (or FIRST_RENDER_WAIT_MS): rendered before they came, it
  // suspended, and React threw that render away and did it again once they had come (the login's did). The
  // cabinet's shows its figures in one go: it waits for the restore and the replies the launch asked for too.
  // Rendered earlier, it drew the frame with skeletons under the painted figure, then all of it again once the
  // replies were in. A download that has not come by the load deadline ends the wait, so its fault is said then.
  const ready = [withDeadline(screen.code), withDeadline(texts)];
  if (screen.cabinet) ready.push(restored.then(() => dataSent));
  await Promise.race([Promise.allSettled(ready), new Promise((resolve) => setTimeout(resolve, FIRST_RENDER_WAIT_MS))]);
  const container = document.getElementById("root");
  if (!container) throw new Error("index.html has no #root");
  keepPaintedOver(container);
  const root = createRoot(container);
  // A transition: React renders the app in slices of a few milliseconds, giving the main thread back between
  // them, instead of one task as long as the whole tree's render on a slow phone. What suspends (a screen's
  // code, its texts) shows its fallback as before. Updates from the query cache still render in one go.
  startTransition(() => root.render(<StrictMode>{createApp(queryClient)}</StrictMode>));
}

void start();
