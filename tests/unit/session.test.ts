import { createStore } from "jotai";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { alertsAtom } from "@/lib/alerts";
import {
  clearSession,
  isSignedInAtom,
  readSavedSession,
  restoreSession,
  SESSION_RESTORE_TIMEOUT_MS,
  type Session,
  sessionStatusAtom,
  signIn,
  TOKEN_COOKIE,
  tokenAtom,
  USER_STORAGE_KEY,
  updateUserAtom,
  userAtom,
} from "@/lib/session";
import { appStore } from "@/lib/store";
import { DEMO_USER } from "./test-utils";

beforeEach(() => {
  clearSession();
  appStore.set(alertsAtom, []);
  appStore.set(sessionStatusAtom, "restoring");
});

afterEach(() => {
  clearSession();
});

describe("keeping the session", () => {
  it("keeps the refresh token in a cookie and only the user in local storage", () => {
    const cookieWrites: string[] = [];
    const descriptor = Object.getOwnPropertyDescriptor(Document.prototype, "cookie");
    vi.spyOn(document, "cookie", "set").mockImplementation((value: string) => {
      cookieWrites.push(value);
      descriptor?.set?.call(document, value);
    });

    signIn({ refreshToken: "tok-1", user: DEMO_USER });

    expect(cookieWrites.at(-1)).toMatch(/^kassa_token=tok-1; Path=\/; SameSite=Lax; Max-Age=\d+$/);
    expect(JSON.parse(localStorage.getItem(USER_STORAGE_KEY) ?? "null")).toEqual(DEMO_USER);
    expect(Object.keys(localStorage)).toEqual([USER_STORAGE_KEY]);
    expect(appStore.get(tokenAtom)).toBe("tok-1");
    expect(appStore.get(isSignedInAtom)).toBe(true);
  });

  it("updates the user in place and saves it", () => {
    signIn({ refreshToken: "tok-1", user: DEMO_USER });
    appStore.set(updateUserAtom, { notifications: { unread: 3 } });
    expect(appStore.get(userAtom)?.notifications.unread).toBe(3);
    expect(JSON.parse(localStorage.getItem(USER_STORAGE_KEY) ?? "null").notifications.unread).toBe(3);
  });

  it("forgets both halves on sign-out", () => {
    signIn({ refreshToken: "tok-1", user: DEMO_USER });
    clearSession();
    expect(document.cookie).not.toContain(TOKEN_COOKIE);
    expect(localStorage.getItem(USER_STORAGE_KEY)).toBeNull();
    expect(appStore.get(isSignedInAtom)).toBe(false);
  });
});

describe("restoring the saved session", () => {
  it("restores a saved token and user", async () => {
    signIn({ refreshToken: "tok-2", user: DEMO_USER });
    // A new page load: a fresh store, the cookie and local storage as the last visit left them.
    const store = createStore();
    await expect(restoreSession({ store })).resolves.toBe("signed-in");
    expect(store.get(userAtom)).toEqual(DEMO_USER);
    expect(store.get(tokenAtom)).toBe("tok-2");
    expect(store.get(sessionStatusAtom)).toBe("ready");
  });

  it("drops a saved user that no longer fits the contract, and a token without a user", async () => {
    // biome-ignore lint/suspicious/noDocumentCookie: the test plants a cookie as a previous visit would.
    document.cookie = `${TOKEN_COOKIE}=tok-3; Path=/`;
    localStorage.setItem(USER_STORAGE_KEY, JSON.stringify({ id: 1 }));
    await expect(readSavedSession()).resolves.toBeNull();
    await expect(restoreSession()).resolves.toBe("signed-out");
    expect(localStorage.getItem(USER_STORAGE_KEY)).toBeNull();
    expect(document.cookie).not.toContain(TOKEN_COOKIE);
  });

  it("waits for the restore and gives up after 5000 ms with 'The waiting time has expired'", async () => {
    expect(SESSION_RESTORE_TIMEOUT_MS).toBe(5000);
    vi.useFakeTimers();
    const never = () => new Promise<Session | null>(() => {});
    let outcome: string | undefined;
    void restoreSession({ read: never }).then((result) => {
      outcome = result;
    });

    await vi.advanceTimersByTimeAsync(SESSION_RESTORE_TIMEOUT_MS - 1);
    expect(outcome).toBeUndefined();
    expect(appStore.get(sessionStatusAtom)).toBe("restoring");

    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toBe("timed-out");
    expect(appStore.get(sessionStatusAtom)).toBe("ready");
    expect(appStore.get(isSignedInAtom)).toBe(false);
    expect(appStore.get(alertsAtom).map((a) => a.text)).toEqual([{ ns: "errors", key: "WAIT_EXPIRED" }]);
  });

  it("a restore that could not run continues signed out but keeps what is saved", async () => {
    signIn({ refreshToken: "tok-4", user: DEMO_USER });
    const outcome = await restoreSession({ read: () => Promise.reject(new Error("chunk failed")) });
    expect(outcome).toBe("signed-out");
    expect(localStorage.getItem(USER_STORAGE_KEY)).not.toBeNull();
  });
});
