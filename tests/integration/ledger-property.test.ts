/**
 * The ledger invariant under random use (fast-check): after any sequence of refills (confirmed or
 * rejected), deposits opened and closed, exchanges, and accrual runs with the clock moved forward,
 * for every user and currency the balance equals the sum of its operations and is never
 * negative; no call fails with a 500; and every deposit's money adds up (its accrual rows, its
 * held total, what it paid or returned). On PGlite always, on PostgreSQL when TEST_DATABASE_URL
 * is set.
 */
import { CURRENCY_CODES, type Currency, Deposit, money, type Refill, routes } from "@contract";
import { operatorRoutes } from "@contract/operator";
import { eq, inArray } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Clock, fixedClock } from "../../server/src/clock";
import { type DatabaseHandle, openDatabase } from "../../server/src/db/client";
import { accruals, balances, deposits, operations, plans } from "../../server/src/db/schema";
import { runAccruals } from "../../server/src/services/accruals";
import { auditLedger } from "../../server/src/services/ledger";
import { createTestServer, injectRoute, TEST_OPERATOR_TOKEN, type TestServer } from "./helpers";
import {
  addPlan,
  balanceOf,
  expectLedgerConsistent,
  freshPostgres,
  type Investor,
  newInvestor,
  PAYMENT_SYSTEM,
  POSTGRES_SKIP_REASON,
  TEST_DATABASE_URL,
} from "./money";

const HOUR = 3_600_000;

/**
 * Amounts are drawn as a per-mille share of something meaningful at the moment the command runs
 * (the plan's maximum or the balance, a typical refill), with more decimals than any scale, so
 * the sequences reach successful deposits and exchanges as well as refusals (a share above 1000
 * overspends on purpose); `raw` amounts add edge values.
 */
type Command =
  | {
      kind: "refill";
      user: number;
      currency: Currency;
      permille: number;
      confirm: boolean;
      credit: "requested" | "less";
    }
  | { kind: "open"; user: number; plan: keyof typeof PLANS; permille: number; raw: string | null; autoInvest: boolean }
  | { kind: "close"; user: number; pick: number }
  | { kind: "exchange"; user: number; from: Currency; to: Currency; permille: number }
  | { kind: "time"; hours: number };

const PLANS = {
  start: "USDT",
  standard: "USDT",
  "prop-ton": "TON",
  "prop-btc": "BTC",
} as const satisfies Record<string, Currency>;

/** A typical refill per currency. */
const REFILL_BASE: Record<Currency, string> = { USDT: "2500", BTC: "0.05", ETH: "1.5", TON: "600" };

const share = (base: string, permille: number) => money(base).times(permille).div(1000).toFixed(11);

const user = fc.integer({ min: 0, max: 1 });
const currency = fc.constantFrom(...CURRENCY_CODES);
const permille = fc.integer({ min: 0, max: 1250 });

const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("refill" as const),
      user,
      currency,
      permille: fc.integer({ min: 0, max: 1000 }),
      confirm: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
      credit: fc.constantFrom("requested" as const, "less" as const),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("open" as const),
      user,
      plan: fc.constantFrom(...(Object.keys(PLANS) as (keyof typeof PLANS)[])),
      permille,
      raw: fc.oneof(
        { weight: 5, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: fc.constantFrom("10", "100", "1000", "0.01", "0", "-1", "1000.0000001") },
      ),
      autoInvest: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("close" as const), user, pick: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("exchange" as const), user, from: currency, to: currency, permille }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("time" as const), hours: fc.integer({ min: 1, max: 24 * 40 }) }),
  },
);

/** Statuses a call may answer with; anything else (a 500 above all) fails the property. */
const ALLOWED = new Set([
  "200",
  "400:VALIDATION_FAILED",
  "400:DEPOSIT_CLOSE_FAILED",
  "400:DEPOSIT_CREATE_FAILED",
  "409:INSUFFICIENT_FUNDS",
]);

/** What the random sequences did, to show they reach the interesting paths. */
type Tally = Record<string, number>;
const tallyOf = (tally: Tally, key: string) => {
  tally[key] = (tally[key] ?? 0) + 1;
};

async function execute(
  server: TestServer,
  clock: Clock & { advance(ms: number): void },
  users: Investor[],
  opened: Map<number, string[]>,
  cmd: Command,
  tally: Tally,
): Promise<void> {
  if (cmd.kind === "time") {
    clock.advance(cmd.hours * HOUR);
    const run = await runAccruals(server.handle.db, clock);
    expect(run.failed).toEqual([]);
    tally.accrualDays = (tally.accrualDays ?? 0) + run.days;
    tally.completed = (tally.completed ?? 0) + run.completed;
    tally.reinvested = (tally.reinvested ?? 0) + run.reinvested;
    return;
  }
  const token = (users[cmd.user] as Investor).token;
  let res: { status: number; body: Record<string, unknown> };
  switch (cmd.kind) {
    case "refill": {
      const amount = share(REFILL_BASE[cmd.currency], cmd.permille);
      res = await injectRoute(server, routes.createRefill, {
        token,
        body: { paymentSystemId: PAYMENT_SYSTEM[cmd.currency], amount },
      });
      if (res.status === 200) {
        const refill = res.body as Refill;
        const payload =
          cmd.confirm && cmd.credit === "less" ? { amount: money(refill.amountRequested).div(3).toFixed(12) } : {};
        const route = cmd.confirm ? operatorRoutes.confirmRefill : operatorRoutes.rejectRefill;
        const op = await injectRoute(server, route, {
          token: TEST_OPERATOR_TOKEN,
          params: { id: refill.id },
          body: payload,
        });
        // A third of a tiny amount may be zero on the scale: refused, the refill keeps waiting.
        expect([200, 400]).toContain(op.status);
      }
      break;
    }
    case "open": {
      const currency = PLANS[cmd.plan];
      const [plan] = await server.handle.db.select().from(plans).where(eq(plans.id, cmd.plan));
      const balance = (await balanceOf(server, users[cmd.user] as Investor))[currency];
      const cap = money(balance).gt(money(plan?.maxAmount ?? "0")) ? (plan?.maxAmount ?? "0") : balance;
      const amount = cmd.raw ?? share(cap, cmd.permille);
      res = await injectRoute(server, routes.createDeposit, {
        token,
        body: { planId: cmd.plan, currency, amount, autoInvest: cmd.autoInvest },
      });
      if (res.status === 200) {
        const list = opened.get(cmd.user) ?? [];
        list.push(Deposit.parse(res.body).id);
        opened.set(cmd.user, list);
      }
      break;
    }
    case "close": {
      const list = opened.get(cmd.user) ?? [];
      // Sometimes another user's deposit: must be refused.
      const other = opened.get(1 - cmd.user) ?? [];
      const pool = cmd.pick % 4 === 0 && other.length > 0 ? other : list;
      const id = pool[cmd.pick % pool.length] ?? "00000000-0000-4000-8000-000000000000";
      res = await injectRoute(server, routes.closeDeposit, { token, params: { id } });
      if (pool === other && pool.length > 0) expect(res.status).toBe(400);
      break;
    }
    case "exchange": {
      const balance = (await balanceOf(server, users[cmd.user] as Investor))[cmd.from];
      const amount = share(balance, cmd.permille);
      res = await injectRoute(server, routes.exchange, { token, body: { from: cmd.from, to: cmd.to, amount } });
      break;
    }
  }
  const key = res.status === 200 ? "200" : `${res.status}:${String(res.body.code)}`;
  expect(ALLOWED.has(key), `${JSON.stringify(cmd)} → ${key}`).toBe(true);
  tallyOf(tally, `${cmd.kind} ${key}`);
}

/** Each deposit's money adds up: its accrual rows, its held total, and the operations it made. */
async function expectDepositsAddUp(db: DatabaseHandle["db"], userIds: string[]): Promise<void> {
  const rows = await db.select().from(deposits).where(inArray(deposits.userId, userIds));
  for (const d of rows) {
    const days = await db.select({ amount: accruals.amount }).from(accruals).where(eq(accruals.depositId, d.id));
    expect(days).toHaveLength(d.daysAccrued);
    expect(money(d.accruedHeld).eq(money(d.dailyIncome).times(d.daysAccrued))).toBe(true);
    const ops = await db.select().from(operations).where(eq(operations.depositId, d.id));
    const sum = (type: string) => ops.filter((o) => o.type === type).reduce((s, o) => s.plus(o.amount), money(0));
    expect(sum("plan").eq(money(d.amount).neg())).toBe(true);
    if (d.status === "active") {
      expect(ops.map((o) => o.type)).toEqual(["plan"]);
    } else if (d.status === "closed") {
      expect(sum("deposit_return").eq(d.amount)).toBe(true);
      expect(money(d.forfeited ?? "-1").eq(d.accruedHeld)).toBe(true);
      expect(sum("accrual").eq(0)).toBe(true);
    } else {
      expect(d.daysAccrued).toBe(d.durationDays);
      expect(sum("accrual").eq(d.accruedHeld)).toBe(true);
      expect(sum("deposit_return").eq(d.amount)).toBe(true);
      expect(d.returned === null).toBe(d.reinvestedInto !== null);
    }
  }
}

async function ledgerProperty(
  server: TestServer,
  clock: Clock & { advance(ms: number): void },
  numRuns: number,
): Promise<{ commands: number; tally: Tally }> {
  await addPlan(server.handle.db, {
    id: "prop-ton",
    currency: "TON",
    dailyYieldPercent: "0.7",
    durationDays: 7,
    minAmount: "1",
    maxAmount: "500",
  });
  await addPlan(server.handle.db, {
    id: "prop-btc",
    currency: "BTC",
    dailyYieldPercent: "0.33333333",
    durationDays: 5,
    minAmount: "0.0001",
    maxAmount: "2",
  });
  let commands = 0;
  const tally: Tally = {};
  await fc.assert(
    fc.asyncProperty(fc.array(command, { minLength: 5, maxLength: 40 }), async (cmds) => {
      const users = [await newInvestor(server.handle.db, clock), await newInvestor(server.handle.db, clock)];
      const opened = new Map<number, string[]>();
      // Each user starts with some USDT, so deposits and exchanges are reachable early.
      const start: Command[] = [0, 1].map((u) => ({
        kind: "refill",
        user: u,
        currency: "USDT",
        permille: 600,
        confirm: true,
        credit: "requested",
      }));
      for (const cmd of [...start, ...cmds]) {
        await execute(server, clock, users, opened, cmd, tally);
        commands += 1;
        await expectLedgerConsistent(server.handle.db);
      }
      const ids = users.map((u) => u.id);
      await expectDepositsAddUp(server.handle.db, ids);
      // The sequence's investors stop reinvesting, so their deposits end at their terms: later sequences' accrual runs
      // would otherwise carry every earlier sequence's reinvested deposits for ever (work growing with each sequence).
      await server.handle.db.update(deposits).set({ autoInvest: false }).where(inArray(deposits.userId, ids));
    }),
    { numRuns },
  );
  return { commands, tally };
}

function report(backend: string, numRuns: number, result: { commands: number; tally: Tally }, checkReach = true) {
  const tally = Object.entries(result.tally)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}: ${v}`)
    .join(", ");
  console.log(
    `[kassa] ledger property on ${backend}: ${numRuns} random sequences, ${result.commands} commands (${tally})`,
  );
  if (!checkReach) return;
  // The sequences must reach the paths that move money, not only refusals.
  for (const path of ["refill 200", "open 200", "close 200", "exchange 200", "open 409:INSUFFICIENT_FUNDS"]) {
    expect(result.tally[path] ?? 0, path).toBeGreaterThan(0);
  }
  expect(result.tally.completed ?? 0).toBeGreaterThan(0);
}

describe("ledger invariant under random use (PGlite)", () => {
  const clock = fixedClock("2026-05-01T09:00:00Z");
  let server: TestServer;

  beforeAll(async () => {
    server = await createTestServer({ clock });
  });

  afterAll(async () => {
    await server?.close();
  });

  it("keeps balance = Σ operations ≥ 0 and every deposit consistent", { timeout: 900_000 }, async () => {
    report("PGlite", 50, await ledgerProperty(server, clock, 50));
  });

  it("has an audit that finds a balance its operations do not add up to", async () => {
    const broken = await newInvestor(server.handle.db, clock);
    await server.handle.db.insert(balances).values({ userId: broken.id, currency: "TON", amount: "1.5" });
    expect(await auditLedger(server.handle.db)).toEqual([
      { userId: broken.id, currency: "TON", balance: "1.5", operationsSum: "0" },
    ]);
  });
});

describe.skipIf(!TEST_DATABASE_URL)(
  `ledger invariant under random use (PostgreSQL)${TEST_DATABASE_URL ? "" : ` (skipped: ${POSTGRES_SKIP_REASON})`}`,
  () => {
    const clock = fixedClock("2026-05-01T09:00:00Z");
    let database: Awaited<ReturnType<typeof freshPostgres>>;
    let handle: DatabaseHandle;
    let server: TestServer;

    beforeAll(async () => {
      database = await freshPostgres("property");
      handle = await openDatabase({ databaseUrl: database.url });
      server = await createTestServer({ clock, handle });
    });

    afterAll(async () => {
      await server?.close();
      await handle?.close();
      await database?.drop();
    });

    it("keeps balance = Σ operations ≥ 0 and every deposit consistent", { timeout: 900_000 }, async () => {
      // Fewer sequences here: reaching every path is checked on PGlite, where there are more.
      report("PostgreSQL", 20, await ledgerProperty(server, clock, 20), false);
    });
  },
);
