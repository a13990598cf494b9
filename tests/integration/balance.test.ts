/**
 * Balance, current currency, statistics, exchange rate and exchange, and the operations list, as
 * the app calls them; replies checked against the contract's schemas.
 */
import { BalanceReply, ExchangeRateReply, ExchangeReply, exchangeResult, routes } from "@contract";
import { operatorRoutes } from "@contract/operator";
import { describe, expect, it } from "vitest";
import { fixedClock } from "../../server/src/clock";
import { DEMO_LOGIN, DEMO_PASSWORD } from "../../server/src/demo/seed";
import { setSetting } from "../../server/src/services/settings";
import { call, callRoute, injectRoute, TEST_OPERATOR_TOKEN, type TestServer } from "./helpers";
import { balanceOf, expectLedgerConsistent, fund, type Investor, serverWithTwoInvestors } from "./money";

const DAY = 86_400_000;

describe("balance, statistics, exchange and operations", () => {
  const clock = fixedClock("2026-05-01T09:00:00Z");
  let server: TestServer, alice: Investor, bob: Investor;
  serverWithTwoInvestors(clock, (made) => ({ server, alice, bob } = made));

  it("needs a session", async () => {
    for (const route of [routes.balance, routes.statistics, routes.exchangeRate, routes.operations]) {
      expect((await injectRoute(server, route)).status, route.path).toBe(401);
    }
  });

  it("shows every currency at 0 and USDT as the current currency for a new investor", async () => {
    const res = await callRoute(server, "balance", { token: alice.token });
    expect(BalanceReply.parse(res)).toEqual({
      type: "balance",
      currentCurrency: "USDT",
      currencies: { USDT: "0", BTC: "0", ETH: "0", TON: "0" },
    });
    expect((await injectRoute(server, routes.balance, { token: alice.token, query: { type: "balance" } })).status).toBe(
      200,
    );
    const unknown = await call(server, "GET", "/user/balance?type=bonus", undefined, { token: alice.token });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: "VALIDATION_FAILED", fields: { type: "required" } });
  });

  it("stores the chosen current currency", async () => {
    const set = await callRoute(server, "setBalanceCurrency", { token: alice.token, body: { currency: "TON" } });
    expect(BalanceReply.parse(set).currentCurrency).toBe("TON");
    const again = await callRoute(server, "balance", { token: alice.token });
    expect(again.currentCurrency).toBe("TON");
    const wrong = await call(server, "POST", "/user/balance", { currency: "DOGE" }, { token: alice.token });
    expect(wrong.status).toBe(400);
    await callRoute(server, "setBalanceCurrency", { token: alice.token, body: { currency: "USDT" } });
  });

  it("serves the exchange rates of the setting", async () => {
    const res = await callRoute(server, "exchangeRate", { token: alice.token });
    expect(ExchangeRateReply.parse(res)).toEqual({
      base: "USD",
      rates: { USDT: "1", BTC: "65000", ETH: "3200", TON: "5.5" },
      feePercent: "1",
    });
  });

  it("exchanges at the contract's formula: two operations, one transaction", async () => {
    await fund(server.handle.db, clock, alice.id, "USDT", "1000");
    const res = await callRoute(server, "exchange", {
      token: alice.token,
      body: { from: "USDT", to: "BTC", amount: "130" },
    });
    const reply = ExchangeReply.parse(res);
    const preview = exchangeResult({
      from: "USDT",
      to: "BTC",
      amount: "130",
      rates: { USDT: "1", BTC: "65000", ETH: "3200", TON: "5.5" },
      feePercent: "1",
    });
    // 130 / 65000 × 0.99 = 0.00198
    expect(preview).toBe("0.00198");
    expect(reply).toMatchObject({ from: "USDT", to: "BTC", debited: "130", received: preview, feePercent: "1" });
    expect(reply.currencies).toEqual({ USDT: "870", BTC: "0.00198", ETH: "0", TON: "0" });

    const ops = await callRoute(server, "operations", { token: alice.token, query: { type: "exchange" } });
    expect(ops.items.map((o) => [o.currency, o.amount]).sort()).toEqual([
      ["BTC", "0.00198"],
      ["USDT", "-130"],
    ]);
    expect(ops.items[0]?.details?.exchange).toEqual({ from: "USDT", to: "BTC", debited: "130", received: "0.00198" });
    await expectLedgerConsistent(server.handle.db);
  });

  it("follows a rate change made by the operator", async () => {
    const res = await injectRoute(server, operatorRoutes.setSetting, {
      token: TEST_OPERATOR_TOKEN,
      params: { key: "exchangeRates" },
      body: { value: { rates: { USDT: "1", BTC: "60000", ETH: "3000", TON: "5" }, feePercent: "0.5" } },
    });
    expect(res.status).toBe(200);
    const ex = await callRoute(server, "exchange", {
      token: alice.token,
      body: { from: "USDT", to: "TON", amount: "10" },
    });
    expect(ex).toMatchObject({ received: "1.99", feePercent: "0.5", rates: { from: "1", to: "5" } });
    await setSetting(server.handle.db, clock, "exchangeRates", {
      rates: { USDT: "1", BTC: "65000", ETH: "3200", TON: "5.5" },
      feePercent: "1",
    });
  });

  it("refuses an exchange the balance cannot pay, a zero result and a same-currency exchange", async () => {
    const before = await balanceOf(server, alice);
    const tooMuch = await injectRoute(server, routes.exchange, {
      token: alice.token,
      body: { from: "USDT", to: "ETH", amount: "100000" },
    });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body).toEqual({ code: "INSUFFICIENT_FUNDS", message: "Not enough funds" });

    const dust = await injectRoute(server, routes.exchange, {
      token: alice.token,
      body: { from: "USDT", to: "BTC", amount: "0.000001" },
    });
    expect(dust.status).toBe(400);
    expect(dust.body).toMatchObject({ code: "VALIDATION_FAILED", fields: { amount: "amountBelowMinimum" } });

    const negative = await injectRoute(server, routes.exchange, {
      token: alice.token,
      body: { from: "USDT", to: "BTC", amount: "-5" },
    });
    expect(negative.body).toMatchObject({ code: "VALIDATION_FAILED", fields: { amount: "amountNegative" } });

    const same = await injectRoute(server, routes.exchange, {
      token: alice.token,
      body: { from: "TON", to: "TON", amount: "1" },
    });
    expect(same.status).toBe(400);
    expect(same.body).toMatchObject({ fields: { to: "required" } });

    // A JSON number for the amount: refused (amounts are decimal strings).
    const number = await call(
      server,
      "POST",
      "/user/exchange",
      { from: "USDT", to: "TON", amount: 5 },
      { token: alice.token },
    );
    expect(number.status).toBe(400);
    expect(await balanceOf(server, alice)).toEqual(before);
  });

  it("lists only the caller's operations, newest first, with filters and pages", async () => {
    clock.advance(DAY);
    await fund(server.handle.db, clock, bob.id, "TON", "50");
    await fund(server.handle.db, clock, alice.id, "TON", "7.5");
    clock.advance(DAY);
    await fund(server.handle.db, clock, alice.id, "ETH", "0.25");

    const all = await callRoute(server, "operations", { token: alice.token });
    expect(all.total).toBe(7);
    expect(all.items.map((o) => o.createdAt)).toEqual([...all.items.map((o) => o.createdAt)].sort().reverse());
    expect(all.items[0]).toMatchObject({ type: "refill", currency: "ETH", amount: "0.25" });
    expect(all.items.some((o) => o.amount === "50")).toBe(false);

    // The path without its trailing slash answers the same (sent raw: the contract's path has it).
    const noSlash = await call(server, "GET", "/user/operations", undefined, { token: alice.token });
    expect(noSlash.body).toEqual(all);

    const ton = await callRoute(server, "operations", { token: alice.token, query: { currency: "TON" } });
    expect(ton.items.map((o) => o.amount)).toEqual(["7.5", "1.99"]);

    const refills = await callRoute(server, "operations", {
      token: alice.token,
      query: { type: "refill", limit: 1, page: 2 },
    });
    expect(refills).toMatchObject({ total: 3, page: 2, limit: 1 });
    expect(refills.items).toHaveLength(1);
    expect(refills.items[0]?.currency).toBe("TON");
    // The last page, a page past the end, and a filter nothing matches (answered from the kept totals alone).
    const last = await callRoute(server, "operations", {
      token: alice.token,
      query: { type: "refill", limit: 1, page: 3 },
    });
    expect(last).toMatchObject({ total: 3, page: 3, next: null });
    expect(last.items).toHaveLength(1);
    const past = await callRoute(server, "operations", {
      token: alice.token,
      query: { type: "refill", limit: 1, page: 4 },
    });
    expect(past).toMatchObject({ items: [], total: 3, page: 4, next: null });
    const none = await callRoute(server, "operations", {
      token: alice.token,
      query: { type: "withdrawal", currency: "TON" },
    });
    expect(none).toMatchObject({ items: [], total: 0, next: null });

    // Days are whole UTC days, inclusive at both ends.
    const day = await callRoute(server, "operations", {
      token: alice.token,
      query: { from: "2026-05-02", to: "2026-05-02" },
    });
    expect(day.items.map((o) => o.currency)).toEqual(["TON"]);
    const since = await callRoute(server, "operations", {
      token: alice.token,
      query: { from: "2026-05-02T09:00:00Z" },
    });
    expect(since.total).toBe(2);
    const until = await callRoute(server, "operations", { token: alice.token, query: { to: "2026-05-01" } });
    expect(until.total).toBe(5);

    const bobs = await callRoute(server, "operations", { token: bob.token });
    expect(bobs.items.map((o) => o.amount)).toEqual(["50"]);
  });

  it("refuses bad filters and page sizes", async () => {
    for (const query of ["limit=101", "limit=0", "page=0", "currency=XRP", "type=gift", "from=yesterday"]) {
      const res = await call(server, "GET", `/user/operations/?${query}`, undefined, { token: alice.token });
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe("VALIDATION_FAILED");
    }
    await callRoute(server, "operations", { token: alice.token, query: { limit: "100" } });
  });

  it("counts statistics: earned per currency, referrals, active deposits and the amount on deposit", async () => {
    const demo = await injectRoute(server, routes.login, { body: { login: DEMO_LOGIN, password: DEMO_PASSWORD } });
    const token = demo.body.refreshToken as string;
    const stats = await callRoute(server, "statistics", { token });
    // The seeded history: a Start deposit of 200 paid 30 × 2 USDT; a Standard deposit of 1000 runs;
    // the demo partners brought 44.3 of referral and matching income and the first bonus, 10.
    expect(stats).toEqual({
      currentCurrency: "USDT",
      earned: { USDT: "114.3", BTC: "0", ETH: "0", TON: "0" },
      referrals: 2,
      activeDeposits: 1,
      amountOnDeposit: { USDT: "1000", BTC: "0", ETH: "0", TON: "0" },
      everDeposited: true,
    });
    const house = await callRoute(server, "statistics", { token: alice.token });
    expect(house).toMatchObject({ referrals: 0, activeDeposits: 0, earned: { USDT: "0" } });
  });
});
