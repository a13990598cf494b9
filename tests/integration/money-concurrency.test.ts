/**
 * Concurrent spending and concurrent schedulers. N deposits requested at once from a balance that
 * pays only K: exactly K succeed, the rest get 409 INSUFFICIENT_FUNDS, the balance never goes
 * negative and still equals the sum of its operations. Two accrual runs at once accrue each
 * deposit-day once and pay a completed deposit once. Exchanges both ways at once do not deadlock.
 * On PGlite (one connection: transactions queue) and on a real PostgreSQL with a pool of 10
 * connections per handle, so the requests really overlap there; the figures are printed.
 *
 * Rerun: TEST_DATABASE_URL=postgres://… npx vitest run --project integration tests/integration/money-concurrency.test.ts
 */
import { performance } from "node:perf_hooks";
import { addAmounts, Deposit, routes } from "@contract";
import { count, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Clock, fixedClock } from "../../server/src/clock";
import { type DatabaseHandle, openDatabase } from "../../server/src/db/client";
import { resultRows } from "../../server/src/db/rows";
import { accruals, operations } from "../../server/src/db/schema";
import { type AccrualRun, runAccruals } from "../../server/src/services/accruals";
import { openDeposit } from "../../server/src/services/deposits";
import { createTestServer, injectRoute, type TestServer } from "./helpers";
import {
  balanceOf,
  expectLedgerConsistent,
  freshPostgres,
  fund,
  newInvestor,
  POSTGRES_SKIP_REASON,
  TEST_DATABASE_URL,
} from "./money";

const DAY = 86_400_000;

interface Timed<T> {
  value: T;
  start: number;
  end: number;
}

async function timed<T>(run: () => Promise<T>): Promise<Timed<T>> {
  const start = performance.now();
  const value = await run();
  return { value, start, end: performance.now() };
}

/** The most calls in flight at one moment. */
function maxInFlight(calls: Timed<unknown>[]): number {
  const events = calls.flatMap((c) => [
    [c.start, 1],
    [c.end, -1],
  ]) as [number, number][];
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let current = 0;
  let max = 0;
  for (const [, delta] of events) {
    current += delta;
    max = Math.max(max, current);
  }
  return max;
}

interface Activity {
  samples: number;
  /** Most server connections inside a statement or transaction at one sample. */
  busy: number;
  /** Most server connections waiting for a lock (a row another transaction is updating). */
  waiting: number;
}

/** Samples PostgreSQL's own view of the connections until `done` settles. */
async function sampleActivity(monitor: DatabaseHandle["db"], done: Promise<unknown>): Promise<Activity> {
  let finished = false;
  void done.finally(() => {
    finished = true;
  });
  const activity: Activity = { samples: 0, busy: 0, waiting: 0 };
  while (!finished) {
    const result = await monitor.execute(sql`
      select count(*) filter (where state <> 'idle')::int as busy,
             count(*) filter (where wait_event_type = 'Lock')::int as waiting
      from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`);
    const rows = resultRows<{ busy: number; waiting: number }>(result);
    activity.samples += 1;
    activity.busy = Math.max(activity.busy, rows[0]?.busy ?? 0);
    activity.waiting = Math.max(activity.waiting, rows[0]?.waiting ?? 0);
  }
  return activity;
}

/**
 * N deposits of 100 USDT at once from a balance of K × 100 + 34.5. With a `monitor` connection
 * (PostgreSQL) the database's own view of the burst is sampled.
 */
async function concurrentDeposits(
  server: TestServer,
  clock: Clock,
  backend: string,
  attempts: number,
  payable: number,
  monitor?: DatabaseHandle["db"],
) {
  const investor = await newInvestor(server.handle.db, clock);
  const funded = addAmounts(String(payable * 100), "34.5");
  await fund(server.handle.db, clock, investor.id, "USDT", funded);
  const started = performance.now();
  const burst = Promise.all(
    Array.from({ length: attempts }, () =>
      timed(() =>
        injectRoute(server, routes.createDeposit, {
          token: investor.token,
          body: { planId: "standard", currency: "USDT", amount: "100" },
        }),
      ),
    ),
  );
  const activity = monitor ? await sampleActivity(monitor, burst) : undefined;
  const results = await burst;
  const duration = performance.now() - started;
  const ok = results.filter((r) => r.value.status === 200);
  const refused = results.filter((r) => r.value.status === 409);
  const seen = activity
    ? `; PostgreSQL saw up to ${activity.busy} connections busy and ${activity.waiting} waiting on a lock (${activity.samples} samples)`
    : "";
  console.log(
    `[kassa] concurrent deposits on ${backend}: ${attempts} attempts, ${ok.length} succeeded, ${refused.length} INSUFFICIENT_FUNDS, ` +
      `${duration.toFixed(0)} ms, at most ${maxInFlight(results)} requests in flight${seen}`,
  );
  if (activity) expect(activity.busy).toBeGreaterThan(1);
  expect(ok).toHaveLength(payable);
  expect(refused).toHaveLength(attempts - payable);
  for (const r of refused) expect(r.value.body).toEqual({ code: "INSUFFICIENT_FUNDS", message: "Not enough funds" });
  expect((await balanceOf(server, investor)).USDT).toBe("34.5");
  const [plans] = await server.handle.db
    .select({ n: count() })
    .from(operations)
    .where(eq(operations.userId, investor.id));
  expect(plans?.n).toBe(payable + 1);
  await expectLedgerConsistent(server.handle.db);
}

/** Exchanges USDT→TON and TON→USDT at once: each pays or is refused, none fails. */
async function concurrentExchanges(server: TestServer, clock: Clock, backend: string, attempts: number) {
  const investor = await newInvestor(server.handle.db, clock);
  await fund(server.handle.db, clock, investor.id, "USDT", "1000");
  await fund(server.handle.db, clock, investor.id, "TON", "200");
  const started = performance.now();
  const results = await Promise.all(
    Array.from({ length: attempts }, (_, i) =>
      timed(() =>
        injectRoute(server, routes.exchange, {
          token: investor.token,
          body: i % 2 === 0 ? { from: "USDT", to: "TON", amount: "10" } : { from: "TON", to: "USDT", amount: "2" },
        }),
      ),
    ),
  );
  const duration = performance.now() - started;
  console.log(
    `[kassa] concurrent exchanges both ways on ${backend}: ${attempts} attempts, ` +
      `${results.filter((r) => r.value.status === 200).length} succeeded, ${duration.toFixed(0)} ms, ` +
      `at most ${maxInFlight(results)} in flight`,
  );
  expect(results.map((r) => r.value.status)).toEqual(Array(attempts).fill(200));
  await expectLedgerConsistent(server.handle.db);
}

/**
 * Deposits started days ago, then two accrual runs at once (each on its own database handle when
 * two are given), day after day: each deposit-day accrued once, the completed deposit paid once.
 */
async function concurrentSchedulers(
  server: TestServer,
  clock: Clock & { advance(ms: number): void },
  second: DatabaseHandle["db"],
  backend: string,
) {
  const db = server.handle.db;
  const investor = await newInvestor(db, clock);
  await fund(db, clock, investor.id, "USDT", "2000");
  const past = (days: number) => ({ db, clock: fixedClock(new Date(clock.now().getTime() - days * DAY)) });
  const running = [];
  for (let i = 0; i < 5; i++) {
    running.push(
      await openDeposit(past(10), investor.id, { planId: "start", currency: "USDT", amount: "100", autoInvest: false }),
    );
  }
  const ending = await openDeposit(past(31), investor.id, {
    planId: "start",
    currency: "USDT",
    amount: "300",
    autoInvest: false,
  });
  const ids = [...running.map((d) => d.id), ending.id];

  const runs: AccrualRun[] = [];
  const started = performance.now();
  for (let round = 0; round < 3; round++) {
    if (round > 0) clock.advance(DAY);
    const only = { userId: investor.id };
    const pair = await Promise.all([runAccruals(db, clock, only), runAccruals(second, clock, only)]);
    runs.push(...pair);
  }
  const duration = performance.now() - started;
  const days = runs.reduce((n, r) => n + r.days, 0);
  const completed = runs.reduce((n, r) => n + r.completed, 0);
  console.log(
    `[kassa] two schedulers at once on ${backend}: 3 rounds, ${days} deposit-days accrued (expected ${5 * 12 + 30}), ` +
      `${completed} completion(s), ${duration.toFixed(0)} ms`,
  );
  expect(runs.flatMap((r) => r.failed)).toEqual([]);
  expect(days).toBe(5 * 12 + 30);
  expect(completed).toBe(1);

  const rows = await db
    .select({ depositId: accruals.depositId, n: count() })
    .from(accruals)
    .where(inArray(accruals.depositId, ids))
    .groupBy(accruals.depositId);
  const perDeposit = Object.fromEntries(rows.map((r) => [r.depositId, r.n]));
  for (const d of running) expect(perDeposit[d.id]).toBe(12);
  expect(perDeposit[ending.id]).toBe(30);

  const paid = await db
    .select({ type: operations.type, amount: operations.amount })
    .from(operations)
    .where(eq(operations.depositId, ending.id));
  expect(paid.map((p) => p.type).sort()).toEqual(["accrual", "deposit_return", "plan"]);
  // 2000 − 5 × 100 − 300 + 300 + 30 × 3
  expect((await balanceOf(server, investor)).USDT).toBe("1590");
  await expectLedgerConsistent(db);
}

/** A close racing the payout of a deposit whose term just ended: paid once, one way or the other. */
async function closeRacesPayout(server: TestServer, clock: Clock, backend: string) {
  const db = server.handle.db;
  const investor = await newInvestor(db, clock);
  await fund(db, clock, investor.id, "USDT", "100");
  const deposit = Deposit.parse(
    await openDeposit({ db, clock: fixedClock(new Date(clock.now().getTime() - 30 * DAY - 1000)) }, investor.id, {
      planId: "start",
      currency: "USDT",
      amount: "100",
      autoInvest: false,
    }),
  );
  const [close] = await Promise.all([
    injectRoute(server, routes.closeDeposit, { token: investor.token, params: { id: deposit.id } }),
    runAccruals(db, clock, { userId: investor.id }),
  ]);
  // Whichever locked the deposit first paid it; the close then finds it completed.
  expect(close.body).toMatchObject({ code: "DEPOSIT_CLOSE_FAILED" });
  expect(["completed", "not_active"]).toContain((close.body.params as { reason: string }).reason);
  expect((await balanceOf(server, investor)).USDT).toBe("130");
  console.log(`[kassa] close racing the payout on ${backend}: paid once (130 USDT), close refused`);
  await expectLedgerConsistent(db);
}

describe("concurrency on PGlite", () => {
  const clock = fixedClock("2026-05-01T09:00:00Z");
  let server: TestServer;

  beforeAll(async () => {
    server = await createTestServer({ clock });
  });

  afterAll(async () => {
    await server?.close();
  });

  it("N deposits at once from a balance that pays K: exactly K succeed", async () => {
    await concurrentDeposits(server, clock, "PGlite", 12, 3);
  });

  it("exchanges both ways at once all complete", async () => {
    await concurrentExchanges(server, clock, "PGlite", 12);
  });

  it("two accrual runs at once accrue each day once and pay once", async () => {
    await concurrentSchedulers(server, clock, server.handle.db, "PGlite");
  });

  it("a close racing the payout pays once", async () => {
    await closeRacesPayout(server, clock, "PGlite");
  });
});

describe.skipIf(!TEST_DATABASE_URL)(
  `concurrency on PostgreSQL${TEST_DATABASE_URL ? "" : ` (skipped: ${POSTGRES_SKIP_REASON})`}`,
  () => {
    const clock = fixedClock("2026-05-01T09:00:00Z");
    let database: Awaited<ReturnType<typeof freshPostgres>>;
    let handle: DatabaseHandle;
    let other: DatabaseHandle;
    let server: TestServer;

    beforeAll(async () => {
      database = await freshPostgres("concurrency");
      // Each handle is a postgres.js pool of 10 connections.
      handle = await openDatabase({ databaseUrl: database.url });
      other = await openDatabase({ databaseUrl: database.url });
      server = await createTestServer({ clock, handle });
    });

    afterAll(async () => {
      await server?.close();
      await other?.close();
      await handle?.close();
      await database?.drop();
    });

    it("N deposits at once from a balance that pays K: exactly K succeed", async () => {
      await concurrentDeposits(server, clock, "PostgreSQL (pool of 10)", 60, 12, other.db);
      await concurrentDeposits(server, clock, "PostgreSQL (pool of 10)", 60, 1, other.db);
    });

    it("exchanges both ways at once all complete without deadlocks", async () => {
      await concurrentExchanges(server, clock, "PostgreSQL (pool of 10)", 40);
    });

    it("two schedulers on two connections accrue each day once and pay once", async () => {
      await concurrentSchedulers(server, clock, other.db, "PostgreSQL (two pools)");
    });

    it("a close racing the payout pays once", async () => {
      await closeRacesPayout(server, clock, "PostgreSQL");
    });
  },
);
