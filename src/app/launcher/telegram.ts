// The launcher inside Telegram: the kept token read as the boot's token store reads it, with its storages
// (`tma/token-places.ts`), and the client's look for the painted cabinet, over the client's bridge without the SDK
// (the SDK downloads beside the app's code).

import { postToClient } from "@/tma/client-events";
import type { TelegramLaunch } from "@/tma/launch";
import { followSafeAreas } from "@/tma/safe-areas";
import { firstAnswer, readFramedToken, TELEGRAM_TOKEN_KEY, telegramStorages } from "@/tma/token-places";

const client = window as unknown as { TelegramWebviewProxy?: { postEvent?: unknown } };

/**
 * The Mini Apps API versions that brought the safe areas' requests and the client's SecureStorage and DeviceStorage,
 * as the SDK's table has them (`supports`, which the boot asks): imported here, `supports` brings the SDK's whole
 * bridge module into this inline script (11.7 → 36.6 KB), so the two numbers are kept, and
 * `tests/unit/launcher-versions.test.ts` holds them to the SDK's table.
 */
export const SAFE_AREAS_SINCE = 8;
export const STORAGES_SINCE = 9;

const major = (launch: TelegramLaunch) => Number((launch.version ?? "6.0").split(".")[0]);

/**
 * The client's look, which the server renders the painted cabinet in (`FirstScreenQuery`): its platform and its theme
 * as it passed them. It also starts following the safe areas the client reports (the page's, `tma/safe-areas.ts`:
 * the boot finds them followed).
 */
export function telegramLook(launch: TelegramLaunch): Record<string, string> {
  followSafeAreas(() => major(launch) >= SAFE_AREAS_SINCE && !launch.devMock);
  return { telegram: launch.platform, theme: launch.params.get("tgWebAppThemeParams") ?? "{}" };
}

/**
 * The kept token as the boot's token store reads it: the first of the client's storages that answers, else the
 * framed store. Only read: moving a token between stores is the boot's. With the biometric lock on, the token is in
 * none of these (the boot asks for Face ID): no calls.
 */
export async function keptTelegramToken(launch: TelegramLaunch): Promise<string | null> {
  const tiers = telegramStorages(launch.platform, () => major(launch) >= STORAGES_SINCE && !launch.devMock);
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
