/**
 * The pulse moves on every change of the investor's money or deposit state (docs/decisions.md#live-money), through
 * the route the open cabinet polls (so the kept pulse is dropped too): opening a deposit, an accrual run (which
 * writes neither an operation nor a notification), closing early, a withdrawal requested, cancelled and moved by
 * the operator, a refill made and its hash attached. And the close-early confirmation's amounts: the server closes
 * at the amounts the investor agreed to, or refuses, closing nothing, and says the amounts it would use now.
 *
 * Rerun: npx vitest run --project integration tests/integration/pulse-states.test.ts
 */
import { DAY_MS, Deposit, routes } from "@contract";
import { describe, expect, it } from "vitest";
import { fixedClock } from "../../server/src/clock";
import { runAccruals } from "../../server/src/services/accruals";
import { createRefill } from "../../server/src/services/refills";
import { processWithdrawal } from "../../server/src/services/withdrawals";
import { callRoute, injectRoute, lastCode, serverForTests, type TestServer } from "./helpers";
import { balanceOf, PAYMENT_SYSTEM, withdrawalReadyInvestor } from "./money";

const clock = fixedClock("2026-06-01T09:00:00Z");
let server: TestServer;
serverForTests({ clock }, (made) => {
  server = made;
});

describe("the pulse moves with every change of money or deposit state", () => {
  it("on opening a deposit, an accrual run, an early close, a withdrawal's moves and a refill's", async () => {
    const investor = await withdrawalReadyInvestor(server, clock);
    const versions: string[] = [];
    /** The pulse after `step`: it must differ from every earlier one. */
    const moves = async (step: string) => {
      const { version } = await callRoute(server, "pulse", { token: investor.token });
      expect({ step, seen: versions.includes(version) }).toEqual({ step, seen: false });
      versions.push(version);
    };
    await moves("start");

    const opened = await injectRoute(server, routes.createDeposit, {
      token: investor.token,
      body: { planId: "start", currency: "USDT", amount: "200" },
    });
    expect(opened.status).toBe(200);
    const deposit = Deposit.parse(opened.body);
    await moves("deposit opened");

    // The pulse is read (and kept) before the run, so a kept pulse from before it would be served again.
    expect((await callRoute(server, "pulse", { token: investor.token })).version).toBe(versions.at(-1));
    clock.advance(DAY_MS);
    expect((await runAccruals(server.handle.db, clock, { userId: investor.id })).days).toBeGreaterThan(0);
    await moves("accrual run");
    clock.advance(DAY_MS);
    await runAccruals(server.handle.db, clock, { userId: investor.id });
    await moves("second accrual run");

    const closed = await injectRoute(server, routes.closeDeposit, {
      token: investor.token,
      params: { id: deposit.id },
    });
    expect(closed.status).toBe(200);
    await moves("closed early");

    const requested = await injectRoute(server, routes.requestWithdrawal, {
      token: investor.token,
      body: { paymentSystemId: PAYMENT_SYSTEM.USDT, amount: "20" },
    });
    expect(requested.status).toBe(200);
    const withdrawalId = (requested.body as { withdrawal: { id: string } }).withdrawal.id;
    await moves("withdrawal requested");
    expect(
      (await injectRoute(server, routes.cancelWithdrawal, { token: investor.token, params: { id: withdrawalId } }))
        .status,
    ).toBe(200);
    await moves("withdrawal cancelled");

    const refill = await createRefill({ db: server.handle.db, clock }, investor.id, {
      paymentSystemId: PAYMENT_SYSTEM.USDT,
      amount: "5",
    });
    await moves("refill made");
    const hashed = await injectRoute(server, routes.updateRefill, {
      token: investor.token,
      params: { id: refill.id },
      body: { txHash: "0xabcdef0123456789" },
    });
    expect(hashed.status).toBe(200);
    await moves("refill hash attached");
  });

  it("when the code is validated and when the operator moves the withdrawal", async () => {
    const investor = await withdrawalReadyInvestor(server, clock);
    const requested = await injectRoute(server, routes.requestWithdrawal, {
      token: investor.token,
      body: { paymentSystemId: PAYMENT_SYSTEM.USDT, amount: "20" },
    });
    expect(requested.status).toBe(200);
    const id = (requested.body as { withdrawal: { id: string } }).withdrawal.id;
    const before = (await callRoute(server, "pulse", { token: investor.token })).version;
    const code = await lastCode(server, investor.login, "withdrawal");
    const validated = await injectRoute(server, routes.validateWithdrawal, {
      token: investor.token,
      body: { withdrawalId: id, code },
    });
    expect(validated.status).toBe(200);
    const pending = (await callRoute(server, "pulse", { token: investor.token })).version;
    expect(pending).not.toBe(before);
    await processWithdrawal({ db: server.handle.db, clock }, id, "inspect");
    expect((await callRoute(server, "pulse", { token: investor.token })).version).not.toBe(pending);
  });
});

describe("closing early at the amounts the investor saw", () => {
  it("refuses, closing nothing, when a day accrued since, and says the amounts it would use; then closes at them", async () => {
    const investor = await withdrawalReadyInvestor(server, clock);
    const opened = await injectRoute(server, routes.createDeposit, {
      token: investor.token,
      body: { planId: "start", currency: "USDT", amount: "300" },
    });
    const deposit = Deposit.parse(opened.body);
    clock.advance(DAY_MS);
    await runAccruals(server.handle.db, clock, { userId: investor.id });
    const seen = (
      await callRoute(server, "deposits", { token: investor.token, query: { page: 1, limit: 50 } })
    ).items.find((d) => d.id === deposit.id);
    expect(seen?.daysAccrued).toBe(1);
    const agreed = { returned: seen?.amount ?? "", forfeited: seen?.accruedHeld ?? "" };
    const balance = (await balanceOf(server, investor)).USDT;

    // Another day falls due before the investor taps "Close".
    clock.advance(DAY_MS);
    const refused = await injectRoute(server, routes.closeDeposit, {
      token: investor.token,
      params: { id: deposit.id },
      body: agreed,
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: "DEPOSIT_CLOSE_FAILED",
      params: { reason: "amounts_changed", returned: "300", forfeited: "6" },
    });
    expect((await balanceOf(server, investor)).USDT).toBe(balance);
    const still = (
      await callRoute(server, "deposits", { token: investor.token, query: { page: 1, limit: 50 } })
    ).items.find((d) => d.id === deposit.id);
    expect(still).toMatchObject({ status: "active", daysAccrued: 2, accruedHeld: "6" });

    // Agreeing to the new amounts closes at them: the reply says what the sheet said.
    const done = await injectRoute(server, routes.closeDeposit, {
      token: investor.token,
      params: { id: deposit.id },
      body: { returned: "300", forfeited: "6" },
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ returned: "300", forfeited: "6" });
  });

  it("still closes without a body, at the server's amounts", async () => {
    const investor = await withdrawalReadyInvestor(server, clock);
    const opened = await injectRoute(server, routes.createDeposit, {
      token: investor.token,
      body: { planId: "start", currency: "USDT", amount: "100" },
    });
    const deposit = Deposit.parse(opened.body);
    const done = await injectRoute(server, routes.closeDeposit, { token: investor.token, params: { id: deposit.id } });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ returned: "100", forfeited: "0" });
  });
});

describe("the deposit list", () => {
  it("lists the active deposits before those that ended, each newest first", async () => {
    const investor = await withdrawalReadyInvestor(server, clock);
    const open = async (amount: string) => {
      clock.advance(60_000);
      const res = await injectRoute(server, routes.createDeposit, {
        token: investor.token,
        body: { planId: "start", currency: "USDT", amount },
      });
      return Deposit.parse(res.body).id;
    };
    const older = await open("50");
    const closedLater = await open("60");
    const newest = await open("70");
    await injectRoute(server, routes.closeDeposit, { token: investor.token, params: { id: closedLater } });
    const list = await callRoute(server, "deposits", { token: investor.token, query: { page: 1, limit: 50 } });
    const ids = list.items.map((d) => d.id);
    const ended = list.items.filter((d) => d.status !== "active").map((d) => d.id);
    // Every active one comes before every ended one; the newest active first.
    expect(ids.slice(ids.length - ended.length)).toEqual(ended);
    expect(ids.indexOf(newest)).toBeLessThan(ids.indexOf(older));
    expect(ids.indexOf(older)).toBeLessThan(ids.indexOf(closedLater));
  });
});
