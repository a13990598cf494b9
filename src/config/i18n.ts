/**
 * Translations (docs/cabinet-rules.md#limits, docs/decisions.md#d7-names-shown): i18next with one JSON file per
 * language and namespace under `locales/`, each loaded by a dynamic `import()` when first needed, so a visitor
 * downloads only their language and only the namespaces of the screens they open.
 */
import type { Language } from "@contract";
import i18next, { type CustomTypeOptions, type i18n as I18n, type InitOptions, type ReadCallback } from "i18next";
import resourcesToBackend from "i18next-resources-to-backend";
import { initReactI18next } from "react-i18next";
import { recoveries, retryInBackground, withDeadline } from "@/lib/load-faults";
import {
  FALLBACK_LANGUAGE,
  LANGUAGE_STORAGE_KEY,
  SUPPORTED_LANGUAGES,
  startLanguage,
  toSupportedLanguage,
} from "./language";

export {
  FALLBACK_LANGUAGE,
  isSupportedLanguage,
  LANGUAGE_STORAGE_KEY,
  SUPPORTED_LANGUAGES,
  toSupportedLanguage,
} from "./language";

/** At most 10 translation files load in parallel (docs/cabinet-rules.md#limits), ... */
export const I18N_MAX_PARALLEL_READS = 10;
/** ... a failed load is tried again 5 times, ... */
export const I18N_MAX_RETRIES = 5;
/** ... the first retry after 350 ms (then doubling). */
export const I18N_RETRY_TIMEOUT_MS = 350;

export const NAMESPACES = [
  "common",
  "nav",
  "errors",
  "validation",
  "success",
  "enums",
  // The login's first screen: its form, the fields and placeholders the entry screens share.
  "auth",
  // The registration and the phone's confirmation after it; the password's recovery.
  "registration",
  "recovery",
  "terms",
  "cabinet",
  "maintenance",
  "refill",
  "deposits",
  "partners",
  "withdrawal",
  "operations",
  "settings",
  "news",
  "notifications",
  "subscription",
  "exchange",
  "money",
  // Where a code went: the code steps only (not the first screen).
  "codes",
  // The server's texts (the bot's chat messages and the notification templates); the app loads none of it.
  "bot",
] as const;
export type Namespace = (typeof NAMESPACES)[number];
type TypedNamespace = keyof CustomTypeOptions["resources"];
type Expect<T extends true> = T;
/**
 * Compile-time: the list above names exactly the namespaces typed from `locales/en` (src/types/i18next.d.ts).
 * Exported only so that the compiler does not call it unused (`@public` keeps knip quiet about it).
 * @public
 */
export type NamespacesMatchTypedResources = Expect<
  [Namespace, TypedNamespace] extends [TypedNamespace, Namespace] ? true : false
>;

function saveLanguage(language: Language): void {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Without storage the choice lasts for this page.
  }
}

/**
 * The language being shown (or switched to). i18next also loads the fallback language's files for
 * every namespace it loads; every language has every key (a unit test checks that), so those files
 * would never be read. They are answered empty unless the fallback is the language being shown, and
 * dropped again before switching to it.
 */
let activeLanguage: Language = FALLBACK_LANGUAGE;
const skippedFallbackFiles = new Set<string>();

type LocaleFiles = Record<string, () => Promise<{ default: Record<string, unknown> }>>;

/**
 * Each language's files by `./<namespace>.json`, one map per language (`locale-files/`), in the file of that
 * language's `common` (vite.config.ts): the entry carries four imports rather than every language's every file
 * (1.3 KB gzip), and a launch's first text file brings the map of its language.
 */
const languageFiles: Record<Language, () => Promise<{ default: LocaleFiles }>> = {
  ru: () => import("./locale-files/ru"),
  en: () => import("./locale-files/en"),
  de: () => import("./locale-files/de"),
  kk: () => import("./locale-files/kk"),
};

/**
 * The texts of `namespace` in `language`, once its language's map came (a failed map load fails the file's);
 * undefined when there is no such file.
 */
async function loadFile(language: string, namespace: string): Promise<Record<string, unknown> | undefined> {
  const files = languageFiles[language as Language];
  const load = files ? (await files()).default[`./${namespace}.json`] : undefined;
  return load ? (await load()).default : undefined;
}

function loadLocaleFile(language: string, namespace: string, done: ReadCallback): void {
  if (language !== activeLanguage) {
    skippedFallbackFiles.add(`${language}|${namespace}`);
    done(null, {});
    return;
  }
  withDeadline(loadFile(language, namespace)).then(
    (texts) => {
      if (!texts) {
        done(new Error(`No translations for ${language}/${namespace}`), false);
        return;
      }
      done(null, texts);
      namespaceLoaded(namespace);
    },
    (error: unknown) => {
      // Said at once (the route's error boundary), not after i18next's retries; they and ours go on meanwhile.
      reportFailedNamespace(language, namespace);
      // `true` as data tells i18next the failure may pass: it retries (I18N_MAX_RETRIES, I18N_RETRY_TIMEOUT_MS).
      done(error instanceof Error ? error : String(error), true);
    },
  );
}

/**
 * Namespaces whose file could not be downloaded, or did not answer within the deadline
 * (docs/decisions.md#a-bad-connection). The route's error boundary shows the error screen (with the embedded
 * texts) instead of a screen of raw keys. The file is downloaded again in the background until it comes (at
 * once when the browser is back online); the namespace then leaves the list and the screen shows.
 */
let failedNamespaces: readonly string[] = [];
const failureListeners = new Set<() => void>();
let activeInstance: I18n = i18next;

function setFailedNamespaces(next: readonly string[]): void {
  failedNamespaces = next;
  for (const listener of failureListeners) listener();
}

function reportFailedNamespace(language: string, namespace: string): void {
  // A late failure of a file another try has loaded meanwhile changes nothing.
  const loaded = activeInstance.getDataByLanguage(language)?.[namespace];
  if (language !== activeLanguage || Object.keys(loaded ?? {}).length > 0) return;
  // A new list each time, also when the namespace is on it already: a screen that began waiting for it since
  // then hears of the failure too.
  setFailedNamespaces([...new Set(failedNamespaces).add(namespace)]);
  retryInBackground(namespace, () => reloadNamespace(namespace));
}

function namespaceLoaded(namespace: string): void {
  if (!failedNamespaces.includes(namespace)) return;
  setFailedNamespaces(failedNamespaces.filter((failed) => failed !== namespace));
  recoveries.add(1);
}

/**
 * Downloads a namespace's file again, beside i18next's own retries (which, for the files of the start, also
 * hold i18next's start until they end).
 */
async function reloadNamespace(namespace: string): Promise<void> {
  const language = activeLanguage;
  const texts = await loadFile(language, namespace);
  if (!texts) return;
  activeInstance.addResourceBundle(language, namespace, texts, true, true);
  namespaceLoaded(namespace);
  // What rendered without the texts (i18next had given up on the file) renders again, now with them.
  activeInstance.emit("languageChanged", language);
}

export function subscribeTranslationFailures(listener: () => void): () => void {
  failureListeners.add(listener);
  return () => failureListeners.delete(listener);
}

export function translationFailures(): readonly string[] {
  return failedNamespaces;
}

/** Downloads the failed namespaces again now ("Try again"); they leave the list once they load. */
export async function retryFailedTranslations(): Promise<void> {
  await Promise.allSettled(failedNamespaces.map((namespace) => withDeadline(reloadNamespace(namespace))));
}

export const i18nOptions = {
  fallbackLng: FALLBACK_LANGUAGE,
  supportedLngs: [...SUPPORTED_LANGUAGES],
  load: "languageOnly",
  ns: ["common"],
  defaultNS: "common",
  maxParallelReads: I18N_MAX_PARALLEL_READS,
  maxRetries: I18N_MAX_RETRIES,
  retryTimeout: I18N_RETRY_TIMEOUT_MS,
  interpolation: { escapeValue: false },
  returnNull: false,
  // A key whose namespace is missing never shows: the default value, else nothing (the route's error
  // boundary then offers to download the namespace again).
  parseMissingKeyHandler: (_key: string, defaultValue?: string) => defaultValue ?? "",
  react: { useSuspense: true },
} satisfies InitOptions;

function applyDocumentLanguage(language: string): void {
  if (typeof document !== "undefined") document.documentElement.lang = language;
}

/**
 * Starts i18next in the detected language; returns when the start namespaces are loaded: `common` and the
 * launch screen's `namespaces`, all downloaded at once.
 */
export function initI18n(
  options: { telegramLanguage?: string; instance?: I18n; namespaces?: readonly Namespace[] } = {},
): Promise<unknown> {
  const instance = options.instance ?? i18next;
  activeLanguage = startLanguage(options.telegramLanguage);
  applyDocumentLanguage(activeLanguage);
  instance.on("languageChanged", applyDocumentLanguage);
  activeInstance = instance;
  instance.on("failedLoading", reportFailedNamespace);
  return (
    instance
      .use(resourcesToBackend(loadLocaleFile))
      .use(initReactI18next)
      // i18next adds namespaces to `ns` as they load: each instance gets its own array.
      .init({
        ...i18nOptions,
        ns: [...new Set([...i18nOptions.ns, ...(options.namespaces ?? [])])],
        lng: activeLanguage,
      })
  );
}

/** Switches the interface language, saves the choice and sets `<html lang>`. */
export async function setLanguage(language: Language, instance: I18n = i18next): Promise<void> {
  saveLanguage(language);
  activeLanguage = language;
  const skipped = [...skippedFallbackFiles]
    .map((key) => key.split("|"))
    .filter(([skippedLanguage]) => skippedLanguage === language)
    .map(([, namespace]) => namespace as string);
  if (skipped.length) {
    // Fetch for real what was answered empty while this language was only the fallback.
    await instance.reloadResources([language], skipped);
    for (const namespace of skipped) skippedFallbackFiles.delete(`${language}|${namespace}`);
  }
  await instance.changeLanguage(language);
}

/** The language being shown (or loading at the start), known before i18next has started. */
export const shownLanguage = (): Language => activeLanguage;

export function currentLanguage(instance: I18n = i18next): Language {
  return toSupportedLanguage(instance.resolvedLanguage ?? instance.language) ?? FALLBACK_LANGUAGE;
}

export { i18next };
