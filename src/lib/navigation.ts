/**
 * Lets code outside React (the API client) send the user somewhere. The app registers the router's
 * `navigate` at start. Before that, a replace changes the address in place, which the router reads when it
 * mounts: a session that timed out before the first render keeps its alert and the login it offers again
 * (a page load lost both). Anything else loads the page.
 */
export type Navigator = (to: string, options?: { replace?: boolean }) => void;

const fallbackNavigator: Navigator = (to, options) => {
  if (options?.replace) window.history.replaceState(window.history.state, "", to);
  else window.location.assign(to);
};

let current: Navigator = fallbackNavigator;

export function setNavigator(navigator: Navigator | null): void {
  current = navigator ?? fallbackNavigator;
}

export function navigateTo(to: string, options?: { replace?: boolean }): void {
  current(to, options);
}

/** Path, query and hash of the current page: where the user "was". */
export function currentLocationPath(): string {
  const { pathname, search } = window.location;
  return `${pathname}${search}`;
}

/**
 * Whether the app itself has an entry to go back to. The router numbers its entries (`idx` in the
 * history's state: 0 for the page's first, one more for each push); its location key says less, since
 * the launch's own replace (the launch parameters taken off the URL) gives the first entry a key too.
 * A screen opened directly, from a link or Telegram's menu, has nothing in the app before it.
 */
export function hasInAppHistory(location: { key: string }): boolean {
  const idx = (window.history.state as { idx?: unknown } | null)?.idx;
  // A router that keeps its entries elsewhere (in memory) leaves the page's state alone: its key tells.
  return typeof idx === "number" ? idx > 0 : location.key !== "default";
}
