/**
 * One `Idempotency-Key` per user intent (docs/decisions.md#exactly-once-money-calls): a money call keeps its
 * key while the same input is retried (lost connection, timeout, double tap), gets a new one after a success or
 * when the input changes; other calls send none.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, callApi } from "@/lib/api-client";
import { UNKNOWN_OUTCOME_RETRY_MS } from "@/lib/checked-call";
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
  vi.useRealTimers();
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
  it("retries an unknown outcome by itself with the same key, and uses a new key after success", async () => {
    let attempt = 0;
    const fetchMock = vi.fn(async () => {
      attempt += 1;
      // The connection lost (the server may have committed), then the key still in flight, then the answer.
      if (attempt === 1) throw new TypeError("Failed to fetch");
      if (attempt === 2) {
        return new Response(JSON.stringify({ code: "IDEMPOTENCY_IN_FLIGHT", message: "in flight" }), {
          status: 409,
          headers: { "Content-Type": "application/json" },
        });
      }
      return new Response(JSON.stringify(EXCHANGED), { status: 200, headers: { "Content-Type": "application/json" } });
    });
    vi.stubGlobal("fetch", fetchMock);
    const body = { from: "USDT", to: "TON", amount: "10" } as const;

    // Real waits (the reply's check runs on timers of its own): two of them, 2 s in all.
    await expect(callApi("exchange", { body })).resolves.toMatchObject({ debited: "10" });
    await callApi("exchange", { body });

    const [first, afterLoss, afterInFlight, next] = keysSent(fetchMock);
    expect(first).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(afterLoss).toBe(first);
    expect(afterInFlight).toBe(first);
    expect(next).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(next).not.toBe(first);
  });

  it("gives up on an unknown outcome after its tries, never with a new key", async () => {
    vi.useFakeTimers();
    const fetchMock = vi.fn(async () => {
      throw new TypeError("Failed to fetch");
    });
    vi.stubGlobal("fetch", fetchMock);
    const body = { planId: "standard", currency: "USDT", amount: "100" } as const;
    const failed = callApi("createDeposit", { body }).catch((error: unknown) => error);
    await vi.runAllTimersAsync();
    const error = await failed;
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe("network");
    const keys = keysSent(fetchMock);
    expect(keys.length).toBe(UNKNOWN_OUTCOME_RETRY_MS.length + 1);
    expect(new Set(keys).size).toBe(1);
    // The user's own retry later: still the same intent, the same key.
    const again = callApi("createDeposit", { body }).catch(() => undefined);
    await vi.runAllTimersAsync();
    await again;
    expect(new Set(keysSent(fetchMock)).size).toBe(1);
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
