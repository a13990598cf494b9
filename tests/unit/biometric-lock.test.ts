/** The biometric lock over the kept token (src/tma/token-store.ts), against a stand-in BiometricManager. */
import { describe, expect, it } from "vitest";
import type { TokenStore } from "@/lib/session";
import { type BiometricVault, lockableTokenStore } from "@/tma/token-store";

function memoryStore(initial: string | null = null): TokenStore & { value: string | null } {
  const store = {
    value: initial,
    kind: () => "telegram-secure",
    read: async () => store.value,
    write: async (token: string | null) => {
      store.value = token;
    },
  };
  return store;
}

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
