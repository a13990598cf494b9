/**
 * The few texts of the error screen (a download that failed) and the offline banner, in the entry chunk in all
 * four languages (docs/decisions.md#a-bad-connection): they must show when the very thing that failed is the
 * download of the translations. The build takes them from `locales/<lng>/common.json` (`build/fallback-texts.ts`).
 */
import texts from "virtual:kassa-fallback-texts";
import type { FallbackKey } from "./fallback-keys";
import { i18next, shownLanguage } from "./i18n";

/**
 * The loaded translation when there is one, else the embedded text, in the current language; a key with no
 * embedded text (the server's replies: they come with the common texts) falls back to the general one.
 */
export function fallbackText(key: FallbackKey | `apiError.${"network" | "timeout" | "parse"}`): string {
  const full = `common:${key}`;
  if (i18next.isInitialized && i18next.exists(full)) return i18next.t(full as never) as string;
  const embedded: Record<string, string> = texts[shownLanguage()];
  return embedded[key] ?? embedded["errorBoundary.text"] ?? "";
}
