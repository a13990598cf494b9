/**
 * The contract's schemas are built on first use (`contract/deferred.ts`): loading the contract makes no zod call
 * (every zod function is counted here), a schema read is built then, once, and a deferred schema parses, refuses and
 * composes as the schema it stands for.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";

const zodCalls = vi.hoisted(() => ({ count: 0 }));

vi.mock("zod/mini", async (importOriginal) => {
  const real = await importOriginal<Record<string, unknown>>();
  const counted = (value: unknown) =>
    typeof value === "function"
      ? new Proxy(value, {
          apply: (target, self, args) => {
            zodCalls.count++;
            return Reflect.apply(target, self, args);
          },
        })
      : value;
  return Object.fromEntries(Object.entries(real).map(([name, value]) => [name, counted(value)]));
});

beforeEach(() => {
  vi.resetModules();
  zodCalls.count = 0;
});

describe("the contract's schemas", () => {
  it("are not built as the contract loads: no zod call until a schema is read", async () => {
    const contract = await import("../../contract/index");
    expect(Object.keys(contract.routes).length).toBeGreaterThan(50);
    expect(zodCalls.count).toBe(0);

    // The count sees the contract's own calls: reading one route's reply schema builds it (and what it holds).
    const reply = { type: "balance", currentCurrency: "USDT", currencies: { USDT: "1", BTC: "0", ETH: "0", TON: "0" } };
    expect(contract.routes.balance.response.safeParse(reply).success).toBe(true);
    const built = zodCalls.count;
    expect(built).toBeGreaterThan(0);
    // Built once: the next read builds nothing.
    expect(contract.routes.balance.response.safeParse({ ...reply, type: "nope" }).success).toBe(false);
    expect(zodCalls.count).toBe(built);
  });
});

describe("deferred", () => {
  it("builds its value on the first read of any of its properties, once", async () => {
    const { deferred } = await import("../../contract/deferred");
    const make = vi.fn(() => ({ a: 1, b: { c: 2 } }));
    const value = deferred(make);
    expect(make).not.toHaveBeenCalled();
    expect(value.a).toBe(1);
    expect(value.b.c).toBe(2);
    expect("b" in value).toBe(true);
    expect(Object.keys(value)).toEqual(["a", "b"]);
    expect({ ...value }).toEqual({ a: 1, b: { c: 2 } });
    expect(make).toHaveBeenCalledTimes(1);
  });

  it("stands for a zod schema: parses, refuses and composes as the schema itself", async () => {
    const z = await import("zod/mini");
    const { deferred } = await import("../../contract/deferred");
    const eagerAmount = z.string().check(z.regex(/^\d+(\.\d+)?$/));
    const amount = deferred(() => z.string().check(z.regex(/^\d+(\.\d+)?$/)));
    const eager = z.object({ amount: eagerAmount, note: z.optional(eagerAmount), list: z.array(eagerAmount) });
    const composed = deferred(() =>
      z.extend(z.object({ amount, note: z.optional(amount) }), { list: z.array(amount) }),
    );
    const inputs: unknown[] = [
      { amount: "1.5", list: [] },
      { amount: "1.5", note: "2", list: ["3", "4.25"] },
      { amount: "-1", list: [] },
      { amount: "1", note: 2, list: [] },
      { amount: "1", list: ["x"] },
      { list: [] },
      null,
      "1",
    ];
    for (const input of inputs) {
      const a = eager.safeParse(input);
      const b = composed.safeParse(input);
      expect(b.success, JSON.stringify(input)).toBe(a.success);
      expect(b.data).toEqual(a.data);
      expect(b.error?.issues.map((issue) => [issue.code, issue.path])).toEqual(
        a.error?.issues.map((issue) => [issue.code, issue.path]),
      );
    }
  });
});
