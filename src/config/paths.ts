import { parseStartParam } from "@contract/start-param";

/** Every screen's path in one place; route modules, links and guards read them from here. */
export const paths = {
  login: "/login",
  register: "/register/:inviter?",
  phoneVerification: "/phone-verification",
  forgotPassword: "/forgot-password",
  terms: "/terms/:doc",
  cabinet: "/",
  refill: "/refill",
  deposits: "/deposits",
  partners: "/partners",
  withdrawal: "/withdrawal",
  operations: "/operations",
  settings: "/settings",
  settingsScreen: "/settings/:screen",
  news: "/news",
  newsItem: "/news/:id",
  more: "/more",
  notifications: "/notifications",
} as const;

/** `/register` or `/register/<inviter>`. */
export function registerPath(inviter?: string): string {
  return inviter ? `/register/${encodeURIComponent(inviter)}` : "/register";
}

/** The Terms: the public offer and the user agreement. */
const TERMS_DOCS = ["offer", "agreement"] as const;
export type TermsDoc = (typeof TERMS_DOCS)[number];

export function termsPath(doc: TermsDoc): string {
  return `/terms/${doc}`;
}

export function isTermsDoc(value: unknown): value is TermsDoc {
  return typeof value === "string" && (TERMS_DOCS as readonly string[]).includes(value);
}

/** The mark in the Deposits screen's address that opens its open-deposit sheet (the cabinet's first steps). */
export const OPEN_DEPOSIT_PARAM = { name: "open", value: "deposit" } as const;
export const openDepositPath = `${paths.deposits}?${OPEN_DEPOSIT_PARAM.name}=${OPEN_DEPOSIT_PARAM.value}`;

export function newsItemPath(id: string): string {
  return `/news/${encodeURIComponent(id)}`;
}

/**
 * Screens at the top of the navigation: the tab bar's entries and the public start screen. Telegram's
 * Back button is hidden on these and shown everywhere else.
 */
const TOP_LEVEL_PATHS: readonly string[] = [
  paths.login,
  // Nowhere to go back to before the phone is confirmed; the screen offers to sign out instead.
  paths.phoneVerification,
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

function withNext(path: string, next: string | undefined): string {
  const target = safeNextPath(next);
  return target ? `${path}?next=${encodeURIComponent(target)}` : path;
}

/** `/login?next=<where the user was>`, or plain `/login` when there is nowhere safe to return to. */
export function loginPath(next?: string): string {
  return withNext(paths.login, next);
}

/** `/phone-verification?next=<where the user goes after confirming>` (none for the cabinet's start). */
export function phoneVerificationPath(next?: string): string {
  return withNext(paths.phoneVerification, next === paths.cabinet ? undefined : next);
}

/**
 * The screen a Mini App start parameter opens (contract `parseStartParam`): `withdrawal_<id>` the
 * withdrawal screen with that application, `deposit_<id>` the deposits, `refill_<id>` the refill
 * screen, `news_<id>` the news item, `settings` the settings. `ref_<login>` opens no screen of its own:
 * the login and registration screens read the inviter from the start parameter. Cabinet screens pass
 * through sign-in first (`/login?next=...`).
 */
export function startParamPath(startParam: string | null | undefined): string | undefined {
  const target = parseStartParam(startParam);
  if (!target) return undefined;
  switch (target.kind) {
    case "withdrawal":
      return `${paths.withdrawal}?application=${encodeURIComponent(target.id)}`;
    case "deposit":
      return `${paths.deposits}?deposit=${encodeURIComponent(target.id)}`;
    case "refill":
      return `${paths.refill}?refill=${encodeURIComponent(target.id)}`;
    case "news":
      return newsItemPath(target.id);
    case "settings":
      return paths.settings;
    case "ref":
      return undefined;
  }
}
