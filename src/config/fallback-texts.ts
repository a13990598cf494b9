/**
 * The few texts of the error screen and the offline banner, in the entry chunk in all four languages
 * (docs/decisions.md#a-bad-connection): they must show when the very thing that failed is the download of the
 * translations. `tests/unit/fallback-texts.test.ts` keeps them equal to `locales/<lng>/common.json`.
 */
import type { Language } from "@contract";
import { currentLanguage, i18next } from "./i18n";

export const FALLBACK_TEXTS = {
  en: {
    "errorBoundary.title": "Something went wrong",
    "errorBoundary.text": "This screen could not be shown. Check your connection and try again.",
    "apiError.network": "No connection to the server. Check your internet connection.",
    "apiError.timeout": "The server did not answer in time. Try again.",
    "apiError.parse": "The server sent an unexpected reply. Try again later.",
    retry: "Try again",
    offline: "You are offline. Figures may be out of date; actions will work again once you are back online.",
  },
  ru: {
    "errorBoundary.title": "Что-то пошло не так",
    "errorBoundary.text": "Не удалось показать этот экран. Проверьте подключение и попробуйте ещё раз.",
    "apiError.network": "Нет связи с сервером. Проверьте подключение к интернету.",
    "apiError.timeout": "Сервер не ответил вовремя. Попробуйте ещё раз.",
    "apiError.parse": "Сервер прислал неожиданный ответ. Попробуйте позже.",
    retry: "Повторить",
    offline:
      "Нет подключения к интернету. Данные могут быть устаревшими; действия снова заработают, когда связь вернётся.",
  },
  de: {
    "errorBoundary.title": "Etwas ist schiefgelaufen",
    "errorBoundary.text":
      "Diese Ansicht konnte nicht angezeigt werden. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.",
    "apiError.network": "Keine Verbindung zum Server. Prüfen Sie Ihre Internetverbindung.",
    "apiError.timeout": "Der Server hat nicht rechtzeitig geantwortet. Versuchen Sie es erneut.",
    "apiError.parse": "Der Server hat eine unerwartete Antwort gesendet. Versuchen Sie es später erneut.",
    retry: "Erneut versuchen",
    offline:
      "Sie sind offline. Die Zahlen sind eventuell nicht aktuell; Aktionen funktionieren wieder, sobald Sie online sind.",
  },
  kk: {
    "errorBoundary.title": "Бірдеңе дұрыс болмады",
    "errorBoundary.text": "Бұл экранды көрсету мүмкін болмады. Байланысты тексеріп, қайта көріңіз.",
    "apiError.network": "Сервермен байланыс жоқ. Интернет байланысын тексеріңіз.",
    "apiError.timeout": "Сервер уақытында жауап бермеді. Қайта көріңіз.",
    "apiError.parse": "Сервер күтпеген жауап жіберді. Кейінірек қайталап көріңіз.",
    retry: "Қайталау",
    offline:
      "Интернет байланысы жоқ. Деректер ескірген болуы мүмкін; байланыс қалпына келгенде әрекеттер қайта істейді.",
  },
} as const satisfies Record<Language, Record<string, string>>;

export type FallbackKey = keyof (typeof FALLBACK_TEXTS)["en"];

/** The loaded translation when there is one, else the embedded text, in the current language. */
export function fallbackText(key: FallbackKey): string {
  const full = `common:${key}`;
  if (i18next.isInitialized && i18next.exists(full)) return i18next.t(full as never) as string;
  return FALLBACK_TEXTS[currentLanguage()][key];
}
