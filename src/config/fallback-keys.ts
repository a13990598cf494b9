/**
 * The texts the entry chunk carries in every language (their paths in `locales/<lng>/common.json`), which the build
 * takes from the locale files (`build/fallback-texts.ts`): the error screen's and the offline banner's, which must
 * show when what failed is the download of the translations themselves.
 */
export const FALLBACK_KEYS = ["errorBoundary.title", "errorBoundary.text", "retry", "loadFailed", "offline"] as const;

export type FallbackKey = (typeof FALLBACK_KEYS)[number];
