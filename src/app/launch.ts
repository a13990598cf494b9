/**
 * What a launch starts from the entry chunk, side by side instead of one after another
 * (docs/architecture.md#how-a-launch-flows): the code of the screen it will show (and the cabinet's frame),
 * that screen's texts, the maintenance flag and, with a kept session, the first screen's data, sent with the
 * kept token while the session is still being checked (`launch-data.ts`, loaded with the cabinet's code).
 */
import type { QueryClient } from "@tanstack/react-query";
import { CABINET_TEXTS } from "@/config/cabinet-texts";
import type { Namespace } from "@/config/i18n";
import { settingsQueries } from "@/features/settings/api/settings-queries";
import { loadContract } from "@/lib/contract";
import { keepLaunchReplyFresh } from "@/lib/early-replies";
import { USER_STORAGE_KEY } from "@/lib/session";
import { launchScreen, preloadScreens } from "./router";

/**
 * The texts an entry screen reads beyond `common`, asked for with its code: rendered before they had come it
 * suspended, and a suspended render is thrown away and done again. A cabinet screen's are `CABINET_TEXTS` and, for
 * those a chat button opens, what `launch-data.ts` asks for.
 */
const SCREEN_NAMESPACES: Partial<Record<ReturnType<typeof launchScreen>["screen"], readonly Namespace[]>> = {
  login: ["auth"],
  register: ["auth", "registration"],
  forgotPassword: ["auth", "recovery"],
};

export interface Launch {
  /** The screen the launch will show, after the guards. */
  screen: ReturnType<typeof launchScreen>["screen"];
  /** Whether it is a cabinet screen (a kept session was found). */
  cabinet: boolean;
  /** The texts to load with i18next's start. */
  namespaces: Namespace[];
}

/** A launch started: what it prepares, and its screen's code, settled once that has come or failed. */
export interface StartedLaunch extends Launch {
  code: Promise<unknown>;
}

/** A user saved by the last visit: the launch then prepares the cabinet (the restore may still say no). */
function hasSavedUser(): boolean {
  try {
    return localStorage.getItem(USER_STORAGE_KEY) !== null;
  } catch {
    return false;
  }
}

/**
 * The login offers to open the Mini App when Telegram sign-in is on (and, on the web, links to the bot by its
 * name): both settings are asked for with the login's code, side by side, instead of one after the other once
 * it renders. Until they have come the login keeps the offer's room (`routes/login.tsx`).
 */
function prefetchLoginSettings(queryClient: QueryClient, telegram: boolean): void {
  void queryClient.prefetchQuery(settingsQueries.telegramAuthAvailable());
  if (!telegram) void queryClient.prefetchQuery(settingsQueries.botUsername());
}

/**
 * Starts the screen's code and the maintenance flag (and the login's settings), and says which texts to load
 * with i18next and when the code has come. Call once the page's address is final; `telegram` for a launch inside
 * Telegram.
 */
export function startLaunch(
  queryClient: QueryClient,
  pathname: string = window.location.pathname,
  { telegram = false }: { telegram?: boolean } = {},
): StartedLaunch {
  const { screen, cabinet } = launchScreen(pathname, hasSavedUser());
  const code = preloadScreens(pathname, cabinet);
  // A cabinet's first calls, and the kept user's check, are checked against the contract: its code starts now.
  if (cabinet) loadContract().catch(() => undefined);
  keepLaunchReplyFresh(queryClient, settingsQueries.technicalWork().queryKey);
  void queryClient.prefetchQuery(settingsQueries.technicalWork());
  if (screen === "login") prefetchLoginSettings(queryClient, telegram);
  const namespaces = new Set<Namespace>(["common"]);
  if (cabinet) for (const namespace of CABINET_TEXTS) namespaces.add(namespace);
  for (const namespace of SCREEN_NAMESPACES[screen] ?? []) namespaces.add(namespace);
  return { screen, cabinet, namespaces: [...namespaces], code };
}
