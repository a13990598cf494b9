/**
 * Deposits as the Deposits screen uses them: open one on a plan from a balance, every refusal of
 * the Invest messages ('Not enough funds', 'Deposit creation error', 'Deposit closing error') and the
 * amount rules (docs/cabinet-rules.md#field-rules), the list, closing early (principal back, held accruals
 * forfeited), own data only, and crypto cases with their operations.
 */
import { addAmounts, CryptoCasesReply, Deposit, DepositCloseReply, depositTerms, routes } from "@contract";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "../../server/src/clock";
import { plans } from "../../server/src/db/schema";
import { runAccruals } from "../../server/src/services/accruals";
import { call, callRoute, injectRoute, type RouteRequest, type TestServer } from "./helpers";
import {
  addPlan,
  balanceOf,
  expectLedgerConsistent,
  fund,
  type Investor,
  newInvestor,
  serverWithTwoInvestors,
} from "./money";

const DAY = 86_400_000;

describe("deposits", () => {
  const clock = fixedClock("2026-05-01T09:00:00Z");
  let server: TestServer, alice: Investor, bob: Investor;
  serverWithTwoInvestors(clock, (made) => ({ server, alice, bob } = made));
  beforeAll(async () => {
    await fund(server.handle.db, clock, alice.id, "USDT", "1500");
    await fund(server.handle.db, clock, bob.id, "USDT", "300");
    await addPlan(server.handle.db, {
      id: "ton-week",
      currency: "TON",
      dailyYieldPercent: "0.7",
      durationDays: 7,
      minAmount: "1",
      maxAmount: "500",
    });
  });

  const open = (investor: Investor, body: RouteRequest<typeof routes.createDeposit>["body"]) =>
    injectRoute(server, routes.createDeposit, { token: investor.token, body });

  it("opens a deposit: the principal leaves the balance as a plan operation, the terms are the contract's", async () => {
    const res = await open(alice, { planId: "standard", currency: "USDT", amount: "1000", autoInvest: true });
    expect(res.status).toBe(200);
    const deposit = Deposit.parse(res.body);
    const preview = depositTerms({
      amount: "1000",
      dailyYieldPercent: "1.5",
      durationDays: 60,
      currency: "USDT",
      startedAt: "2026-05-01T09:00:00Z",
    });
    expect(deposit).toMatchObject({
      planId: "standard",
      planName: { en: "Standard", ru: "Стандарт", de: "Standard", kk: "Стандарт" },
      caseId: null,
      currency: "USDT",
      amount: preview.amount,
      dailyYieldPercent: "1.5",
      durationDays: 60,
      dailyIncome: preview.dailyIncome,
      totalAtEnd: preview.totalAtEnd,
      accruedHeld: "0",
      daysAccrued: 0,
      startedAt: "2026-05-01T09:00:00.000Z",
      endsAt: preview.endsAt,
      status: "active",
      autoInvest: true,
      closedAt: null,
      returned: null,
      forfeited: null,
      reinvestedInto: null,
    });
    expect((await balanceOf(server, alice)).USDT).toBe("500");
    const ops = await callRoute(server, "operations", { token: alice.token, query: { type: "plan" } });
    expect(ops.items).toEqual([
      expect.objectContaining({
        type: "plan",
        amount: "-1000",
        details: { depositId: deposit.id, planId: "standard" },
      }),
    ]);
    await expectLedgerConsistent(server.handle.db);
  });

  it("answers 'Not enough funds' when the balance cannot pay", async () => {
    const res = await open(alice, { planId: "start", currency: "USDT", amount: "500.000001", autoInvest: false });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: "INSUFFICIENT_FUNDS", message: "Not enough funds" });
    const ton = await open(alice, { planId: "ton-week", currency: "TON", amount: "5" });
    expect(ton.status).toBe(409);
    expect((await balanceOf(server, alice)).USDT).toBe("500");
    const list = await callRoute(server, "deposits", { token: alice.token });
    expect(list.total).toBe(1);
  });

  it("answers 'Deposit creation error' for an unknown or inactive plan, or a currency other than the plan's", async () => {
    const cases: [RouteRequest<typeof routes.createDeposit>["body"], string][] = [
      [{ planId: "gold", currency: "USDT", amount: "100" }, "plan_unavailable"],
      [{ planId: "start", currency: "TON", amount: "100" }, "currency_mismatch"],
      [{ planId: "start", currency: "USDT", amount: "100", caseId: "growth" }, "case_unavailable"],
      [{ planId: "start", currency: "USDT", amount: "100", caseId: "moonshot" }, "case_unavailable"],
    ];
    for (const [body, reason] of cases) {
      const res = await open(alice, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual({
        code: "DEPOSIT_CREATE_FAILED",
        message: "Deposit creation error",
        params: { reason },
      });
    }
    await server.handle.db.update(plans).set({ active: false }).where(eq(plans.id, "ton-week"));
    const inactive = await open(alice, { planId: "ton-week", currency: "TON", amount: "5" });
    expect(inactive.body).toMatchObject({ code: "DEPOSIT_CREATE_FAILED", params: { reason: "plan_unavailable" } });
    await server.handle.db.update(plans).set({ active: true }).where(eq(plans.id, "ton-week"));
  });

  it("checks the amount against the plan's limits", async () => {
    const cases: [unknown, string][] = [
      ["-10", "amountNegative"],
      ["0", "amountBelowMinimum"],
      ["9.999999", "amountBelowMinimum"],
      ["1000.000001", "amountAboveMaximum"],
      ["123456789012345678901", "amountAboveMaximum"],
      // More decimals than any amount is stored with: refused, never cut.
      ["10.0000000000000000001", "tooManyDecimals"],
      ["10.1234567890123456789012345", "tooManyDecimals"],
      ["ten", "required"],
      [10, "required"],
      [undefined, "required"],
    ];
    for (const [amount, code] of cases) {
      // Numbers and a missing amount too: sent raw, as the types forbid them.
      const body = { planId: "start", currency: "USDT", amount };
      const res = await call(server, "POST", "/funds/deposits", body, { token: alice.token });
      expect(res.status, String(amount)).toBe(400);
      expect(res.body).toMatchObject({ code: "VALIDATION_FAILED", fields: { amount: code } });
    }
    // The limits are the plan's, after truncation to the scale: 1000.0000009 is 1000.
    // Eighteen decimals (the most an amount may have) are still an amount.
    const edge = await open(bob, { planId: "start", currency: "USDT", amount: "10.000000900000000001" });
    expect(edge.status).toBe(200);
    expect(edge.body).toMatchObject({ amount: "10", dailyIncome: "0.1" });
  });

  it("lists only the caller's deposits, newest first, with a status filter", async () => {
    clock.advance(DAY / 2);
    const second = Deposit.parse((await open(alice, { planId: "start", currency: "USDT", amount: "100" })).body);
    const list = await callRoute(server, "deposits", { token: alice.token });
    expect(list.items.map((d) => d.id)[0]).toBe(second.id);
    expect(list.items.map((d) => d.planId)).toEqual(["start", "standard"]);
    expect(list.items.every((d) => d.status === "active")).toBe(true);
    const bobs = await callRoute(server, "deposits", { token: bob.token });
    expect(bobs.items.map((d) => d.amount)).toEqual(["10"]);
    const closed = await callRoute(server, "deposits", { token: alice.token, query: { status: "closed" } });
    expect(closed.total).toBe(0);
  });

  it("closes early: principal back, held accruals forfeited, both stated", async () => {
    const list = await callRoute(server, "deposits", { token: alice.token });
    const standard = list.items.find((d) => d.planId === "standard");
    if (!standard) throw new Error("no standard deposit");
    clock.advance(3 * DAY);
    await runAccruals(server.handle.db, clock);
    const before = await balanceOf(server, alice);

    const res = await callRoute(server, "closeDeposit", { token: alice.token, params: { id: standard.id } });
    const reply = DepositCloseReply.parse(res);
    expect(reply).toMatchObject({ returned: "1000", forfeited: "45" });
    expect(reply.deposit).toMatchObject({
      status: "closed",
      daysAccrued: 3,
      accruedHeld: "45",
      returned: "1000",
      forfeited: "45",
      closedAt: clock.now().toISOString(),
    });
    expect((await balanceOf(server, alice)).USDT).toBe(addAmounts(before.USDT, "1000"));
    const ops = await callRoute(server, "operations", { token: alice.token, query: { type: "deposit_return" } });
    expect(ops.items).toEqual([
      expect.objectContaining({
        amount: "1000",
        details: { depositId: standard.id, planId: "standard", forfeited: "45" },
      }),
    ]);
    const accruals = await callRoute(server, "operations", { token: alice.token, query: { type: "accrual" } });
    expect(accruals.total).toBe(0);

    const again = await injectRoute(server, routes.closeDeposit, { token: alice.token, params: { id: standard.id } });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      code: "DEPOSIT_CLOSE_FAILED",
      message: "Deposit closing error",
      params: { reason: "not_active" },
    });
    await expectLedgerConsistent(server.handle.db);
  });

  it("tells in the statistics whether a deposit was ever opened, still after it is closed and its money spent", async () => {
    const carol = await newInvestor(server.handle.db, clock);
    const stats = () => callRoute(server, "statistics", { token: carol.token });
    expect(await stats()).toMatchObject({ activeDeposits: 0, everDeposited: false });
    await fund(server.handle.db, clock, carol.id, "USDT", "100");
    expect(await stats()).toMatchObject({ activeDeposits: 0, everDeposited: false });
    const res = await open(carol, { planId: "standard", currency: "USDT", amount: "100", autoInvest: false });
    expect(res.status).toBe(200);
    expect(await stats()).toMatchObject({ activeDeposits: 1, everDeposited: true });
    await callRoute(server, "closeDeposit", { token: carol.token, params: { id: Deposit.parse(res.body).id } });
    expect(await stats()).toMatchObject({
      activeDeposits: 0,
      amountOnDeposit: { USDT: "0" },
      earned: { USDT: "0" },
      everDeposited: true,
    });
  });

  it("answers 'Deposit closing error' for another user's or an unknown deposit, and changes nothing", async () => {
    const bobs = await callRoute(server, "deposits", { token: bob.token });
    const target = bobs.items[0];
    if (!target) throw new Error("bob has no deposit");
    const before = await balanceOf(server, alice);
    for (const id of [target.id, "00000000-0000-4000-8000-000000000000", "42"]) {
      const res = await injectRoute(server, routes.closeDeposit, { token: alice.token, params: { id } });
      expect(res.status, id).toBe(400);
      expect(res.body).toMatchObject({ code: "DEPOSIT_CLOSE_FAILED", message: "Deposit closing error" });
    }
    expect(await balanceOf(server, alice)).toEqual(before);
    const still = await callRoute(server, "deposits", { token: bob.token });
    expect(still.items[0]?.status).toBe("active");
    expect((await injectRoute(server, routes.closeDeposit, { params: { id: target.id } })).status).toBe(401);
  });

  it("refuses to close a deposit whose term is over: it pays out in full instead", async () => {
    const tonInvestor = await newInvestor(server.handle.db, clock);
    await fund(server.handle.db, clock, tonInvestor.id, "TON", "100");
    const deposit = Deposit.parse(
      (await open(tonInvestor, { planId: "ton-week", currency: "TON", amount: "100" })).body,
    );
    expect(deposit.dailyIncome).toBe("0.7");
    clock.advance(8 * DAY); // the scheduler has not run yet
    const res = await injectRoute(server, routes.closeDeposit, {
      token: tonInvestor.token,
      params: { id: deposit.id },
    });
    expect(res.body).toMatchObject({ code: "DEPOSIT_CLOSE_FAILED", params: { reason: "completed" } });
    expect((await balanceOf(server, tonInvestor)).TON).toBe("104.9");
    const list = await callRoute(server, "deposits", { token: tonInvestor.token });
    expect(list.items[0]).toMatchObject({ status: "completed", daysAccrued: 7, accruedHeld: "4.9", returned: "100" });
    await expectLedgerConsistent(server.handle.db);
  });

  it("lists crypto cases and the operations of deposits opened through them", async () => {
    const cases = CryptoCasesReply.parse((await injectRoute(server, routes.cryptoCases)).body);
    expect(cases.map((c) => [c.id, c.riskLevel, c.planIds])).toEqual([
      ["steady", "low", ["start"]],
      ["balanced", "medium", ["start", "standard"]],
      ["growth", "high", ["standard", "premium"]],
    ]);
    expect(cases[0]?.name.kk).toBeTruthy();

    const investor = await newInvestor(server.handle.db, clock);
    await fund(server.handle.db, clock, investor.id, "USDT", "400");
    const viaCase = Deposit.parse(
      (await open(investor, { planId: "standard", currency: "USDT", amount: "200", caseId: "balanced" })).body,
    );
    expect(viaCase.caseId).toBe("balanced");
    await open(investor, { planId: "start", currency: "USDT", amount: "50" });

    const caseOps = await callRoute(server, "caseOperations", { token: investor.token });
    expect(caseOps.items).toEqual([
      expect.objectContaining({
        type: "plan",
        amount: "-200",
        details: { depositId: viaCase.id, planId: "standard", caseId: "balanced" },
      }),
    ]);
    const filtered = await callRoute(server, "caseOperations", { token: investor.token, query: { caseId: "steady" } });
    expect(filtered.total).toBe(0);
    const others = await callRoute(server, "caseOperations", { token: alice.token });
    expect(others.items.some((o) => o.details?.depositId === viaCase.id)).toBe(false);
  });
});
