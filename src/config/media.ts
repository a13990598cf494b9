// What the app and the launcher ask the screen: the width from which the cabinet has its side bar, and the system's
// colour scheme, each named once.

/** Side bar from this width up, tab bar below it; the launcher paints the cabinet only below it. */
export const WIDE_LAYOUT_QUERY = "(min-width: 960px)";

/** The system's dark colour scheme (the web's look; inside Telegram the client's theme decides). */
export const DARK_SCHEME_QUERY = "(prefers-color-scheme: dark)";

/** Whether a CSS media query matches now (never where the page has no `matchMedia`). */
export function mediaMatches(query: string): boolean {
  return typeof window.matchMedia === "function" && window.matchMedia(query).matches;
}

/** Calls `listener` whenever `query` starts or stops matching; returns the unsubscribe. */
export function watchMedia(query: string, listener: () => void): () => void {
  if (typeof window.matchMedia !== "function") return () => {};
  const list = window.matchMedia(query);
  list.addEventListener("change", listener);
  return () => list.removeEventListener("change", listener);
}

/** The system's colour scheme now. */
export function systemAppearance(): "light" | "dark" {
  return mediaMatches(DARK_SCHEME_QUERY) ? "dark" : "light";
}
