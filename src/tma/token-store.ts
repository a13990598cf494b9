/**
 * Where the refresh token is kept inside Telegram, best first (docs/telegram.md, "Where the session is kept"):
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
import { deleteCookie, isFramed, isSecureContextUrl, writeCookie } from "@/lib/cookies";
import { TOKEN_COOKIE, TOKEN_COOKIE_MAX_AGE_SECONDS, type TokenStore } from "@/lib/session";
import {
  type BridgeKeyValue,
  firstAnswer,
  readFramedToken,
  TELEGRAM_TOKEN_KEY,
  TOKEN_STORAGE_KEY,
} from "./token-places";

export { type BridgeKeyValue, TELEGRAM_TOKEN_KEY, TOKEN_STORAGE_KEY } from "./token-places";

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
    read: async () => readFramedToken(),
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

export function telegramTokenStore(
  tiers: readonly BridgeKeyValue[],
  fallback: TokenStore,
  key: string = TELEGRAM_TOKEN_KEY,
): TokenStore {
  // The first tier that answers, found once per page (the first read or write asks), with the token it holds:
  // the value the first read found, then whatever this page wrote there since (a sign-in after the launch, a
  // signed-out session). A read never returns the launch's value once the page has written another.
  let chosen: Promise<{ tier: BridgeKeyValue | null; value: string | null }> | null = null;
  let kind = "telegram";

  const choose = () => {
    chosen ??= firstAnswer(tiers, key).then((found) => {
      kind = found.tier?.kind ?? fallback.kind();
      return found;
    });
    return chosen;
  };

  return {
    kind: () => kind,
    async read() {
      const found = await choose();
      if (!found.tier) return fallback.read();
      if (found.value) return found.value;
      // A token kept before this client offered its storage (an update) is moved over once.
      const older = await fallback.read().catch(() => null);
      if (older) {
        const moved = await found.tier.set(key, older).then(
          () => true,
          () => false,
        );
        if (moved) {
          found.value = older;
          await fallback.write(null).catch(() => undefined);
        }
      }
      return older;
    },
    async write(token) {
      const found = await choose();
      if (!found.tier) return fallback.write(token);
      try {
        await found.tier.set(key, token);
        found.value = token;
      } catch {
        // The client refused now: keep the token where a frame keeps it rather than lose it (the next read
        // finds it there).
        found.value = null;
        if (token) return fallback.write(token);
      }
      if (!token) await fallback.write(null).catch(() => undefined);
    },
  };
}

/** What Telegram's BiometricManager says of this device. */
interface BiometricInfo {
  available: boolean;
  /** "face", "finger" or "" (unknown). */
  type: string;
  /** A biometric token is kept for this app. */
  tokenSaved: boolean;
  /** The user let this app use biometrics (false: never asked, or refused; then only Telegram's settings help). */
  accessGranted: boolean;
}

/** Telegram's BiometricManager as the token store uses it (boot.ts fills it in from the SDK). */
export interface BiometricVault {
  /**
   * What the client says about biometrics; null when it offers none (or never answered). `fresh` asks the client
   * again rather than taking its last answer: the clients do not tell the app when the user changes the app's
   * access in Telegram's settings.
   */
  info(fresh?: boolean): Promise<BiometricInfo | null>;
  /** Asks the user to let the app use biometrics; true when granted. */
  requestAccess(): Promise<boolean>;
  /**
   * Face ID / fingerprint. `authorized` with the kept token ("" when none is kept); `failed` when the check
   * failed or the user cancelled it (Telegram answers both alike).
   */
  authenticate(): Promise<{ status: "authorized" | "failed"; token: string }>;
  /** Keeps `token` in the biometric token store ("" removes it); true when the client kept it. */
  save(token: string): Promise<boolean>;
  /** Opens Telegram's biometric settings for this app (`web_app_biometry_open_settings`). */
  openSettings(): void;
}

/** Whether this device's lock is on, kept beside the token (in the client's storage) so it outlives the token. */
export interface LockMark {
  get(): Promise<boolean>;
  set(on: boolean): Promise<void>;
}

/**
 * Where a launch with the lock on stands:
 * - `open`: no lock on this device;
 * - `checking`: Face ID / fingerprint asked for;
 * - `unlocked`: the check passed (or the user signed in another way): the session may open;
 * - `refused`: the check failed or was cancelled;
 * - `denied`: the user refused this app access to biometrics (Telegram's settings give it back);
 * - `unavailable`: the lock is on but the device offers no biometrics now;
 * - `another-way`: the user chose to sign in with the password or a code (Telegram sign-in stays off).
 */
export type LockState = "open" | "checking" | "unlocked" | "refused" | "denied" | "unavailable" | "another-way";

export interface BiometricLock {
  /** Biometrics the client offers ("face", "finger", ""), or null when it offers none. */
  offered(): Promise<{ type: string; locked: boolean } | null>;
  /** Turns the lock on (the token moves to the biometric store) or off (it moves back); false if refused. */
  setLocked(on: boolean): Promise<boolean>;
  /** Where this launch stands with the lock; live through `subscribe`. */
  state(): LockState;
  subscribe(listener: () => void): () => void;
  /** Asks for Face ID / fingerprint again ("Try again"); resolves with the state it led to. */
  unlock(): Promise<LockState>;
  /** "Sign in another way": the login with the password or a code, never a silent Telegram sign-in. */
  signInAnotherWay(): void;
  /** Whether Telegram sign-in (init data) may open the cabinet: no lock, or after a passed check. */
  allowsTelegramSignIn(): boolean;
  /** Telegram's biometric settings, where a refused access is given back. */
  openSettings(): void;
}

/**
 * The biometric lock over a token store (docs/telegram.md, "The biometric lock"). While it is on, nothing opens
 * the cabinet on this device without a passed Face ID / fingerprint check: the kept session's token lives only
 * in Telegram's biometric token store and is read after the check; a refused check leaves the token where it is
 * (the next launch asks again) and puts the launch in a locked state, in which Telegram sign-in is not allowed
 * either (`allowsTelegramSignIn`). The lock itself is a mark kept beside the token, so a lost biometric token
 * (signed out, or the client dropped it) does not turn it off: a passed check then lets the user sign in again.
 */
export function lockableTokenStore(
  inner: TokenStore,
  vault: BiometricVault,
  mark: LockMark,
): { store: TokenStore; lock: BiometricLock } {
  // The session's token as this page knows it (read after the check, or written by a sign-in).
  let current: string | null = null;
  let locked: Promise<boolean> | null = null;
  let isOn = false;
  let state: LockState = "open";
  const listeners = new Set<() => void>();
  const setState = (next: LockState) => {
    if (next === state) return;
    state = next;
    for (const listener of listeners) listener();
  };
  const info = (fresh = false) => vault.info(fresh).catch(() => null);
  const isLocked = () => {
    locked ??= Promise.all([info(), mark.get().catch(() => false)]).then(([answer, marked]) => {
      isOn = marked || Boolean(answer?.available && answer.tokenSaved);
      return isOn;
    });
    return locked;
  };

  // `fresh`: the client is asked what it allows now ("Try again", perhaps after the user gave access back in
  // Telegram's settings); at launch its answer to the mount is as fresh as it gets.
  const unlock = async (fresh: boolean): Promise<LockState> => {
    setState("checking");
    const answer = await info(fresh);
    if (!answer?.available) {
      setState("unavailable");
      return state;
    }
    if (!answer.accessGranted) {
      setState("denied");
      return state;
    }
    const result = await vault.authenticate().catch(() => ({ status: "failed" as const, token: "" }));
    if (result.status !== "authorized") {
      // Refused access shows as a failed check too: asked again, the client says which it was.
      setState((await info(true))?.accessGranted === false ? "denied" : "refused");
      return state;
    }
    current = result.token || null;
    setState("unlocked");
    return state;
  };

  const store: TokenStore = {
    kind: () => (isOn ? "telegram-biometric" : inner.kind()),
    async read() {
      if (!(await isLocked())) return inner.read();
      if (state === "unlocked") return current;
      // Asked once at launch; after a refusal only "Try again" asks (the locked screen).
      if (state !== "open") return null;
      return (await unlock(false)) === "unlocked" ? current : null;
    },
    async write(token) {
      if (!(await isLocked())) return inner.write(token);
      // The token the check gave back, written again as the session restores: the client is not asked again
      // (Telegram Android prompts for every token update).
      if (token === current) return;
      if (!token) {
        // Signed out, or the kept token refused by the server: it leaves the biometric store; the lock stays
        // on. With nothing read (a refused check) there is nothing to remove: the kept token stays for the
        // next check.
        current = null;
        await vault.save("").catch(() => false);
        return;
      }
      // A new session (signed in after a passed check, or another way): kept behind the lock. If the client
      // refuses to keep it, it lasts for this page only, never in a store the lock does not guard.
      current = token;
      if (state !== "unlocked") setState("unlocked");
      await vault.save(token).catch(() => false);
    },
  };

  const lock: BiometricLock = {
    async offered() {
      const answer = await info();
      const on = await isLocked();
      if (answer?.available) return { type: answer.type, locked: on };
      // The lock is on while the device offers no biometrics now: the switch stays, so it can be turned off.
      return on ? { type: "", locked: true } : null;
    },
    async setLocked(on) {
      if (on === (await isLocked())) return true;
      if (on) {
        const token = current ?? (await inner.read().catch(() => null));
        if (!token) return false;
        const answer = await info();
        if (!answer?.accessGranted && !(await vault.requestAccess().catch(() => false))) return false;
        if (!(await vault.save(token).catch(() => false))) return false;
        await mark.set(true).catch(() => undefined);
        locked = Promise.resolve(true);
        isOn = true;
        current = token;
        setState("unlocked");
        await inner.write(null).catch(() => undefined);
        return true;
      }
      if (current) await inner.write(current);
      await vault.save("").catch(() => false);
      await mark.set(false).catch(() => undefined);
      locked = Promise.resolve(false);
      isOn = false;
      setState("open");
      return true;
    },
    state: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    unlock: () => unlock(true),
    signInAnotherWay: () => setState("another-way"),
    allowsTelegramSignIn: () => !isOn || state === "unlocked",
    openSettings: () => vault.openSettings(),
  };
  return { store, lock };
}

/** The lock's mark in one of Telegram's storages, else in local storage (the framed store's place). */
export function lockMark(tiers: readonly BridgeKeyValue[]): LockMark {
  const local: TokenStore = {
    kind: () => "local",
    read: async () => {
      try {
        return localStorage.getItem(LOCK_MARK_KEY);
      } catch {
        return null;
      }
    },
    write: async (value) => {
      try {
        if (value) localStorage.setItem(LOCK_MARK_KEY, value);
        else localStorage.removeItem(LOCK_MARK_KEY);
      } catch {
        // No storage: the biometric token alone says the lock is on.
      }
    },
  };
  const kept = telegramTokenStore(tiers, local, LOCK_MARK_KEY);
  return {
    get: async () => (await kept.read()) === "on",
    set: (on) => kept.write(on ? "on" : null),
  };
}

/** The key of the lock's mark. */
const LOCK_MARK_KEY = "kassa_biometric_lock";
