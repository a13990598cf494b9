/**
 * The session (spec §3): the refresh token in a cookie, the user object in local storage. Only the user
 * is saved as state; on load the app waits for the restore, which gives up after 5 s (spec §4, §9).
 */
import type { User } from "@contract";
import { atom } from "jotai";
import { alerts } from "./alerts";
import { loadContract } from "./contract";
import { deleteCookie, isSecureContextUrl, readCookie, writeCookie } from "./cookies";
import { type AppStore, appStore } from "./store";

export const USER_STORAGE_KEY = "kassa.user";
export const TOKEN_COOKIE = "kassa_token";
/** Spec §9: saved-state restore timeout. */
export const SESSION_RESTORE_TIMEOUT_MS = 5000;
/** The cookie outlives a browser restart; the server decides whether the token is still good. */
const TOKEN_COOKIE_MAX_AGE_SECONDS = 60 * 60 * 24 * 30;

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
  if (token)
    writeCookie(TOKEN_COOKIE, token, { maxAgeSeconds: TOKEN_COOKIE_MAX_AGE_SECONDS, secure: isSecureContextUrl() });
  else deleteCookie(TOKEN_COOKIE, { secure: isSecureContextUrl() });
}

/** Keeps a new session (after login, registration or Telegram sign-in). */
export const signInAtom = atom(null, (_get, set, session: Session) => {
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

/** Changes fields of the user in place (spec §3: subscription, notifications) and saves them. */
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

/** Spec §4: an HTTP 401 removes the stored token and counts as a session timeout. */
export function expireSession(store: AppStore = appStore): void {
  clearSession(store);
  alerts.error("SESSION_TIMEOUT", undefined, store);
}

/**
 * Reads what the last visit saved; a missing half or a user that no longer fits the schema means none.
 * Rejects only when the check itself could not be loaded.
 */
export async function readSavedSession(): Promise<Session | null> {
  const refreshToken = readCookie(TOKEN_COOKIE);
  let raw: string | null = null;
  try {
    raw = localStorage.getItem(USER_STORAGE_KEY);
  } catch {
    raw = null;
  }
  if (!refreshToken || !raw) return null;
  // The contract (its User schema) loads only when there is something to restore, never on a first visit.
  const { User: UserSchema } = await loadContract();
  let saved: unknown;
  try {
    saved = JSON.parse(raw);
  } catch {
    return null;
  }
  const parsed = UserSchema.safeParse(saved);
  return parsed.success ? { refreshToken, user: parsed.data } : null;
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
