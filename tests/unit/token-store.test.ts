/**
 * Where the refresh token is kept inside Telegram (README, "The session inside Telegram"): the
 * client's SecureStorage, else its DeviceStorage, else a cookie a cross-site frame keeps plus a local
 * copy; and a kept token is checked with the server instead of signing in again at each launch.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cookieString } from "@/lib/cookies";
import {
  clearSession,
  cookieTokenStore,
  getTokenStore,
  readSavedSession,
  setTokenStore,
  type TokenStore,
  USER_STORAGE_KEY,
} from "@/lib/session";
import {
  type BiometricVault,
  type BridgeKeyValue,
  framedTokenStore,
  lockableTokenStore,
  TELEGRAM_TOKEN_KEY,
  TOKEN_STORAGE_KEY,
  telegramTokenStore,
} from "@/tma/token-store";
import { DEMO_USER } from "./test-utils";

/** A Telegram storage that answers (a Map), refuses (`failed`) or never answers (`silent`). */
function tier(kind: string, behaviour: "answers" | "failed" | "silent" = "answers") {
  const data = new Map<string, string>();
  const storage: BridgeKeyValue = {
    kind,
    get: vi.fn(async (key: string) => {
      if (behaviour === "failed") throw new Error("UNSUPPORTED");
      if (behaviour === "silent") throw new Error("timeout");
      return data.get(key) ?? null;
    }),
    set: vi.fn(async (key: string, value: string | null) => {
      if (behaviour !== "answers") throw new Error("UNSUPPORTED");
      if (value === null) data.delete(key);
      else data.set(key, value);
    }),
  };
  return { storage, data };
}

function memoryStore(initial: string | null = null): TokenStore & { value: string | null } {
  const store = {
    value: initial,
    kind: () => "memory",
    read: async () => store.value,
    write: async (token: string | null) => {
      store.value = token;
    },
  };
  return store;
}

beforeEach(() => {
  clearSession();
  localStorage.clear();
});
afterEach(() => {
  setTokenStore(cookieTokenStore);
  clearSession();
});

describe("the token inside Telegram", () => {
  it("keeps it in SecureStorage where the client offers it", async () => {
    const secure = tier("telegram-secure");
    const device = tier("telegram-device");
    const fallback = memoryStore();
    const store = telegramTokenStore([secure.storage, device.storage], fallback);
    await store.write("tok-secure");
    expect(secure.data.get(TELEGRAM_TOKEN_KEY)).toBe("tok-secure");
    expect(device.data.size).toBe(0);
    expect(fallback.value).toBeNull();
    expect(store.kind()).toBe("telegram-secure");
    // The next launch reads it back from there.
    const next = telegramTokenStore([secure.storage, device.storage], memoryStore());
    await expect(next.read()).resolves.toBe("tok-secure");
  });

  it("falls to DeviceStorage when SecureStorage is refused, and to the frame's store when neither answers", async () => {
    const device = tier("telegram-device");
    const viaDevice = telegramTokenStore([tier("telegram-secure", "failed").storage, device.storage], memoryStore());
    await viaDevice.write("tok-device");
    expect(device.data.get(TELEGRAM_TOKEN_KEY)).toBe("tok-device");
    expect(viaDevice.kind()).toBe("telegram-device");

    const fallback = memoryStore();
    const web = telegramTokenStore(
      [tier("telegram-secure", "silent").storage, tier("telegram-device", "silent").storage],
      fallback,
    );
    await web.write("tok-web");
    expect(fallback.value).toBe("tok-web");
    await expect(web.read()).resolves.toBe("tok-web");
    expect(web.kind()).toBe("memory");
  });

  it("moves a token kept in the frame's store before the client offered its storage, and forgets everywhere", async () => {
    const secure = tier("telegram-secure");
    const fallback = memoryStore("tok-old");
    const store = telegramTokenStore([secure.storage], fallback);
    await expect(store.read()).resolves.toBe("tok-old");
    expect(secure.data.get(TELEGRAM_TOKEN_KEY)).toBe("tok-old");
    expect(fallback.value).toBeNull();
    await store.write(null);
    expect(secure.data.size).toBe(0);
  });

  it("writes the frame's cookie as one a cross-site frame keeps, with a local copy", async () => {
    expect(cookieString("kassa_token", "t", { crossSite: true, maxAgeSeconds: 60 })).toBe(
      "kassa_token=t; Path=/; SameSite=None; Max-Age=60; Secure; Partitioned",
    );
    // jsdom is no secure frame: the cookie is the plain one, the copy in local storage is what counts.
    const store = framedTokenStore();
    await store.write("tok-frame");
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBe("tok-frame");
    // biome-ignore lint/suspicious/noDocumentCookie: the test removes the cookie as a client that drops frame cookies would.
    document.cookie = "kassa_token=; Path=/; Max-Age=0";
    await expect(store.read()).resolves.toBe("tok-frame");
    await store.write(null);
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
  });
});

describe("re-entering Telegram with a kept token", () => {
  it("reuses a token the server accepts, with the user it returns, even when local storage lost the user", async () => {
    setTokenStore(memoryStore("tok-kept"));
    const checkToken = vi.fn(async () => ({ status: "valid" as const, user: DEMO_USER }));
    await expect(readSavedSession({ checkToken })).resolves.toEqual({ refreshToken: "tok-kept", user: DEMO_USER });
    expect(checkToken).toHaveBeenCalledWith("tok-kept");
    expect(localStorage.getItem(USER_STORAGE_KEY)).toBeNull();
  });

  it("forgets a token the server refuses, quietly, so the login screen signs in with fresh init data", async () => {
    const kept = memoryStore("tok-ended");
    setTokenStore(kept);
    localStorage.setItem(USER_STORAGE_KEY, JSON.stringify(DEMO_USER));
    await expect(readSavedSession({ checkToken: async () => ({ status: "invalid" }) })).resolves.toBeNull();
    await vi.waitFor(() => expect(kept.value).toBeNull());
    expect(localStorage.getItem(USER_STORAGE_KEY)).toBeNull();
  });

  it("keeps the saved user when the server cannot be asked (offline)", async () => {
    setTokenStore(memoryStore("tok-offline"));
    localStorage.setItem(USER_STORAGE_KEY, JSON.stringify(DEMO_USER));
    await expect(readSavedSession({ checkToken: async () => ({ status: "unknown" }) })).resolves.toEqual({
      refreshToken: "tok-offline",
      user: DEMO_USER,
    });
    expect(getTokenStore().kind()).toBe("memory");
  });
});

/** The biometric lock over the kept token, against a stand-in BiometricManager. */
function standIn(options: { available: boolean; grant: boolean; authorize: boolean }) {
  const state = { token: "", granted: false, authorize: options.authorize };
  const vault: BiometricVault = {
    info: async () => (options.available ? { available: true, type: "finger", tokenSaved: state.token !== "" } : null),
    requestAccess: async () => {
      state.granted = options.available && options.grant;
      return state.granted;
    },
    authenticate: async () => (state.granted && state.authorize ? state.token : null),
    save: async (token) => {
      if (!state.granted) return false;
      state.token = token;
      return true;
    },
  };
  return { vault, state };
}

describe("biometric lock", () => {
  it("granted: the token moves to the biometric store, is read after the fingerprint, and moves back when off", async () => {
    const inner = memoryStore("tok-1");
    const { vault, state } = standIn({ available: true, grant: true, authorize: true });
    const { store, lock } = lockableTokenStore(inner, vault);
    expect(await store.read()).toBe("tok-1");
    expect(await lock.offered()).toEqual({ type: "finger", locked: false });
    expect(await lock.setLocked(true)).toBe(true);
    expect(inner.value).toBeNull();
    expect(state.token).toBe("tok-1");
    expect(store.kind()).toBe("telegram-biometric");

    // The next launch: a new store over the same client reads the token after the fingerprint.
    const next = lockableTokenStore(inner, vault);
    expect(await next.store.read()).toBe("tok-1");
    // Failed: no token, the user signs in again; the new session stays behind the lock.
    state.authorize = false;
    const failed = lockableTokenStore(inner, vault);
    expect(await failed.store.read()).toBeNull();
    await failed.store.write(null);
    expect(state.token).toBe("");
    await failed.store.write("tok-2");
    expect(state.token).toBe("tok-2");
    expect(inner.value).toBeNull();

    expect(await failed.lock.setLocked(false)).toBe(true);
    expect(inner.value).toBe("tok-2");
    expect(state.token).toBe("");
  });

  it("refused access leaves the token where it was; no biometrics, nothing offered", async () => {
    const inner = memoryStore("tok-1");
    const refused = lockableTokenStore(inner, standIn({ available: true, grant: false, authorize: true }).vault);
    expect(await refused.store.read()).toBe("tok-1");
    expect(await refused.lock.setLocked(true)).toBe(false);
    expect(inner.value).toBe("tok-1");

    const none = lockableTokenStore(inner, standIn({ available: false, grant: false, authorize: false }).vault);
    expect(await none.lock.offered()).toBeNull();
    expect(await none.store.read()).toBe("tok-1");
  });
});
