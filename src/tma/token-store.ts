/**
 * Where the refresh token is kept inside Telegram, best first (README, "The session inside Telegram"):
 *
 * 1. Telegram's SecureStorage (Bot API 9.0): the phone's Keychain/Keystore, offered by the iOS and
 *    Android clients; it survives the webview's cookie and storage being cleared.
 * 2. Telegram's DeviceStorage (Bot API 9.0): the client's own persistent storage, where SecureStorage
 *    is missing (desktop clients).
 * 3. The framed store (`framedTokenStore` below): a cookie a cross-site frame keeps plus a local-storage
 *    copy (Telegram Web hosts the app in an iframe and answers neither storage call).
 *
 * A tier counts when the client answers its first read; the token is then written there. A client
 * that does not know the call fails it or stays silent (Telegram Web): after a short wait the next
 * tier is tried. This module does not import the SDK: `boot.ts` gives it the two bridge storages.
 */
import { deleteCookie, isFramed, isSecureContextUrl, readCookie, writeCookie } from "@/lib/cookies";
import { TOKEN_COOKIE, TOKEN_COOKIE_MAX_AGE_SECONDS, type TokenStore } from "@/lib/session";

/** Where the framed store keeps its copy when cookies are refused altogether. */
export const TOKEN_STORAGE_KEY = "kassa.token";

/**
 * Inside Telegram without the client's own storage: a cookie that a cross-site frame keeps
 * (`SameSite=None; Secure; Partitioned` in a secure context, else the plain cookie) and a copy in
 * local storage (partitioned by the browser the same way), for clients that refuse frame cookies
 * (Telegram Desktop on Linux). Whichever survived is read. Kept here, with the boot's code: the web's
 * first screen does not carry it.
 */
export function framedTokenStore(win: Window = window): TokenStore {
  const crossSite = isFramed(win) && win.isSecureContext === true;
  const secure = isSecureContextUrl();
  return {
    kind: () => "framed",
    read: async () => {
      const fromCookie = readCookie(TOKEN_COOKIE);
      if (fromCookie) return fromCookie;
      try {
        return localStorage.getItem(TOKEN_STORAGE_KEY);
      } catch {
        return null;
      }
    },
    write: async (token) => {
      if (token) writeCookie(TOKEN_COOKIE, token, { maxAgeSeconds: TOKEN_COOKIE_MAX_AGE_SECONDS, secure, crossSite });
      else deleteCookie(TOKEN_COOKIE, { secure, crossSite });
      try {
        if (token) localStorage.setItem(TOKEN_STORAGE_KEY, token);
        else localStorage.removeItem(TOKEN_STORAGE_KEY);
      } catch {
        // No storage at all: the cookie is all there is.
      }
    },
  };
}

/** One of Telegram's key-value storages, as the bridge offers it. Rejects when the client refuses. */
export interface BridgeKeyValue {
  kind: string;
  get(key: string): Promise<string | null>;
  set(key: string, value: string | null): Promise<void>;
}

/** The key the token has in Telegram's storages. */
export const TELEGRAM_TOKEN_KEY = "kassa_refresh_token";

export function telegramTokenStore(tiers: readonly BridgeKeyValue[], fallback: TokenStore): TokenStore {
  // The first tier that answers, found once per page (the first read or write asks).
  let chosen: Promise<{ tier: BridgeKeyValue | null; value: string | null }> | null = null;
  let kind = "telegram";

  const choose = () => {
    chosen ??= (async () => {
      for (const tier of tiers) {
        try {
          const value = await tier.get(TELEGRAM_TOKEN_KEY);
          kind = tier.kind;
          return { tier, value };
        } catch {
          // Not offered by this client, or no answer: the next tier.
        }
      }
      kind = fallback.kind();
      return { tier: null, value: null };
    })();
    return chosen;
  };

  return {
    kind: () => kind,
    async read() {
      const { tier, value } = await choose();
      if (!tier) return fallback.read();
      if (value) return value;
      // A token kept before this client offered its storage (an update) is moved over once.
      const older = await fallback.read().catch(() => null);
      if (older) {
        await tier.set(TELEGRAM_TOKEN_KEY, older).catch(() => undefined);
        await fallback.write(null).catch(() => undefined);
      }
      return older;
    },
    async write(token) {
      const { tier } = await choose();
      if (!tier) return fallback.write(token);
      try {
        await tier.set(TELEGRAM_TOKEN_KEY, token);
      } catch {
        // The client refused now: keep the token where a frame keeps it rather than lose it.
        if (token) return fallback.write(token);
      }
      if (!token) await fallback.write(null).catch(() => undefined);
    },
  };
}

/** Telegram's BiometricManager as the token store uses it (boot.ts fills it in from the SDK). */
export interface BiometricVault {
  /** What the client says about biometrics; null when it offers none (or never answered). */
  info(): Promise<{ available: boolean; type: string; tokenSaved: boolean } | null>;
  /** Asks the user to let the app use biometrics; true when granted. */
  requestAccess(): Promise<boolean>;
  /** The kept token after Face ID / fingerprint; null when refused or failed. */
  authenticate(): Promise<string | null>;
  /** Keeps `token` in the biometric token store ("" removes it); true when the client kept it. */
  save(token: string): Promise<boolean>;
}

export interface BiometricLock {
  /** Biometrics the client offers ("face", "finger", ""), or null when it offers none. */
  offered(): Promise<{ type: string; locked: boolean } | null>;
  /** Turns the lock on (the token moves to the biometric store) or off (it moves back); false if refused. */
  setLocked(on: boolean): Promise<boolean>;
}

/**
 * The biometric lock over a token store. While it is on, the kept session's token lives only in
 * Telegram's biometric token store and a launch reads it after Face ID / fingerprint; refused or failed,
 * the read finds no token and the user signs in again. Signing out removes the token from the
 * biometric store, so a next launch has nothing to unlock (the lock is off from then on).
 */
export function lockableTokenStore(
  inner: TokenStore,
  vault: BiometricVault,
): { store: TokenStore; lock: BiometricLock } {
  let current: string | null = null;
  let known: Promise<{ available: boolean; type: string; tokenSaved: boolean } | null> | null = null;
  let locked: boolean | null = null;
  const info = () => {
    known ??= vault.info().catch(() => null);
    return known;
  };
  const isLocked = async () => {
    if (locked === null) {
      const answer = await info();
      locked = Boolean(answer?.available && answer.tokenSaved);
    }
    return locked;
  };

  const store: TokenStore = {
    kind: () => (locked ? "telegram-biometric" : inner.kind()),
    async read() {
      current = (await isLocked()) ? await vault.authenticate().catch(() => null) : await inner.read();
      return current;
    },
    async write(token) {
      current = token;
      if (!(await isLocked())) return inner.write(token);
      if (token) {
        if (await vault.save(token).catch(() => false)) return;
        // The client refused to keep it: the session is not lost, it is kept the usual way.
        locked = false;
        return inner.write(token);
      }
      // Signed out (or the kept token refused): nothing stays in the biometric store. The lock stays on
      // for this page, so signing in again keeps the new session behind it.
      await vault.save("").catch(() => false);
    },
  };

  const lock: BiometricLock = {
    async offered() {
      const answer = await info();
      return answer?.available ? { type: answer.type, locked: await isLocked() } : null;
    },
    async setLocked(on) {
      if (on === (await isLocked())) return true;
      if (on) {
        const token = current ?? (await inner.read().catch(() => null));
        if (!token || !(await vault.requestAccess().catch(() => false))) return false;
        if (!(await vault.save(token).catch(() => false))) return false;
        locked = true;
        current = token;
        await inner.write(null).catch(() => undefined);
        return true;
      }
      if (current) await inner.write(current);
      await vault.save("").catch(() => false);
      locked = false;
      return true;
    },
  };
  return { store, lock };
}
