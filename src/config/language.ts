/**
 * Which interface language a page starts in, without i18next: the app's start (`config/i18n.ts`) and the launcher
 * written into index.html (`app/launcher/`) both ask here.
 */
import type { Language } from "@contract";

/** The interface languages (the contract's `LANGUAGES`; a unit test keeps the two equal). */
export const SUPPORTED_LANGUAGES = ["en", "ru", "de", "kk"] as const satisfies readonly Language[];
/** Russian is the fallback language (docs/cabinet-rules.md#limits). */
export const FALLBACK_LANGUAGE = "ru" satisfies Language;
/** Where the user's own choice of language is kept. */
export const LANGUAGE_STORAGE_KEY = "kassa.language";

export function isSupportedLanguage(value: unknown): value is Language {
  return typeof value === "string" && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}

/** `de-AT` → `de`, `KK` → `kk`, `kz` (a common mistake for Kazakh) → `kk`; unknown → undefined. */
export function toSupportedLanguage(code: string | null | undefined): Language | undefined {
  if (!code) return undefined;
  const primary = code.trim().toLowerCase().split(/[-_]/)[0];
  const mapped = primary === "kz" ? "kk" : primary;
  return isSupportedLanguage(mapped) ? mapped : undefined;
}

/**
 * The language to start in: the user's saved choice, else Telegram's user `language_code`, else the
 * browser's languages in order, each mapped to a supported one; else the fallback.
 */
export function detectLanguage(sources: {
  saved?: string | null;
  telegram?: string | null;
  browser?: readonly string[];
}): Language {
  if (isSupportedLanguage(sources.saved)) return sources.saved;
  for (const candidate of [sources.telegram, ...(sources.browser ?? [])]) {
    const language = toSupportedLanguage(candidate);
    if (language) return language;
  }
  return FALLBACK_LANGUAGE;
}

function readSavedLanguage(): string | null {
  try {
    return localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    return null;
  }
}

/** The language this page starts in: the saved choice, else the Telegram user's (`telegram`), else the browser's. */
export function startLanguage(telegram: string | null | undefined): Language {
  return detectLanguage({
    saved: readSavedLanguage(),
    telegram,
    browser: typeof navigator === "undefined" ? [] : navigator.languages,
  });
}
