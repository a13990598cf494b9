/**
 * One `Idempotency-Key` per user intent (docs/decisions.md#exactly-once-money-calls): a money call keeps its
 * key while the same input is retried (lost connection, timeout, double tap), gets a new one after a success or
 * when the input changes; other calls send none.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, callApi } from "@/lib/api-client";
import { IntentKeys } from "@/lib/idempotency";
import { clearSession } from "@/lib/session";

const EXCHANGED = {
  from: "USDT",
  to: "TON",
  debited: "10",
  received: "2",
  rates: { from: "1", to: "5" },
  feePercent: "0",
  currencies: { USDT: "90", BTC: "0", ETH: "0", TON: "2" },
};

function keysSent(fetchMock: ReturnType<typeof vi.fn>): (string | undefined)[] {
  return fetchMock.mock.calls
    .map(([, init]) => (init as RequestInit).headers as Record<string, string>)
    .map((headers) => headers["Idempotency-Key"]);
}

afterEach(() => {
  vi.unstubAllGlobals();
  clearSession();
});

describe("IntentKeys", () => {
  it("keeps the key for the same input, makes a new one for another input or after success", () => {
    let n = 0;
    const keys = new IntentKeys(() => `key-${++n}`);
    const first = keys.keyFor("exchange", { body: { from: "USDT", to: "TON", amount: "10" } });
    expect(first).toBe("key-1");
    // The same intent retried (key order does not matter).
    expect(keys.keyFor("exchange", { body: { amount: "10", to: "TON", from: "USDT" } })).toBe("key-1");
    // Another call has its own intent.
    expect(keys.keyFor("createDeposit", { body: { amount: "10" } })).toBe("key-2");
    // The input changed: a new intent.
    expect(keys.keyFor("exchange", { body: { from: "USDT", to: "TON", amount: "11" } })).toBe("key-3");
    // Changing back is a new intent too: the old key is gone.
    expect(keys.keyFor("exchange", { body: { from: "USDT", to: "TON", amount: "10" } })).toBe("key-4");
    keys.succeeded("exchange", "key-4");
    // After success the very same input is a new intent (the user wants a second exchange).
    expect(keys.keyFor("exchange", { body: { from: "USDT", to: "TON", amount: "10" } })).toBe("key-5");
    // A late success of an older key does not close the open intent.
    keys.succeeded("exchange", "key-1");
    expect(keys.keyFor("exchange", { body: { from: "USDT", to: "TON", amount: "10" } })).toBe("key-5");
  });
});

describe("callApi and money calls", () => {
  it("retries after a lost connection with the same key, and uses a new key after success", async () => {
    let attempt = 0;
    const fetchMock = vi.fn(async () => {
      attempt += 1;
      if (attempt === 1) throw new TypeError("Failed to fetch");
      return new Response(JSON.stringify(EXCHANGED), { status: 200, headers: { "Content-Type": "application/json" } });
    });
    vi.stubGlobal("fetch", fetchMock);
    const body = { from: "USDT", to: "TON", amount: "10" } as const;

    const lost = await callApi("exchange", { body }).catch((error: unknown) => error);
    expect(lost).toBeInstanceOf(ApiError);
    expect((lost as ApiError).kind).toBe("network");
    await callApi("exchange", { body });
    await callApi("exchange", { body });

    const [first, retried, next] = keysSent(fetchMock);
    expect(first).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(retried).toBe(first);
    expect(next).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(next).not.toBe(first);
  });

  it("sends a new key when the user changes the amount after a refusal", async () => {
    const fetchMock = vi.fn(
      async () =>
        new Response(JSON.stringify({ code: "INSUFFICIENT_FUNDS", message: "Not enough funds" }), {
          status: 409,
          headers: { "Content-Type": "application/json" },
        }),
    );
    vi.stubGlobal("fetch", fetchMock);
    await callApi("createDeposit", { body: { planId: "standard", currency: "USDT", amount: "100" } }).catch(() => {});
    await callApi("createDeposit", { body: { planId: "standard", currency: "USDT", amount: "100" } }).catch(() => {});
    await callApi("createDeposit", { body: { planId: "standard", currency: "USDT", amount: "90" } }).catch(() => {});
    const [a, b, c] = keysSent(fetchMock);
    expect(b).toBe(a);
    expect(c).not.toBe(a);
  });

  it("sends no key on calls that move no money", async () => {
    const fetchMock = vi.fn(
      async () =>
        new Response(JSON.stringify({ enabled: false, message: null, until: null }), {
          status: 200,
          headers: { "Content-Type": "application/json" },
        }),
    );
    vi.stubGlobal("fetch", fetchMock);
    await callApi("technicalWork");
    expect(keysSent(fetchMock)).toEqual([undefined]);
  });
});
