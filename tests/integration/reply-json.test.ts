/**
 * Replies are checked against the contract and written as JSON once per frozen reply (server/src/routes/reply-json.ts),
 * and the hot reads hand out the same frozen reply while what it is made of stays (server/src/db/derived.ts): what a
 * reply says must still follow every change — a balance moved, a notification read, a subscription's end passed.
 */
import { ResponseSerializationError } from "fastify-type-provider-zod";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { fixedClock } from "../../server/src/clock";
import { replySerializerCompiler } from "../../server/src/routes/reply-json";
import { getBalance } from "../../server/src/services/balance";
import { processWithdrawal } from "../../server/src/services/withdrawals";
import { callRoute, serverForTests, type TestServer } from "./helpers";
import { fund, newInvestor, pendingWithdrawal } from "./money";

describe("the reply serializer", () => {
  /** A reply schema whose check counts how often it ran. */
  function counted() {
    const runs = { n: 0 };
    const schema = z.object({
      amount: z.string().check(
        z.refine(() => {
          runs.n += 1;
          return true;
        }),
      ),
      inner: z.object({ n: z.number() }),
    });
    return { runs, write: replySerializerCompiler({ schema, method: "GET", url: "/t" }) };
  }

  it("checks a reply frozen through once and writes the same JSON again", () => {
    const { runs, write } = counted();
    const reply = Object.freeze({ amount: "1.5", inner: Object.freeze({ n: 1 }) });
    expect(write(reply)).toBe('{"amount":"1.5","inner":{"n":1}}');
    expect(write(reply)).toBe('{"amount":"1.5","inner":{"n":1}}');
    expect(runs.n).toBe(1);
    // An equal reply that is another object is checked on its own.
    write(Object.freeze({ amount: "1.5", inner: Object.freeze({ n: 1 }) }));
    expect(runs.n).toBe(2);
  });

  it("checks every time a reply that is not frozen, or whose parts are not, and writes what it holds now", () => {
    const { runs, write } = counted();
    const open = { amount: "1", inner: { n: 1 } };
    write(open);
    open.inner.n = 2;
    expect(write(open)).toBe('{"amount":"1","inner":{"n":2}}');
    const inner = { n: 1 };
    const half = Object.freeze({ amount: "1", inner });
    write(half);
    inner.n = 3;
    expect(write(half)).toBe('{"amount":"1","inner":{"n":3}}');
    expect(runs.n).toBe(4);
  });

  it("drops what the contract does not name, and refuses a reply the contract does not allow, frozen or not", () => {
    const { write } = counted();
    const leaky = Object.freeze({ amount: "2", inner: Object.freeze({ n: 1 }), passwordHash: "x" });
    expect(write(leaky)).toBe('{"amount":"2","inner":{"n":1}}');
    const wrong = Object.freeze({ amount: 2, inner: Object.freeze({ n: 1 }) });
    expect(() => write(wrong)).toThrow(ResponseSerializationError);
    expect(() => write(wrong)).toThrow(ResponseSerializationError);
  });
});

describe("the kept reads' replies follow every change", () => {
  const clock = fixedClock("2026-06-01T10:00:00Z");
  let server: TestServer;
  serverForTests({ clock }, (s) => {
    server = s;
  });

  it("the balance: the same frozen reply while it stays, the new amount once it moves", async () => {
    const db = server.handle.db;
    const investor = await newInvestor(db, clock);
    await fund(db, clock, investor.id, "USDT", "100");
    const before = await callRoute(server, "balance", { token: investor.token });
    expect(before.currencies.USDT).toBe("100");
    const first = await getBalance(db, investor.id);
    expect(await getBalance(db, investor.id)).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.currencies)).toBe(true);

    await fund(db, clock, investor.id, "USDT", "0.5");
    expect((await callRoute(server, "balance", { token: investor.token })).currencies.USDT).toBe("100.5");
    await callRoute(server, "setBalanceCurrency", { token: investor.token, body: { currency: "TON" } });
    expect(await callRoute(server, "balance", { token: investor.token })).toMatchObject({ currentCurrency: "TON" });
  });

  it("the user: its unread count and its subscription's end, as they are now", async () => {
    const db = server.handle.db;
    const investor = await newInvestor(db, clock);
    const option = (await callRoute(server, "subscriptionOptions"))[0];
    if (!option) throw new Error("no subscription option");
    await fund(db, clock, investor.id, option.currency as "USDT", String(Number(option.price) + 50));
    const paid = await callRoute(server, "subscribe", { token: investor.token, body: { optionId: option.id } });
    const until = paid.user.subscription.until;
    expect(paid.user.subscription.active).toBe(true);
    const me = () => callRoute(server, "currentUser", { token: investor.token });
    expect((await me()).subscription).toEqual({ active: true, until });
    expect(await me()).toEqual(await me());

    // A notification arrives (the operator moves a withdrawal), then is read.
    const withdrawal = await pendingWithdrawal(db, investor.id);
    await processWithdrawal({ db, clock }, withdrawal.id, "inspect");
    const unread = (await me()).notifications.unread;
    expect(unread).toBeGreaterThan(0);
    await callRoute(server, "readNotifications", { token: investor.token });
    expect((await me()).notifications.unread).toBe(0);

    // The subscription's end passes with nothing else changing: the same kept row, a different reply.
    clock.set(new Date(Date.parse(until ?? "") + 1000));
    expect((await me()).subscription).toEqual({ active: false, until });
  });
});
