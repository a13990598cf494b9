/** Every screen's path in one place; route modules, links and guards read them from here. */
export const paths = {
  login: "/login",
  register: "/register/:inviter?",
  phoneVerification: "/phone-verification",
  forgotPassword: "/forgot-password",
  cabinet: "/",
  refill: "/refill",
  deposits: "/deposits",
  partners: "/partners",
  withdrawal: "/withdrawal",
  operations: "/operations",
  settings: "/settings",
  news: "/news",
  newsItem: "/news/:id",
  more: "/more",
} as const;

export type PathName = keyof typeof paths;

/** `/register` or `/register/<inviter>`. */
export function registerPath(inviter?: string): string {
  return inviter ? `/register/${encodeURIComponent(inviter)}` : "/register";
}

export function newsItemPath(id: string): string {
  return `/news/${encodeURIComponent(id)}`;
}

/**
 * Screens at the top of the navigation: the tab bar's entries and the public start screen. Telegram's
 * Back button is hidden on these and shown everywhere else.
 */
export const TOP_LEVEL_PATHS: readonly string[] = [
  paths.login,
  paths.cabinet,
  paths.refill,
  paths.deposits,
  paths.withdrawal,
  paths.more,
];

export function isTopLevelPath(pathname: string): boolean {
  const normalized = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return TOP_LEVEL_PATHS.includes(normalized);
}

/**
 * A `next` value is followed only when it is a path of this app: it starts with one slash (not `//host`
 * or a scheme) and does not point back at the login screen.
 */
export function safeNextPath(next: string | null | undefined): string | undefined {
  if (!next?.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return undefined;
  if (next === paths.login || next.startsWith(`${paths.login}?`) || next.startsWith(`${paths.login}/`)) {
    return undefined;
  }
  return next;
}

/** `/login?next=<where the user was>`, or plain `/login` when there is nowhere safe to return to. */
export function loginPath(next?: string): string {
  const target = safeNextPath(next);
  return target ? `${paths.login}?next=${encodeURIComponent(target)}` : paths.login;
}
