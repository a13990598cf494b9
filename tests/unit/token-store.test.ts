/**
 * Where the refresh token is kept inside Telegram (docs/telegram.md, "Where the session is kept"): the
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
import { telegramStorages } from "@/tma/token-places";
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

  it("reads what this page wrote since the launch, not the value the launch found", async () => {
    const secure = tier("telegram-secure");
    secure.data.set(TELEGRAM_TOKEN_KEY, "tok-launch");
    const store = telegramTokenStore([secure.storage], memoryStore());
    await expect(store.read()).resolves.toBe("tok-launch");
    // Signed out, then in again (another account, or after the session expired) in the same page.
    await store.write(null);
    await expect(store.read()).resolves.toBeNull();
    await store.write("tok-later");
    await expect(store.read()).resolves.toBe("tok-later");
    // The first launch of a new user: nothing kept, then the Telegram sign-in's token.
    const fresh = telegramTokenStore([tier("telegram-secure").storage], memoryStore());
    await expect(fresh.read()).resolves.toBeNull();
    await fresh.write("tok-first");
    await expect(fresh.read()).resolves.toBe("tok-first");
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

/**
 * A stand-in BiometricManager, answering as the iOS client does: `available` (a phone with Face ID), `unavailable`
 * (none enrolled), `denied` (the user refused the app access), `fails` (the check fails), `cancelled` (the user
 * closes the prompt; Telegram answers `failed` too) and `missing` (the check passes, no token is kept). Every
 * `update_token` is recorded.
 */
type Behaviour = "available" | "unavailable" | "denied" | "fails" | "cancelled" | "missing";
function standIn(initial: Behaviour = "available") {
  const state = {
    token: "",
    granted: initial === "available",
    behaviour: initial,
    updates: [] as string[],
    settings: 0,
  };
  const vault: BiometricVault = {
    info: async () =>
      state.behaviour === "unavailable"
        ? { available: false, type: "", tokenSaved: false, accessGranted: false }
        : {
            available: true,
            type: "face",
            tokenSaved: state.token !== "",
            accessGranted: state.granted && state.behaviour !== "denied",
          },
    requestAccess: async () => {
      state.granted = state.behaviour !== "unavailable" && state.behaviour !== "denied";
      return state.granted;
    },
    authenticate: async () => {
      if (state.behaviour === "unavailable") throw new Error("Biometry is not available");
      const passes = state.granted && (state.behaviour === "available" || state.behaviour === "missing");
      if (!passes) return { status: "failed" as const, token: "" };
      return { status: "authorized" as const, token: state.behaviour === "missing" ? "" : state.token };
    },
    save: async (token) => {
      state.updates.push(token);
      if (!state.granted || state.behaviour === "denied") return false;
      state.token = token;
      return true;
    },
    openSettings: () => {
      state.settings += 1;
    },
  };
  return { vault, state };
}

/**
 * The vault as the SDK keeps it: its last answer (the mount's `get_info`) until the client is asked again. The
 * clients send nothing when the user changes the app's access in Telegram's settings.
 */
function asTheSdkKeepsIt(live: BiometricVault): BiometricVault {
  let last: ReturnType<BiometricVault["info"]> | null = null;
  return {
    ...live,
    info: (fresh) => {
      if (fresh || !last) last = live.info();
      return last;
    },
  };
}

function memoryMark() {
  let on = false;
  return {
    get: async () => on,
    set: async (next: boolean) => {
      on = next;
    },
    isOn: () => on,
  };
}

/** The lock turned on over a kept `token`, as Settings does; returns what the next launches share. */
async function lockedDevice(token = "tok-1") {
  const inner = memoryStore(token);
  const bio = standIn("available");
  const mark = memoryMark();
  const first = lockableTokenStore(inner, bio.vault, mark);
  expect(await first.store.read()).toBe(token);
  expect(await first.lock.setLocked(true)).toBe(true);
  bio.state.updates.length = 0;
  return { inner, bio, mark, launch: () => lockableTokenStore(inner, bio.vault, mark) };
}

describe("biometric lock", () => {
  it("on: the token leaves the kept store; a launch reads it after Face ID and does not save it again", async () => {
    const { inner, bio, mark, launch } = await lockedDevice();
    expect(inner.value).toBeNull();
    expect(bio.state.token).toBe("tok-1");
    expect(mark.isOn()).toBe(true);

    const next = launch();
    expect(await next.store.read()).toBe("tok-1");
    expect(next.lock.state()).toBe("unlocked");
    expect(next.store.kind()).toBe("telegram-biometric");
    expect(next.lock.allowsTelegramSignIn()).toBe(true);
    // The session restores with the token it read: no update_token with the same token (Android would prompt).
    await next.store.write("tok-1");
    expect(bio.state.updates).toEqual([]);
    // A new session later is kept behind the lock.
    await next.store.write("tok-2");
    expect(bio.state.updates).toEqual(["tok-2"]);
  });

  for (const behaviour of ["fails", "cancelled"] as const) {
    it(`a check that ${behaviour === "fails" ? "fails" : "is cancelled"} opens nothing, keeps the token, and Try again opens it`, async () => {
      const { bio, launch } = await lockedDevice();
      bio.state.behaviour = behaviour;
      const next = launch();
      expect(await next.store.read()).toBeNull();
      expect(next.lock.state()).toBe("refused");
      // Neither init data nor a second read opens it.
      expect(next.lock.allowsTelegramSignIn()).toBe(false);
      expect(await next.store.read()).toBeNull();
      // The restore forgets the (unread) session: the biometric token stays for the next check.
      await next.store.write(null);
      expect(bio.state.token).toBe("tok-1");
      expect(bio.state.updates).toEqual([]);
      // A later launch is still locked.
      expect(await launch().lock.offered()).toEqual({ type: "face", locked: true });

      bio.state.behaviour = "available";
      expect(await next.lock.unlock()).toBe("unlocked");
      expect(await next.store.read()).toBe("tok-1");
    });
  }

  it("access denied: the locked state points to Telegram's settings", async () => {
    const { bio, launch } = await lockedDevice();
    bio.state.behaviour = "denied";
    const next = launch();
    expect(await next.store.read()).toBeNull();
    expect(next.lock.state()).toBe("denied");
    next.lock.openSettings();
    expect(bio.state.settings).toBe(1);
    expect(bio.state.token).toBe("tok-1");
  });

  it("access given back in Telegram's settings: Try again asks the client again and opens", async () => {
    const { inner, bio, mark } = await lockedDevice();
    bio.state.behaviour = "denied";
    const next = lockableTokenStore(inner, asTheSdkKeepsIt(bio.vault), mark);
    expect(await next.store.read()).toBeNull();
    expect(next.lock.state()).toBe("denied");
    next.lock.openSettings();
    // The user allows the app again in Telegram's settings and comes back; the client says nothing of it.
    bio.state.behaviour = "available";
    expect(await next.lock.unlock()).toBe("unlocked");
    expect(await next.store.read()).toBe("tok-1");
  });

  it("biometrics gone from the device: still locked, and the switch stays so it can be turned off", async () => {
    const { bio, launch } = await lockedDevice();
    bio.state.behaviour = "unavailable";
    const next = launch();
    expect(await next.store.read()).toBeNull();
    expect(next.lock.state()).toBe("unavailable");
    expect(next.lock.allowsTelegramSignIn()).toBe(false);
    expect(await next.lock.offered()).toEqual({ type: "", locked: true });
  });

  it("signing in another way asks for the password: Telegram sign-in stays off; the new session is locked", async () => {
    const { bio, launch } = await lockedDevice();
    bio.state.behaviour = "cancelled";
    const next = launch();
    expect(await next.store.read()).toBeNull();
    next.lock.signInAnotherWay();
    expect(next.lock.state()).toBe("another-way");
    expect(next.lock.allowsTelegramSignIn()).toBe(false);
    bio.state.behaviour = "available";
    await next.store.write("tok-password");
    expect(next.lock.state()).toBe("unlocked");
    expect(bio.state.token).toBe("tok-password");
  });

  it("token missing (signed out, or dropped by the client): the lock stays on; a passed check lets Telegram sign in", async () => {
    const { inner, bio, mark, launch } = await lockedDevice();
    const signedIn = launch();
    expect(await signedIn.store.read()).toBe("tok-1");
    await signedIn.store.write(null);
    expect(bio.state.token).toBe("");
    expect(mark.isOn()).toBe(true);

    bio.state.behaviour = "missing";
    const next = launch();
    expect(await next.store.read()).toBeNull();
    expect(next.lock.state()).toBe("unlocked");
    expect(next.lock.allowsTelegramSignIn()).toBe(true);
    expect(inner.value).toBeNull();
    // Without a passed check, a missing token does not open Telegram sign-in either.
    bio.state.behaviour = "fails";
    const refused = launch();
    expect(await refused.store.read()).toBeNull();
    expect(refused.lock.allowsTelegramSignIn()).toBe(false);
  });

  it("off: the token goes back to the kept store and launches ask for nothing", async () => {
    const { inner, bio, mark, launch } = await lockedDevice();
    const next = launch();
    expect(await next.store.read()).toBe("tok-1");
    expect(await next.lock.setLocked(false)).toBe(true);
    expect(inner.value).toBe("tok-1");
    expect(bio.state.token).toBe("");
    expect(mark.isOn()).toBe(false);
    const after = launch();
    expect(await after.store.read()).toBe("tok-1");
    expect(after.lock.state()).toBe("open");
  });

  it("turns on over a session signed in after the launch, in Telegram's SecureStorage", async () => {
    // The first launch of a new investor: the keychain is empty at launch, the Telegram sign-in writes the token.
    const secure = tier("telegram-secure");
    const bio = standIn("available");
    const mark = memoryMark();
    const first = lockableTokenStore(telegramTokenStore([secure.storage], memoryStore()), bio.vault, mark);
    expect(await first.store.read()).toBeNull();
    await first.store.write("tok-signed-in");
    expect(secure.data.get(TELEGRAM_TOKEN_KEY)).toBe("tok-signed-in");
    expect(await first.lock.setLocked(true)).toBe(true);
    expect(bio.state.token).toBe("tok-signed-in");
    expect(secure.data.has(TELEGRAM_TOKEN_KEY)).toBe(false);
    expect(mark.isOn()).toBe(true);
    // The next launch opens that session after Face ID.
    const next = lockableTokenStore(telegramTokenStore([secure.storage], memoryStore()), bio.vault, mark);
    expect(await next.store.read()).toBe("tok-signed-in");
  });

  it("refused access leaves the token where it was; no biometrics, nothing offered", async () => {
    const inner = memoryStore("tok-1");
    const refused = lockableTokenStore(inner, standIn("denied").vault, memoryMark());
    expect(await refused.store.read()).toBe("tok-1");
    expect(await refused.lock.setLocked(true)).toBe(false);
    expect(inner.value).toBe("tok-1");

    const none = lockableTokenStore(inner, standIn("unavailable").vault, memoryMark());
    expect(await none.lock.offered()).toBeNull();
    expect(await none.store.read()).toBe("tok-1");
  });
});

describe("Telegram's storages over the bridge (telegramStorages)", () => {
  type Posted = [eventType: string, data: { req_id: string; key: string; value?: string | null }];
  const proxy = window as unknown as { TelegramWebviewProxy?: unknown };
  const receive = (eventType: string, eventData: unknown) =>
    (
      window as unknown as { Telegram: { WebView: { receiveEvent: (t: string, d: unknown) => void } } }
    ).Telegram.WebView.receiveEvent(eventType, eventData);
  let posted: Posted[];
  beforeEach(() => {
    posted = [];
    proxy.TelegramWebviewProxy = { postEvent: (type: string, data: string) => posted.push([type, JSON.parse(data)]) };
  });
  afterEach(() => {
    delete proxy.TelegramWebviewProxy;
  });

  it("offers those the platform keeps and the version has, SecureStorage first", () => {
    const all = () => true;
    expect(telegramStorages("ios", all).map((s) => s.kind)).toEqual(["telegram-secure", "telegram-device"]);
    expect(telegramStorages("tdesktop", all).map((s) => s.kind)).toEqual(["telegram-device"]);
    expect(telegramStorages("weba", all)).toEqual([]);
    expect(telegramStorages("android", (method) => method.startsWith("web_app_device")).map((s) => s.kind)).toEqual([
      "telegram-device",
    ]);
  });

  it("reads and saves by request id; a refusal rejects, so the token store tries the next place", async () => {
    const [secure, device] = telegramStorages("ios", () => true);
    const read = secure?.get(TELEGRAM_TOKEN_KEY);
    const [type, data] = posted[0] ?? [];
    expect(type).toBe("web_app_secure_storage_get_key");
    expect(data?.key).toBe(TELEGRAM_TOKEN_KEY);
    receive("secure_storage_key_received", { req_id: "another request", value: "not this one" });
    receive("secure_storage_key_received", { req_id: data?.req_id, value: "kept" });
    await expect(read).resolves.toBe("kept");

    const saved = device?.set(TELEGRAM_TOKEN_KEY, "new");
    const [saveType, saveData] = posted[1] ?? [];
    expect([saveType, saveData?.value]).toEqual(["web_app_device_storage_save_key", "new"]);
    receive("device_storage_key_saved", { req_id: saveData?.req_id });
    await expect(saved).resolves.toBeUndefined();

    const refused = secure?.get(TELEGRAM_TOKEN_KEY);
    receive("secure_storage_failed", { req_id: posted[2]?.[1].req_id, error: "UNSUPPORTED" });
    await expect(refused).rejects.toThrow(/secure_storage/);
  });
});
