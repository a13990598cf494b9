/**
 * The session (docs/cabinet-rules.md#sessions): the refresh token in a cookie, the user object in local
 * storage. Only the user is saved as state; on load the app waits for the restore, which gives up after 5 s.
 *
 * Where the token is kept is a `TokenStore`: on the web a cookie; inside Telegram the boot
 * installs the client's own storage first (see `src/tma/token-store.ts` and
 * docs/telegram.md#where-the-session-is-kept), because a cookie does not survive every client.
 */
import type { User } from "@contract";
import { atom } from "jotai";
import { alerts } from "./alerts";
import { loadContract } from "./contract";
import { deleteCookie, isSecureContextUrl, writeCookie } from "./cookies";
import { readTokenCookie, TOKEN_COOKIE, USER_STORAGE_KEY } from "./session-keys";
import { type AppStore, appStore } from "./store";

export { TOKEN_COOKIE, USER_STORAGE_KEY } from "./session-keys";
/** Saved-state restore timeout (docs/cabinet-rules.md#limits). */
export const SESSION_RESTORE_TIMEOUT_MS = 5000;
/** The cookie outlives a browser restart; the server decides whether the token is still good. */
export const TOKEN_COOKIE_MAX_AGE_SECONDS = 60 * 60 * 24 * 30;

/** Where the refresh token is kept. `write(null)` forgets it. */
export interface TokenStore {
  /** `cookie`, `telegram-secure`, `telegram-device`, `framed`: which store answered (tests, diagnostics). */
  kind(): string;
  read(): Promise<string | null>;
  write(token: string | null): Promise<void>;
}

/** The web's cookie (`SameSite=Lax`), written at once, so a reload right after sign-in finds it. */
export const cookieTokenStore: TokenStore = {
  kind: () => "cookie",
  read: async () => readTokenCookie(),
  write: async (token) => {
    if (token)
      writeCookie(TOKEN_COOKIE, token, { maxAgeSeconds: TOKEN_COOKIE_MAX_AGE_SECONDS, secure: isSecureContextUrl() });
    else deleteCookie(TOKEN_COOKIE, { secure: isSecureContextUrl() });
  },
};

let tokenStore: TokenStore = cookieTokenStore;

/** The Telegram boot installs the client's store; tests restore the cookie. */
export function setTokenStore(store: TokenStore): void {
  tokenStore = store;
}

export function getTokenStore(): TokenStore {
  return tokenStore;
}

export interface Session {
  refreshToken: string;
  user: User;
}

export type SessionStatus = "restoring" | "ready";

const tokenBaseAtom = atom<string | null>(null);
const userBaseAtom = atom<User | null>(null);

/** The refresh token, sent as the bearer token. */
export const tokenAtom = atom((get) => get(tokenBaseAtom));
/** The signed-in user, or null. */
export const userAtom = atom((get) => get(userBaseAtom));
export const isSignedInAtom = atom((get) => get(tokenBaseAtom) !== null && get(userBaseAtom) !== null);
/** `restoring` until the saved session has been read (or the wait gave up). */
export const sessionStatusAtom = atom<SessionStatus>("restoring");

function saveUser(user: User | null): void {
  try {
    if (user) localStorage.setItem(USER_STORAGE_KEY, JSON.stringify(user));
    else localStorage.removeItem(USER_STORAGE_KEY);
  } catch {
    // Storage can be unavailable (private mode, quota); the session then lasts for this page only.
  }
}

function saveToken(token: string | null): void {
  tokenStore.write(token).catch((error: unknown) => console.warn("[kassa] the session token was not saved", error));
}

/** Keeps a new session (after login, registration or Telegram sign-in). */
/** The login of the user whose session timed out in this page: the login screen offers it again. */
export const expiredLoginAtom = atom<string | null>(null);

export const signInAtom = atom(null, (_get, set, session: Session) => {
  set(expiredLoginAtom, null);
  saveToken(session.refreshToken);
  saveUser(session.user);
  set(tokenBaseAtom, session.refreshToken);
  set(userBaseAtom, session.user);
});

/** Forgets the session here (the server's logout call is made by the caller when there is one). */
export const clearSessionAtom = atom(null, (_get, set) => {
  saveToken(null);
  saveUser(null);
  set(tokenBaseAtom, null);
  set(userBaseAtom, null);
});

/**
 * Changes fields of the user in place (subscription, notifications; docs/cabinet-rules.md#sessions) and saves
 * them.
 */
export const updateUserAtom = atom(null, (get, set, patch: Partial<User>) => {
  const user = get(userBaseAtom);
  if (!user) return;
  const next = { ...user, ...patch };
  saveUser(next);
  set(userBaseAtom, next);
});

export function signIn(session: Session, store: AppStore = appStore): void {
  store.set(signInAtom, session);
}

export function clearSession(store: AppStore = appStore): void {
  store.set(clearSessionAtom);
}

export function getSessionToken(store: AppStore = appStore): string | null {
  return store.get(tokenAtom);
}

/**
 * An HTTP 401 removes the stored token and counts as a session timeout (docs/cabinet-rules.md#sessions). The
 * login screen then offers the same login (`expiredLoginAtom`).
 */
export function expireSession(store: AppStore = appStore): void {
  const login = store.get(userAtom)?.login ?? null;
  clearSession(store);
  if (login) store.set(expiredLoginAtom, login);
  alerts.error("SESSION_TIMEOUT", undefined, store);
}

/** What the server says of a kept token (`GET /user/me` with it). */
export type TokenCheck = { status: "valid"; user: User } | { status: "invalid" } | { status: "unknown" };

export interface ReadSavedSessionOptions {
  /**
   * Inside Telegram the kept token is checked with the server before it counts: a good one is the
   * session (no new Telegram sign-in at each launch, whatever the age of the init data); a refused one
   * is forgotten quietly, so the login screen signs in with the fresh init data. It also rebuilds the
   * user when the client lost local storage but kept the token. `unknown` (offline) keeps the saved
   * user, if there is one.
   */
  checkToken?: (token: string) => Promise<TokenCheck>;
  /**
   * Called with the kept token as soon as it is read, before it is checked: the launch sends the first
   * screen's calls with it beside the check (a refused token fails them too, and the restore drops them).
   */
  onToken?: (token: string) => void;
}

async function savedUser(): Promise<User | null> {
  let raw: string | null = null;
  try {
    raw = localStorage.getItem(USER_STORAGE_KEY);
  } catch {
    raw = null;
  }
  if (!raw) return null;
  let kept: unknown;
  try {
    kept = JSON.parse(raw);
  } catch {
    return null;
  }
  // Checked against the contract's User schema (its fields only); without the contract's code the read fails.
  const checked = (await loadContract()).User.safeParse(kept);
  return checked.success ? checked.data : null;
}

/**
 * Reads what the last visit saved; a missing half or a user that no longer fits the schema means none.
 * Rejects only when the kept token could not be checked (`checkToken` failed).
 */
export async function readSavedSession(options: ReadSavedSessionOptions = {}): Promise<Session | null> {
  let refreshToken: string | null;
  try {
    refreshToken = await tokenStore.read();
  } catch {
    refreshToken = null;
  }
  if (!refreshToken) return null;
  options.onToken?.(refreshToken);
  if (options.checkToken) {
    const check = await options.checkToken(refreshToken);
    if (check.status === "valid") return { refreshToken, user: check.user };
    if (check.status === "invalid") {
      saveToken(null);
      saveUser(null);
      return null;
    }
  }
  const user = await savedUser();
  return user ? { refreshToken, user } : null;
}

export type RestoreOutcome = "signed-in" | "signed-out" | "timed-out";

/**
 * Restores the saved session into the store. Content waits for this; after `timeoutMs` it stops
 * waiting, says 'The waiting time has expired' and continues signed out.
 */
export async function restoreSession(
  options: { store?: AppStore; read?: () => Promise<Session | null>; timeoutMs?: number } = {},
): Promise<RestoreOutcome> {
  const { store = appStore, read = readSavedSession, timeoutMs = SESSION_RESTORE_TIMEOUT_MS } = options;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<"timed-out">((resolve) => {
    timer = setTimeout(() => resolve("timed-out"), timeoutMs);
  });
  // A read that fails (e.g. offline before its code loaded) continues signed out but keeps what is saved.
  const restored = read().then(
    (session) => session,
    () => "unreadable" as const,
  );
  const result = await Promise.race([restored, timedOut]);
  clearTimeout(timer);

  let outcome: RestoreOutcome;
  if (result === "unreadable") {
    outcome = "signed-out";
  } else if (result === "timed-out") {
    clearSession(store);
    alerts.error("WAIT_EXPIRED", undefined, store);
    outcome = "timed-out";
  } else if (result) {
    store.set(signInAtom, result);
    outcome = "signed-in";
  } else {
    clearSession(store);
    outcome = "signed-out";
  }
  store.set(sessionStatusAtom, "ready");
  return outcome;
}
