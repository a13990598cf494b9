/**
 * The few texts of the error screen (a download that failed) and the offline banner, in the entry chunk in all
 * four languages (docs/decisions.md#a-bad-connection): they must show when the very thing that failed is the
 * download of the translations. `tests/unit/fallback-texts.test.ts` keeps them equal to `locales/<lng>/common.json`.
 */
import type { Language } from "@contract";
import { i18next, shownLanguage } from "./i18n";

export const FALLBACK_TEXTS = {
  en: {
    "errorBoundary.title": "Something went wrong",
    "errorBoundary.text": "This screen could not be shown. Try again.",
    retry: "Try again",
    loadFailed: "The screen will open by itself once the connection is back.",
    offline: "No connection. Figures may be out of date.",
  },
  ru: {
    "errorBoundary.title": "Что-то пошло не так",
    "errorBoundary.text": "Не удалось показать экран. Попробуйте ещё раз.",
    retry: "Повторить",
    loadFailed: "Экран откроется сам, когда вернётся связь.",
    offline: "Нет связи. Данные могут быть устаревшими.",
  },
  de: {
    "errorBoundary.title": "Etwas ist schiefgelaufen",
    "errorBoundary.text": "Die Ansicht konnte nicht angezeigt werden. Versuchen Sie es erneut.",
    retry: "Erneut versuchen",
    loadFailed: "Die Ansicht öffnet sich von selbst, sobald die Verbindung wieder steht.",
    offline: "Keine Verbindung. Die Zahlen sind eventuell nicht aktuell.",
  },
  kk: {
    "errorBoundary.title": "Бірдеңе дұрыс болмады",
    "errorBoundary.text": "Экранды көрсету мүмкін болмады. Қайта көріңіз.",
    retry: "Қайталау",
    loadFailed: "Байланыс қалпына келгенде, экран өзі ашылады.",
    offline: "Байланыс жоқ. Деректер ескірген болуы мүмкін.",
  },
} as const satisfies Record<Language, Record<string, string>>;

export type FallbackKey = keyof (typeof FALLBACK_TEXTS)["en"];

/**
 * The loaded translation when there is one, else the embedded text, in the current language; a key with no
 * embedded text (the server's replies: they come with the common texts) falls back to the general one.
 */
export function fallbackText(key: FallbackKey | `apiError.${"network" | "timeout" | "parse"}`): string {
  const full = `common:${key}`;
  if (i18next.isInitialized && i18next.exists(full)) return i18next.t(full as never) as string;
  const texts: Record<string, string> = FALLBACK_TEXTS[shownLanguage()];
  return texts[key] ?? (texts["errorBoundary.text"] as string);
}
