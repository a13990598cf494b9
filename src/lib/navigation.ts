/**
 * Lets code outside React (the API client) send the user somewhere. The app registers the router's
 * `navigate` at start; before that, a full page load does the job.
 */
export type Navigator = (to: string, options?: { replace?: boolean }) => void;

const fallbackNavigator: Navigator = (to, options) => {
  if (options?.replace) window.location.replace(to);
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
