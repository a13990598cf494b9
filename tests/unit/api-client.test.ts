/**
 * The API client against a fake network (`fetch` stubbed): it tells the four failures apart, sends the
 * bearer token, checks replies with the contract, and turns a 401 into a session timeout.
 */
import { ERRORS } from "@contract";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { API_URL_META_NAME, resolveApiBaseUrl } from "@/config/env";
import { alertsAtom } from "@/lib/alerts";
import {
  API_TIMEOUT_MS,
  ApiError,
  apiRequest,
  callApi,
  onMaintenanceReply,
  UPLOAD_TIMEOUT_MS,
  uploadMultipart,
} from "@/lib/api-client";
import { setNavigator } from "@/lib/navigation";
import { clearSession, expiredLoginAtom, isSignedInAtom, signIn, TOKEN_COOKIE, USER_STORAGE_KEY } from "@/lib/session";
import { appStore } from "@/lib/store";
import { DEMO_USER } from "./test-utils";

function reply(status: number, body: unknown): Response {
  return new Response(typeof body === "string" ? body : JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json" },
  });
}

function stubFetch(impl: (url: string, init: RequestInit) => Promise<Response> | Response) {
  const mock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => impl(String(input), init ?? {}));
  vi.stubGlobal("fetch", mock);
  return mock;
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

const TECHNICAL_WORK_OFF = { enabled: false, message: null, until: null };
const navigate = vi.fn();

beforeEach(() => {
  clearSession();
  appStore.set(alertsAtom, []);
  navigate.mockReset();
  setNavigator(navigate);
});

afterEach(() => {
  setNavigator(null);
});

describe("callApi", () => {
  it("calls the contract's route under the API base and returns the checked reply", async () => {
    const fetchMock = stubFetch(() => reply(200, TECHNICAL_WORK_OFF));
    await expect(callApi("technicalWork")).resolves.toEqual(TECHNICAL_WORK_OFF);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe("/api/settings/technical_work");
    expect(init?.method).toBe("GET");
  });

  it("fills path parameters from `params`", async () => {
    const fetchMock = stubFetch(() => reply(200, { key: "botUsername", value: "kassa_bot" }));
    await callApi("setting", { params: { key: "botUsername" } });
    expect(fetchMock.mock.calls[0]?.[0]).toBe("/api/settings/botUsername");
  });

  it("sends JSON and the bearer token when there is a session", async () => {
    signIn({ refreshToken: "secret-token", user: DEMO_USER });
    const fetchMock = stubFetch(() => reply(200, { available: true }));
    await callApi("telegramAuthAvailable");
    const headers = new Headers(fetchMock.mock.calls[0]?.[1]?.headers);
    expect(headers.get("Authorization")).toBe("Bearer secret-token");
    expect(headers.get("Accept")).toBe("application/json");
  });

  it("sends no Authorization header without a session", async () => {
    const fetchMock = stubFetch(() => reply(200, { available: false }));
    await callApi("telegramAuthAvailable");
    expect(new Headers(fetchMock.mock.calls[0]?.[1]?.headers).has("Authorization")).toBe(false);
  });

  it("sends a body as JSON", async () => {
    const fetchMock = stubFetch(() => reply(200, { ok: true }));
    await apiRequest({ method: "POST", path: "/anything", body: { amount: "125.50" } });
    const init = fetchMock.mock.calls[0]?.[1];
    expect(new Headers(init?.headers).get("Content-Type")).toBe("application/json");
    expect(init?.body).toBe('{"amount":"125.50"}');
  });

  it("calls a reply that breaks the contract a parse failure", async () => {
    stubFetch(() => reply(200, { enabled: "yes" }));
    const error = await failure(callApi("technicalWork"));
    expect(error.kind).toBe("parse");
    expect(error.body).toEqual({ enabled: "yes" });
  });
});

describe("failures", () => {
  it("network: fetch itself failed", async () => {
    stubFetch(() => Promise.reject(new TypeError("Failed to fetch")));
    const error = await failure(apiRequest({ method: "GET", path: "/x" }));
    expect(error.kind).toBe("network");
    expect(error.status).toBeUndefined();
  });

  it("timeout: no answer within the call's time limit (30 s by default)", async () => {
    expect(API_TIMEOUT_MS).toBe(30_000);
    vi.useFakeTimers();
    stubFetch(
      (_url, init) =>
        new Promise((_resolve, reject) => {
          init.signal?.addEventListener("abort", () => reject(new DOMException("Aborted", "AbortError")));
        }),
    );
    const pending = failure(apiRequest({ method: "GET", path: "/slow" }));
    await vi.advanceTimersByTimeAsync(API_TIMEOUT_MS - 1);
    let settled = false;
    void pending.then(() => {
      settled = true;
    });
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).kind).toBe("timeout");
  });

  it("a multipart upload may take 100 s", async () => {
    expect(UPLOAD_TIMEOUT_MS).toBe(100_000);
    vi.useFakeTimers();
    const fetchMock = stubFetch(
      (_url, init) =>
        new Promise((_resolve, reject) => {
          init.signal?.addEventListener("abort", () => reject(new DOMException("Aborted", "AbortError")));
        }),
    );
    const form = new FormData();
    form.append("document", new Blob(["x"], { type: "image/png" }), "doc.png");
    const pending = failure(uploadMultipart("/user-data/verification", form));
    await vi.advanceTimersByTimeAsync(API_TIMEOUT_MS + 1);
    expect(fetchMock.mock.calls[0]?.[1]?.signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(UPLOAD_TIMEOUT_MS - API_TIMEOUT_MS);
    expect((await pending).kind).toBe("timeout");
    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.method).toBe("PATCH");
    expect(init?.body).toBe(form);
    expect(new Headers(init?.headers).has("Content-Type")).toBe(false);
  });

  it("a caller's cancel is an abort, not an ApiError", async () => {
    stubFetch(
      (_url, init) =>
        new Promise((_resolve, reject) => {
          init.signal?.addEventListener("abort", () => reject(new DOMException("Aborted", "AbortError")));
        }),
    );
    const controller = new AbortController();
    const pending = apiRequest({ method: "GET", path: "/x", signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  });

  it("parse: a body that is not JSON", async () => {
    stubFetch(() => new Response("<html>oops</html>", { status: 200 }));
    const error = await failure(apiRequest({ method: "GET", path: "/x" }));
    expect(error.kind).toBe("parse");
    expect(error.body).toBe("<html>oops</html>");
  });

  it("http: the status, and the contract's error code from the body", async () => {
    stubFetch(() => reply(409, { code: "INSUFFICIENT_FUNDS", message: ERRORS.INSUFFICIENT_FUNDS.message }));
    const error = await failure(apiRequest({ method: "POST", path: "/funds/deposits" }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.kind).toBe("http");
    expect(error.status).toBe(409);
    expect(error.code).toBe("INSUFFICIENT_FUNDS");
    expect(error.body).toEqual({ code: "INSUFFICIENT_FUNDS", message: "Not enough funds" });
  });

  it("http: field codes and message parameters travel with the error", async () => {
    stubFetch(() =>
      reply(400, {
        code: "VALIDATION_FAILED",
        message: "Check the marked fields",
        fields: { login: "loginTooShort" },
        params: { error: "x" },
      }),
    );
    const error = await failure(apiRequest({ method: "POST", path: "/auth/login" }));
    expect(error.code).toBe("VALIDATION_FAILED");
    expect(error.fields).toEqual({ login: "loginTooShort" });
    expect(error.params).toEqual({ error: "x" });
  });

  it("http: a body that is not a contract error keeps the status, without a code", async () => {
    stubFetch(() => reply(502, { error: "Bad gateway" }));
    const error = await failure(apiRequest({ method: "GET", path: "/x" }));
    expect(error.kind).toBe("http");
    expect(error.status).toBe(502);
    expect(error.code).toBeUndefined();
  });

  it("a MAINTENANCE reply makes the maintenance flag be checked again", async () => {
    const listener = vi.fn();
    const off = onMaintenanceReply(listener);
    stubFetch(() => reply(503, { code: "MAINTENANCE", message: "Technical work is in progress" }));
    await failure(apiRequest({ method: "GET", path: "/user/balance" }));
    off();
    expect(listener).toHaveBeenCalledTimes(1);
  });
});

describe("401 with a token", () => {
  it("removes the token and the user, says 'Session timed out' and goes to login with where the user was", async () => {
    window.history.replaceState(null, "", "/deposits?tab=open");
    signIn({ refreshToken: "stale-token", user: DEMO_USER });
    expect(document.cookie).toContain(`${TOKEN_COOKIE}=stale-token`);
    stubFetch(() => reply(401, { code: "SESSION_TIMEOUT", message: "Session timed out" }));

    const error = await failure(apiRequest({ method: "GET", path: "/user/balance" }));

    expect(error.status).toBe(401);
    expect(appStore.get(isSignedInAtom)).toBe(false);
    expect(document.cookie).not.toContain(TOKEN_COOKIE);
    expect(localStorage.getItem(USER_STORAGE_KEY)).toBeNull();
    expect(appStore.get(alertsAtom).map((a) => a.text)).toEqual([{ ns: "errors", key: "SESSION_TIMEOUT" }]);
    expect(navigate).toHaveBeenCalledWith("/login?next=%2Fdeposits%3Ftab%3Dopen", { replace: true });
    window.history.replaceState(null, "", "/");
  });

  it("before the app's router is there, changes the address in place: the alert and the login offered again stay", async () => {
    setNavigator(null);
    window.history.replaceState(null, "", "/operations");
    signIn({ refreshToken: "stale-token", user: DEMO_USER });
    stubFetch(() => reply(401, { code: "SESSION_TIMEOUT", message: "Session timed out" }));
    await failure(apiRequest({ method: "GET", path: "/user/me" }));
    // No page load (which would have lost both): the router starts at the login once it mounts.
    expect(`${window.location.pathname}${window.location.search}`).toBe("/login?next=%2Foperations");
    expect(appStore.get(alertsAtom).map((a) => a.text)).toEqual([{ ns: "errors", key: "SESSION_TIMEOUT" }]);
    expect(appStore.get(expiredLoginAtom)).toBe(DEMO_USER.login);
    window.history.replaceState(null, "", "/");
  });

  it("leaves the session alone when the call sent a token of its own (logout)", async () => {
    signIn({ refreshToken: "current-token", user: DEMO_USER });
    const fetchMock = stubFetch(() => reply(401, { code: "SESSION_TIMEOUT", message: "Session timed out" }));
    await failure(apiRequest({ method: "POST", path: "/auth/logout", token: "ending-token" }));
    expect(new Headers(fetchMock.mock.calls[0]?.[1]?.headers).get("Authorization")).toBe("Bearer ending-token");
    expect(appStore.get(isSignedInAtom)).toBe(true);
    expect(appStore.get(alertsAtom)).toEqual([]);
    expect(navigate).not.toHaveBeenCalled();
  });

  it("leaves things alone when the call carried no token", async () => {
    stubFetch(() => reply(401, { code: "INVALID_CREDENTIALS", message: "Incorrect login or password" }));
    await failure(apiRequest({ method: "POST", path: "/auth/login" }));
    expect(appStore.get(alertsAtom)).toEqual([]);
    expect(navigate).not.toHaveBeenCalled();
  });
});

describe("API base URL", () => {
  it("is VITE_API_URL, else the page's kassa:api-url meta, else /api", () => {
    const meta = document.createElement("meta");
    meta.name = API_URL_META_NAME;
    meta.content = "https://api.example.com/api/";
    document.head.append(meta);
    try {
      expect(resolveApiBaseUrl("https://build.example.com/api")).toBe("https://build.example.com/api");
      expect(resolveApiBaseUrl(undefined)).toBe("https://api.example.com/api");
      meta.content = "";
      expect(resolveApiBaseUrl(undefined)).toBe("/api");
    } finally {
      meta.remove();
    }
    expect(resolveApiBaseUrl("")).toBe("/api");
  });
});

describe("read-your-writes", () => {
  it("sends back the position a write's reply carried, with the same session only", async () => {
    const sent: (string | null)[] = [];
    stubFetch((_url, init) => {
      sent.push(new Headers(init.headers).get("kassa-seen"));
      return new Response("{}", {
        status: 200,
        headers: {
          "Content-Type": "application/json",
          ...(init.method === "POST" ? { "Kassa-Seen": "00000000001A2B3C" } : {}),
        },
      });
    });
    await apiRequest({ method: "GET", path: "/user/balance", token: "a".repeat(43) });
    await apiRequest({ method: "POST", path: "/user/balance", body: { currency: "BTC" }, token: "a".repeat(43) });
    await apiRequest({ method: "GET", path: "/user/balance", token: "a".repeat(43) });
    // Another session (a sign-in as someone else) does not carry the first one's write.
    await apiRequest({ method: "GET", path: "/user/balance", token: "b".repeat(43) });
    expect(sent).toEqual([null, null, "00000000001A2B3C", null]);
  });

  it("keeps the highest position of the session, whatever order the replies of its writes arrive in", async () => {
    const sent: (string | null)[] = [];
    const replies = ["0000000100000010", "00000000FFFFFFFF", "not a position", "000000010000000F"];
    stubFetch((_url, init) => {
      sent.push(new Headers(init.headers).get("kassa-seen"));
      const seen = init.method === "POST" ? replies.shift() : undefined;
      return new Response("{}", {
        status: 200,
        headers: { "Content-Type": "application/json", ...(seen ? { "Kassa-Seen": seen } : {}) },
      });
    });
    const token = "c".repeat(43);
    for (let i = 0; i < 4; i++) {
      await apiRequest({ method: "POST", path: "/user/balance", body: { currency: "BTC" }, token });
    }
    await apiRequest({ method: "GET", path: "/user/balance", token });
    // 1/10 is past 0/FFFFFFFF and 1/F: it stays the one sent.
    const highest = "0000000100000010";
    expect(sent).toEqual([null, highest, highest, highest, highest]);
  });
});
