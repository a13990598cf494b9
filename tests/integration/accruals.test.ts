/**
 * Daily accruals: each deposit-day once (re-runs change nothing), catch-up after downtime, held
 * until the plan ends, then paid in one transaction (or reinvested with auto-investment); the
 * scheduler, and the development clock the operator moves.
 */
import { Deposit, depositTerms, routes } from "@contract";
import { operatorRoutes } from "@contract/operator";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "../../server/src/clock";
import { accruals, deposits } from "../../server/src/db/schema";
import { Jobs, listJobRuns } from "../../server/src/jobs";
import { addSchedulerJobs } from "../../server/src/scheduler";
import { runAccruals } from "../../server/src/services/accruals";
import {
  callRoute,
  createTestServer,
  injectRoute,
  type RouteRequest,
  TEST_OPERATOR_TOKEN,
  type TestServer,
} from "./helpers";
import { addPlan, balanceOf, expectLedgerConsistent, fund, type Investor, newInvestor } from "./money";

const DAY = 86_400_000;

async function accrualRows(server: TestServer, depositId: string) {
  return server.handle.db
    .select({ day: accruals.dayIndex, amount: accruals.amount, dueAt: accruals.dueAt })
    .from(accruals)
    .where(eq(accruals.depositId, depositId))
    .orderBy(accruals.dayIndex);
}

async function depositById(server: TestServer, investor: Investor, id: string) {
  const list = await callRoute(server, "deposits", { token: investor.token, query: { limit: 100 } });
  const found = list.items.find((d) => d.id === id);
  if (!found) throw new Error(`deposit ${id} not listed`);
  return found;
}

describe("accruals", () => {
  const clock = fixedClock("2026-05-01T09:00:00Z");
  let server: TestServer;

  beforeAll(async () => {
    server = await createTestServer({ clock });
    // Only this file's deposits: the demo investor's seeded deposit is closed out of the way.
    await server.handle.db.update(deposits).set({ status: "closed" }).where(eq(deposits.status, "active"));
    await addPlan(server.handle.db, {
      id: "small-max",
      currency: "USDT",
      dailyYieldPercent: "10",
      durationDays: 2,
      minAmount: "1",
      maxAmount: "110",
    });
  });

  afterAll(async () => {
    await server?.close();
  });

  const open = async (investor: Investor, body: RouteRequest<typeof routes.createDeposit>["body"]) => {
    const res = await injectRoute(server, routes.createDeposit, { token: investor.token, body });
    if (res.status !== 200) throw new Error(`open: ${res.status} ${JSON.stringify(res.body)}`);
    return Deposit.parse(res.body);
  };

  it("accrues nothing before a full day, then each day once however often it runs", async () => {
    const investor = await newInvestor(server.handle.db, clock);
    await fund(server.handle.db, clock, investor.id, "USDT", "500");
    const deposit = await open(investor, { planId: "start", currency: "USDT", amount: "500" });

    clock.advance(DAY - 1);
    expect((await runAccruals(server.handle.db, clock)).days).toBe(0);
    clock.advance(1);
    const first = await runAccruals(server.handle.db, clock);
    expect(first).toMatchObject({ deposits: 1, days: 1, completed: 0, failed: [] });
    const again = await runAccruals(server.handle.db, clock);
    expect(again).toMatchObject({ deposits: 0, days: 0 });
    const rows = await accrualRows(server, deposit.id);
    expect(rows).toEqual([{ day: 1, amount: "5.000000000000000000", dueAt: new Date("2026-05-02T09:00:00Z") }]);
    expect(await depositById(server, investor, deposit.id)).toMatchObject({ daysAccrued: 1, accruedHeld: "5" });
    // Held, not paid: the balance did not move.
    expect((await balanceOf(server, investor)).USDT).toBe("0");
  });

  it("catches up after downtime: 10 days later, 10 accruals", async () => {
    const investor = await newInvestor(server.handle.db, clock);
    await fund(server.handle.db, clock, investor.id, "USDT", "250");
    const deposit = await open(investor, { planId: "start", currency: "USDT", amount: "250" });
    clock.advance(10 * DAY + 5_000);
    const run = await runAccruals(server.handle.db, clock, { userId: investor.id });
    expect(run).toMatchObject({ deposits: 1, days: 10, completed: 0 });
    const rows = await accrualRows(server, deposit.id);
    expect(rows.map((r) => r.day)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(await depositById(server, investor, deposit.id)).toMatchObject({ daysAccrued: 10, accruedHeld: "25" });
    expect((await runAccruals(server.handle.db, clock, { userId: investor.id })).days).toBe(0);
    expect(await accrualRows(server, deposit.id)).toHaveLength(10);
  });

  it("completes a 30-day plan and pays exactly amount + 30 × dailyIncome", async () => {
    const investor = await newInvestor(server.handle.db, clock);
    await fund(server.handle.db, clock, investor.id, "USDT", "123.456789");
    const deposit = await open(investor, { planId: "start", currency: "USDT", amount: "123.456789" });
    const terms = depositTerms({ amount: "123.456789", dailyYieldPercent: "1", durationDays: 30, currency: "USDT" });
    expect(deposit).toMatchObject({ dailyIncome: "1.234567", totalAtEnd: "160.493799" });

    clock.advance(12 * DAY);
    await runAccruals(server.handle.db, clock, { userId: investor.id });
    expect((await balanceOf(server, investor)).USDT).toBe("0");
    clock.advance(25 * DAY);
    const run = await runAccruals(server.handle.db, clock, { userId: investor.id });
    expect(run).toMatchObject({ days: 18, completed: 1, reinvested: 0 });

    expect((await balanceOf(server, investor)).USDT).toBe(terms.totalAtEnd);
    expect(await depositById(server, investor, deposit.id)).toMatchObject({
      status: "completed",
      daysAccrued: 30,
      accruedHeld: "37.03701",
      returned: "123.456789",
      closedAt: deposit.endsAt,
    });
    const ops = await callRoute(server, "operations", { token: investor.token, query: { limit: 10 } });
    expect(ops.items.map((o) => [o.type, o.amount, o.createdAt])).toEqual([
      ["deposit_return", "123.456789", deposit.endsAt],
      ["accrual", "37.03701", deposit.endsAt],
      ["plan", "-123.456789", deposit.startedAt],
      ["refill", "123.456789", deposit.startedAt],
    ]);
    expect(ops.items[1]?.details).toMatchObject({ depositId: deposit.id, days: 30 });
    expect((await runAccruals(server.handle.db, clock, { userId: investor.id })).completed).toBe(0);
    expect((await balanceOf(server, investor)).USDT).toBe(terms.totalAtEnd);
    const stats = await callRoute(server, "statistics", { token: investor.token });
    expect(stats).toMatchObject({ earned: { USDT: "37.03701" }, activeDeposits: 0 });
    await expectLedgerConsistent(server.handle.db);
  });

  it("reinvests principal + accruals with auto-investment, back to back, across a long downtime", async () => {
    const investor = await newInvestor(server.handle.db, clock);
    await fund(server.handle.db, clock, investor.id, "USDT", "100");
    const first = await open(investor, { planId: "small-max", currency: "USDT", amount: "100", autoInvest: true });
    // 2-day plan, 10 % a day: 100 → 120 (over the maximum of 110, so it pays out instead).
    const smaller = await newInvestor(server.handle.db, clock);
    await fund(server.handle.db, clock, smaller.id, "USDT", "75");
    const chain = await open(smaller, { planId: "small-max", currency: "USDT", amount: "75", autoInvest: true });

    clock.advance(5 * DAY);
    const run = await runAccruals(server.handle.db, clock);
    expect(run.failed).toEqual([]);

    expect(await depositById(server, investor, first.id)).toMatchObject({
      status: "completed",
      returned: "100",
      reinvestedInto: null,
    });
    expect((await balanceOf(server, investor)).USDT).toBe("120");

    // 75 → 90 (reinvested at day 2) → 108 (reinvested at day 4) → the third runs (1 of 2 days).
    const list = await callRoute(server, "deposits", { token: smaller.token });
    expect(list.items.map((d) => [d.amount, d.status, d.daysAccrued, d.startedAt])).toEqual([
      ["108", "active", 1, new Date(Date.parse(chain.startedAt) + 4 * DAY).toISOString()],
      ["90", "completed", 2, new Date(Date.parse(chain.startedAt) + 2 * DAY).toISOString()],
      ["75", "completed", 2, chain.startedAt],
    ]);
    expect(list.items[2]).toMatchObject({ reinvestedInto: list.items[1]?.id, returned: null });
    expect((await balanceOf(server, smaller)).USDT).toBe("0");
    const ops = await callRoute(server, "operations", { token: smaller.token, query: { limit: 50 } });
    expect(ops.items.filter((o) => o.type === "accrual").map((o) => o.amount)).toEqual(["18", "15"]);
    expect(ops.items.filter((o) => o.type === "plan").map((o) => o.amount)).toEqual(["-108", "-90", "-75"]);
    await expectLedgerConsistent(server.handle.db);
  });

  it("runs at start as a job of the server's jobs (main.ts adds it)", async () => {
    const investor = await newInvestor(server.handle.db, clock);
    await fund(server.handle.db, clock, investor.id, "USDT", "20");
    const deposit = await open(investor, { planId: "start", currency: "USDT", amount: "20" });
    clock.advance(2 * DAY);
    const jobs = new Jobs(server.handle.db, "pglite", server.app.log);
    addSchedulerJobs(jobs, { db: server.handle.db, clock, intervalSeconds: 3600, log: server.app.log });
    try {
      jobs.start();
      const turn = await jobs.runNow("accruals"); // joins the run made at start
      expect(turn).toMatchObject({ ran: true });
      expect(await depositById(server, investor, deposit.id)).toMatchObject({ daysAccrued: 2 });
      expect(jobs.states().find((j) => j.name === "accruals")).toMatchObject({ runs: 1, failures: 0 });
      // Its outcome is recorded for `kassa jobs list`.
      await expect.poll(async () => (await listJobRuns(server.handle.db)).map((r) => r.name)).toContain("accruals");
    } finally {
      await jobs.stop();
    }
  });
});

describe("development clock", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await createTestServer();
  });

  afterAll(async () => {
    await server?.close();
  });

  it("moves the server's time forward, runs the accruals, and goes back with reset", async () => {
    const investor = await newInvestor(server.handle.db, server.app.clock);
    await fund(server.handle.db, server.app.clock, investor.id, "USDT", "100");
    const opened = await callRoute(server, "createDeposit", {
      token: investor.token,
      body: { planId: "start", currency: "USDT", amount: "100" },
    });
    const deposit = Deposit.parse(opened);

    const advanced = await injectRoute(server, operatorRoutes.shiftClock, {
      token: TEST_OPERATOR_TOKEN,
      body: { advanceDays: 3 },
    });
    expect(advanced.status).toBe(200);
    const body = advanced.body as { now: string; offsetSeconds: number; accruals: { days: number } };
    expect(body.offsetSeconds).toBe(3 * 86_400);
    expect(Date.parse(body.now) - Date.now()).toBeGreaterThan(3 * DAY - 60_000);
    expect(body.accruals.days).toBeGreaterThanOrEqual(3);
    const [rows] = await server.handle.db
      .select({ n: count() })
      .from(accruals)
      .where(eq(accruals.depositId, deposit.id));
    expect(rows?.n).toBe(3);

    const state = await injectRoute(server, operatorRoutes.clock, { token: TEST_OPERATOR_TOKEN });
    expect(state.body).toMatchObject({ offsetSeconds: 3 * 86_400 });
    const reset = await injectRoute(server, operatorRoutes.shiftClock, {
      token: TEST_OPERATOR_TOKEN,
      body: { reset: true },
    });
    expect(reset.body).toMatchObject({ offsetSeconds: 0 });
    const empty = await injectRoute(server, operatorRoutes.shiftClock, { token: TEST_OPERATOR_TOKEN, body: {} });
    expect(empty.status).toBe(400);
    const run = await injectRoute(server, operatorRoutes.runAccruals, { token: TEST_OPERATOR_TOKEN });
    expect(run.body).toMatchObject({ days: 0, failed: [] });
    await expectLedgerConsistent(server.handle.db);
  });

  it("does not exist in production", async () => {
    const production = await createTestServer({
      env: {
        NODE_ENV: "production",
        TELEGRAM_BOT_TOKEN: "7000000001:AAF-real-looking-token-000000000",
        CODE_SECRET: "test-code-secret-0123456789abcdefghij",
      },
      seed: false,
    });
    try {
      expect(production.app.devClock).toBeNull();
      const res = await injectRoute(production, operatorRoutes.shiftClock, {
        token: TEST_OPERATOR_TOKEN,
        body: { advanceDays: 1 },
      });
      expect(res.status).toBe(404);
      const audit = await injectRoute(production, operatorRoutes.auditLedger, { token: TEST_OPERATOR_TOKEN });
      expect(audit.body).toEqual({ ok: true, discrepancies: [] });
    } finally {
      await production.close();
    }
  });
});
