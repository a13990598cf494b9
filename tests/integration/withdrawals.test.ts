/**
 * Wallets and withdrawals (docs/decisions.md#d6-withdrawals): address formats, every Withdrawal message
 * (docs/cabinet-rules.md#messages), the code (used twice, expired, voided by 5 wrong tries, resend wait),
 * cancel and the operator's moves with the amount returned (balance = Σ operations throughout), the list's
 * filters, and two concurrent requests of the same funds on PGlite and on PostgreSQL (figures printed).
 *
 * Rerun the race on PostgreSQL: TEST_DATABASE_URL=postgres://… npx vitest run --project integration tests/integration/withdrawals.test.ts
 */
import { performance } from "node:perf_hooks";
import { routes, Withdrawal, WithdrawalRequestReply } from "@contract";
import { operatorRoutes } from "@contract/operator";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "../../server/src/clock";
import { openDatabase } from "../../server/src/db/client";
import * as schema from "../../server/src/db/schema";
import { openDeposit } from "../../server/src/services/deposits";
import {
  callRoute,
  createTestServer,
  injectRoute,
  lastCode,
  type RouteRequest,
  serverForTests,
  TEST_OPERATOR_TOKEN,
  type TestServer,
} from "./helpers";
import {
  balanceOf,
  expectLedgerConsistent,
  freshPostgres,
  fund,
  type Investor,
  newInvestor,
  POSTGRES_SKIP_REASON,
  saveWallets,
  TEST_DATABASE_URL,
  TRC20_WALLET,
} from "./money";

const clock = fixedClock(new Date());
let server: TestServer;
serverForTests({ clock }, (made) => {
  server = made;
});

const setWallet = (investor: Investor, paymentSystemId: string, address: string) =>
  saveWallets(server, investor, [{ paymentSystemId, address }]);

/** Wallet, a confirmed refill of `funded` USDT and a 100 USDT deposit: ready to withdraw `funded − 100`. */
async function eligible(s: TestServer, funded = "600"): Promise<Investor> {
  const investor = await newInvestor(s.handle.db, clock);
  await saveWallets(s, investor, [{ paymentSystemId: "usdt-trc20", address: TRC20_WALLET }]);
  await fund(s.handle.db, clock, investor.id, "USDT", funded);
  await openDeposit({ db: s.handle.db, clock }, investor.id, {
    planId: "start",
    currency: "USDT",
    amount: "100",
    autoInvest: false,
  });
  return investor;
}

const request = (s: TestServer, investor: Investor, amount: string, paymentSystemId = "usdt-trc20") =>
  injectRoute(s, routes.requestWithdrawal, { token: investor.token, body: { paymentSystemId, amount } });
const validate = (investor: Investor, withdrawalId: string, code: string) =>
  injectRoute(server, routes.validateWithdrawal, { token: investor.token, body: { withdrawalId, code } });
/** The operator's decision on a withdrawal (`POST /operator/withdrawals/:id/:action`). */
const decide = (
  id: string,
  action: "inspect" | "success" | "reject" | "error",
  body: RouteRequest<typeof operatorRoutes.processWithdrawal>["body"] = {},
) =>
  injectRoute(server, operatorRoutes.processWithdrawal, { token: TEST_OPERATOR_TOKEN, params: { id, action }, body });
const wrong = (code: string) => (code === "000000" ? "111111" : "000000");

describe("wallets", () => {
  it("stores addresses in the payment system's format and removes one with an empty address", async () => {
    const investor = await newInvestor(server.handle.db, clock);
    const bad = await injectRoute(server, routes.updateWallets, {
      token: investor.token,
      body: {
        wallets: [
          { paymentSystemId: "usdt-trc20", address: TRC20_WALLET },
          { paymentSystemId: "btc", address: "0x52908400098527886E0F7030069857D2E4169EE7" },
          { paymentSystemId: "nope", address: "x" },
        ],
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      code: "VALIDATION_FAILED",
      fields: { "wallets.1.address": "addressFormat", "wallets.2.paymentSystemId": "required" },
    });
    expect((await injectRoute(server, routes.wallets, { token: investor.token })).body).toEqual([]);
    const ok = await saveWallets(server, investor, [
      { paymentSystemId: "usdt-trc20", address: TRC20_WALLET },
      { paymentSystemId: "eth", address: "0x52908400098527886E0F7030069857D2E4169EE7" },
    ]);
    expect(ok).toEqual([
      { paymentSystemId: "usdt-trc20", address: TRC20_WALLET },
      { paymentSystemId: "eth", address: "0x52908400098527886E0F7030069857D2E4169EE7" },
    ]);
    expect(await setWallet(investor, "eth", "")).toEqual([{ paymentSystemId: "usdt-trc20", address: TRC20_WALLET }]);
    const refused = await injectRoute(server, routes.updateWallets, {
      token: investor.token,
      body: { wallets: [{ paymentSystemId: "usdt-trc20", address: "T123" }] },
    });
    expect(refused.body).toMatchObject({ fields: { "wallets.0.address": "addressFormat" } });
  });
});

describe("withdrawal rules", () => {
  it("answers every Withdrawal message of the catalogue in the documented order", async () => {
    const db = server.handle.db;
    const investor = await newInvestor(db, clock);
    const msg = async (amount = "50") => {
      const res = await request(server, investor, amount);
      return [res.status, res.body.code, res.body.message, res.body.fields];
    };
    expect(await msg()).toEqual([400, "NO_WITHDRAWAL_WALLET", "No withdrawal wallet specified", undefined]);
    await setWallet(investor, "usdt-trc20", TRC20_WALLET);
    expect(await msg()).toEqual([
      403,
      "DEPOSIT_AND_REFILL_REQUIRED",
      "To withdraw, you must have a deposit and a recharge",
      undefined,
    ]);
    await fund(db, clock, investor.id, "USDT", "500");
    expect(await msg()).toEqual([403, "DEPOSIT_REQUIRED", "You must have a deposit to withdraw", undefined]);
    await openDeposit({ db, clock }, investor.id, {
      planId: "start",
      currency: "USDT",
      amount: "100",
      autoInvest: false,
    });
    expect(await msg("5")).toEqual([
      400,
      "VALIDATION_FAILED",
      "Check the marked fields",
      { amount: "amountBelowMinimum" },
    ]);
    expect(await msg("50001")).toEqual([
      400,
      "VALIDATION_FAILED",
      "Check the marked fields",
      { amount: "amountAboveMaximum" },
    ]);
    expect(await msg("401")).toEqual([409, "INSUFFICIENT_FUNDS", "Not enough funds", undefined]);
    const unknown = await request(server, investor, "50", "nope");
    expect(unknown.body).toMatchObject({ code: "VALIDATION_FAILED", fields: { paymentSystemId: "required" } });

    const ok = await request(server, investor, "100");
    expect(ok.status).toBe(200);
    const reply = WithdrawalRequestReply.parse(ok.body);
    expect(reply.withdrawal).toMatchObject({
      status: "pending",
      awaitingCode: true,
      amount: "100",
      fee: "1",
      amountToReceive: "99",
      wallet: TRC20_WALLET,
      network: "TRC20",
    });
    expect(reply.code.message).toBe("Request successfully sent");
    expect((await balanceOf(server, investor)).USDT).toBe("300"); // reserved at once
    const id = reply.withdrawal.id;
    const code = await lastCode(server, investor.login, "withdrawal");

    const mismatch = await validate(investor, id, wrong(code));
    expect([mismatch.status, mismatch.body.message]).toEqual([400, "The code doesn't match. Try again"]);
    expect(mismatch.body.params).toEqual({ attemptsLeft: "4" });
    const done = await validate(investor, id, code);
    expect(done.status).toBe(200);
    expect(Withdrawal.parse(done.body)).toMatchObject({ status: "pending", awaitingCode: false });
    const twice = await validate(investor, id, code);
    expect([twice.status, twice.body.code, twice.body.message]).toEqual([400, "CODE_INVALID", "The code is not valid"]);
    await expectLedgerConsistent(db);
  });

  it("refuses an expired code, then cancel returns the funds", async () => {
    const investor = await eligible(server);
    const reply = WithdrawalRequestReply.parse((await request(server, investor, "200")).body);
    const code = await lastCode(server, investor.login, "withdrawal");
    clock.advance(601_000);
    const expired = await validate(investor, reply.withdrawal.id, code);
    expect([expired.status, expired.body.code, expired.body.message]).toEqual([
      410,
      "CODE_EXPIRED",
      "The verification code is out of date",
    ]);
    expect((await balanceOf(server, investor)).USDT).toBe("300");
    const cancelled = await injectRoute(server, routes.cancelWithdrawal, {
      token: investor.token,
      params: { id: reply.withdrawal.id },
    });
    expect(cancelled.status).toBe(200);
    expect((await balanceOf(server, investor)).USDT).toBe("500");
    const again = await injectRoute(server, routes.cancelWithdrawal, {
      token: investor.token,
      params: { id: reply.withdrawal.id },
    });
    expect(again.body.code).toBe("WITHDRAWAL_FAILED");
    const list = await callRoute(server, "withdrawals", { token: investor.token });
    expect(list.total).toBe(0); // cancelled ones are not listed
    await expectLedgerConsistent(server.handle.db);
  });

  it("voids the code after 5 wrong tries; a resend after the wait gives a new one", async () => {
    const investor = await eligible(server);
    const reply = WithdrawalRequestReply.parse((await request(server, investor, "50")).body);
    const id = reply.withdrawal.id;
    const code = await lastCode(server, investor.login, "withdrawal");
    for (let i = 4; i >= 0; i--) {
      const res = await validate(investor, id, wrong(code));
      expect(res.body).toMatchObject({ code: "CODE_MISMATCH", params: { attemptsLeft: String(i) } });
    }
    expect((await validate(investor, id, code)).body.code).toBe("CODE_INVALID");
    const early = await injectRoute(server, routes.resendWithdrawalCode, { token: investor.token, params: { id } });
    expect(early.status).toBe(429);
    clock.advance(61_000);
    await callRoute(server, "resendWithdrawalCode", { token: investor.token, params: { id } });
    const fresh = await lastCode(server, investor.login, "withdrawal");
    expect((await validate(investor, id, fresh)).status).toBe(200);
    // Another user cannot touch it.
    const other = await eligible(server);
    expect((await injectRoute(server, routes.cancelWithdrawal, { token: other.token, params: { id } })).status).toBe(
      404,
    );
    expect((await validate(other, id, fresh)).body.code).toBe("CODE_INVALID");
  });
});

describe("operator moves", () => {
  it("inspects, pays with a hash, rejects and errors with the amount returned; the list filters", async () => {
    const investor = await eligible(server, "1100"); // 1000 to withdraw
    const made: string[] = [];
    for (const amount of ["100", "200", "300"]) {
      const reply = WithdrawalRequestReply.parse((await request(server, investor, amount)).body);
      expect(
        (await validate(investor, reply.withdrawal.id, await lastCode(server, investor.login, "withdrawal"))).status,
      ).toBe(200);
      made.push(reply.withdrawal.id);
    }
    const [paid, rejected, failed] = made as [string, string, string];
    expect((await balanceOf(server, investor)).USDT).toBe("400");
    expect((await decide(paid, "inspect")).body).toMatchObject({
      status: "on_inspection",
    });
    expect((await decide(paid, "success")).status).toBe(400); // needs the hash
    const success = (await decide(paid, "success", { txHash: "0xabcdef0123456789" })).body;
    expect(success).toMatchObject({ status: "success", txHash: "0xabcdef0123456789" });
    expect((await decide(rejected, "reject", { note: "wallet flagged" })).body).toMatchObject({ status: "rejected" });
    expect((await decide(failed, "error")).body).toMatchObject({ status: "error" });
    expect((await balanceOf(server, investor)).USDT).toBe("900"); // 200 and 300 back
    const again = await decide(rejected, "error");
    expect(again.body).toMatchObject({ code: "UPDATE_FAILED" });
    expect((await decide("00000000-0000-4000-8000-000000000000", "inspect")).status).toBe(404);
    const reversals = await server.handle.db
      .select()
      .from(schema.operations)
      .where(eq(schema.operations.userId, investor.id));
    const amountsOf = (type: string) =>
      reversals
        .filter((o) => o.type === type)
        .map((o) => Number(o.amount))
        .sort((a, b) => a - b);
    expect(amountsOf("withdrawal")).toEqual([-300, -200, -100]);
    // The rejected and the failed application come back as their own kind.
    expect(amountsOf("withdrawal_return")).toEqual([200, 300]);
    await expectLedgerConsistent(server.handle.db);

    const list = (query: RouteRequest<typeof routes.withdrawals>["query"] = {}) =>
      callRoute(server, "withdrawals", { token: investor.token, query });
    expect((await list()).total).toBe(3);
    expect((await list({ status: "success" })).items.map((w) => w.id)).toEqual([paid]);
    expect((await list({ status: "error", currency: "USDT" })).items.map((w) => w.id)).toEqual([failed]);
    expect((await list({ currency: "BTC" })).total).toBe(0);
    const today = clock.now().toISOString().slice(0, 10);
    expect((await list({ from: today, to: today, limit: 2 })).items).toHaveLength(2);
    expect((await list({ to: "2000-01-01" })).total).toBe(0);
    const ops = (
      await injectRoute(server, operatorRoutes.withdrawals, {
        token: TEST_OPERATOR_TOKEN,
        query: { status: "success" },
      })
    ).body as unknown as { id: string }[];
    expect(ops.map((w) => w.id)).toContain(paid);
  });
});

/** Two requests of the same funds at once: exactly one reserves them. */
async function race(s: TestServer, backend: string, attempts = 2) {
  const investor = await eligible(s, "180"); // 80 free: one request of 60 fits, not two
  const started = performance.now();
  const results = await Promise.all(Array.from({ length: attempts }, () => request(s, investor, "60")));
  const ms = performance.now() - started;
  const ok = results.filter((r) => r.status === 200);
  const refused = results.filter((r) => r.status === 409);
  console.log(
    `[kassa] concurrent withdrawal requests on ${backend}: ${attempts} attempts, ${ok.length} succeeded, ${refused.length} INSUFFICIENT_FUNDS, ${ms.toFixed(0)} ms`,
  );
  expect(ok).toHaveLength(1);
  expect(refused).toHaveLength(attempts - 1);
  expect((await balanceOf(s, investor)).USDT).toBe("20");
  await expectLedgerConsistent(s.handle.db);
}

describe("concurrent withdrawal requests", () => {
  it("reserve the same funds once on PGlite", async () => {
    await race(server, "PGlite", 2);
    await race(server, "PGlite", 10);
  });

  describe.skipIf(!TEST_DATABASE_URL)(
    `on PostgreSQL (${TEST_DATABASE_URL ? "TEST_DATABASE_URL" : POSTGRES_SKIP_REASON})`,
    () => {
      let pg: Awaited<ReturnType<typeof freshPostgres>>;
      let pgServer: TestServer;
      beforeAll(async () => {
        pg = await freshPostgres("withdrawals");
        pgServer = await createTestServer({ clock, handle: await openDatabase({ databaseUrl: pg.url }) });
      });
      afterAll(async () => {
        await pgServer?.close();
        await pgServer?.handle.close();
        await pg?.drop();
      });

      it("reserve the same funds once", async () => {
        await race(pgServer, "PostgreSQL", 2);
        await race(pgServer, "PostgreSQL", 10);
      });

      it("pay a turnover bonus once when two deposits cross it at once", async () => {
        const db = pgServer.handle.db;
        const leader = await newInvestor(db, clock);
        const members = [];
        for (let i = 0; i < 4; i++) {
          const m = await newInvestor(db, clock);
          await db.update(schema.users).set({ inviterId: leader.id }).where(eq(schema.users.id, m.id));
          await fund(db, clock, m.id, "USDT", "300");
          members.push(m);
        }
        const results = await Promise.all(
          members.map((m) =>
            injectRoute(pgServer, routes.createDeposit, {
              token: m.token,
              body: { planId: "start", currency: "USDT", amount: "300" },
            }),
          ),
        );
        expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
        const bonuses = await db
          .select()
          .from(schema.operations)
          .where(and(eq(schema.operations.userId, leader.id), eq(schema.operations.type, "bonus")));
        expect(bonuses).toHaveLength(1);
        await expectLedgerConsistent(db);
      });
    },
  );
});
