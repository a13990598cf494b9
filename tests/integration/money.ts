/**
 * Helpers of the money tests: investors without the sign-in ceremony (a user row and a session),
 * funding through the real refill services, plans in any currency, the ledger invariant, and a
 * disposable PostgreSQL database per test file.
 */
import { randomUUID } from "node:crypto";
import { type Currency, routes } from "@contract";
import { operatorRoutes } from "@contract/operator";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, inject } from "vitest";
import { type Clock, systemClock } from "../../server/src/clock";
import { keptOf } from "../../server/src/db/change-feed";
import { type DatabaseHandle, openDatabase } from "../../server/src/db/client";
import * as schema from "../../server/src/db/schema";
import { openDeposit } from "../../server/src/services/deposits";
import { auditLedger } from "../../server/src/services/ledger";
import { confirmRefill, createRefill } from "../../server/src/services/refills";
import { createSession } from "../../server/src/services/sessions";
import { callRoute, createTestServer, injectRoute, lastCode, TEST_OPERATOR_TOKEN, type TestServer } from "./helpers";

export interface Investor {
  id: string;
  login: string;
  token: string;
}

/** The payment system each currency is refilled through in the demo data. */
export const PAYMENT_SYSTEM: Record<Currency, string> = { USDT: "usdt-trc20", BTC: "btc", ETH: "eth", TON: "ton" };

let made = 0;

/** A new investor (invited by the house account) with a live session. */
export async function newInvestor(db: DatabaseHandle["db"], clock: Clock): Promise<Investor> {
  made += 1;
  const login = `inv${process.pid % 10_000}x${made}x${randomUUID().slice(0, 6)}`;
  const [house] = await db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.login, "kassa"));
  const [row] = await db
    .insert(schema.users)
    .values({ login, fullName: "Money Test", language: "en", inviterId: house?.id ?? null, createdAt: clock.now() })
    .returning({ id: schema.users.id });
  if (!row) throw new Error("user not created");
  const token = await createSession(db, clock, { userId: row.id, ttlDays: 3650 });
  return { id: row.id, login, token };
}

/**
 * The money tests' start, called in a describe: before its tests a test server on `clock` and two new investors in it
 * (alice first), handed to `use`; the server closed after its tests. Further set-up goes in a beforeAll after it.
 */
export function serverWithTwoInvestors(
  clock: Clock,
  use: (made: { server: TestServer; alice: Investor; bob: Investor }) => void,
): void {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await createTestServer({ clock });
    use({ server, alice: await newInvestor(server.handle.db, clock), bob: await newInvestor(server.handle.db, clock) });
  });
  afterAll(async () => {
    await server?.close();
  });
}

/** Credits `amount` through a refill the operator confirms (so the ledger holds). */
export async function fund(
  db: DatabaseHandle["db"],
  clock: Clock,
  userId: string,
  currency: Currency,
  amount: string,
): Promise<void> {
  const refill = await createRefill({ db, clock }, userId, { paymentSystemId: PAYMENT_SYSTEM[currency], amount });
  await confirmRefill({ db, clock }, refill.id);
}

/** A plan for tests (any currency, any terms); returns its id. */
export async function addPlan(
  db: DatabaseHandle["db"],
  plan: {
    id: string;
    currency: Currency;
    dailyYieldPercent: string;
    durationDays: number;
    minAmount: string;
    maxAmount: string;
  },
): Promise<string> {
  await db
    .insert(schema.plans)
    .values({ ...plan, name: { en: plan.id, ru: plan.id, de: plan.id, kk: plan.id }, active: true, sort: 100 })
    .onConflictDoNothing();
  // As a write of the server's own process: its kept catalogue goes now, not when the notification comes.
  keptOf(db)?.feed.changing("catalog");
  return plan.id;
}

export async function balanceOf(server: Pick<TestServer, "app">, investor: Investor) {
  const res = await callRoute(server, "balance", { token: investor.token });
  return res.currencies as Record<Currency, string>;
}

/** The invariant: every balance equals the sum of its operations, and none is negative. */
export async function expectLedgerConsistent(db: DatabaseHandle["db"]): Promise<void> {
  expect(await auditLedger(db)).toEqual([]);
  const [negative] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(schema.balances)
    .where(sql`${schema.balances.amount} < 0`);
  expect(negative?.n).toBe(0);
}

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
export const POSTGRES_SKIP_REASON = "set TEST_DATABASE_URL to a disposable PostgreSQL database to run (npm test does)";

/**
 * A fresh database beside TEST_DATABASE_URL's (test files run in parallel, and postgres.test.ts
 * drops its schema): a copy of the run's migrated template (tests/integration/global-setup.ts), so
 * opening it finds every migration applied; without a template, an empty one that opening migrates.
 * `drop()` removes it.
 */
export async function freshPostgres(name: string): Promise<{ url: string; drop(): Promise<void> }> {
  if (!TEST_DATABASE_URL) throw new Error("TEST_DATABASE_URL is not set");
  const database = `kassa_${name}_${process.pid}`;
  const template = inject("postgresTemplate");
  const admin = await openDatabase({ databaseUrl: TEST_DATABASE_URL, migrate: false });
  try {
    await admin.db.execute(sql.raw(`drop database if exists ${database} with (force)`));
    await admin.db.execute(sql.raw(`create database ${database}${template ? ` template ${template.database}` : ""}`));
  } finally {
    await admin.close();
  }
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${database}`;
  return {
    url: url.toString(),
    drop: async () => {
      const again = await openDatabase({ databaseUrl: TEST_DATABASE_URL, migrate: false });
      try {
        await again.db.execute(sql.raw(`drop database if exists ${database} with (force)`));
      } finally {
        await again.close();
      }
    },
  };
}

/**
 * Saves withdrawal wallets as the app does: `PATCH /user-data/wallets/update`, and when a new or
 * changed address asks for a code, the same call again with the code from the development outbox.
 * Returns the stored wallets; a refusal throws with its status and body.
 */
export async function saveWallets(
  server: TestServer,
  investor: Investor,
  wallets: { paymentSystemId: string; address: string }[],
): Promise<{ paymentSystemId: string; address: string }[]> {
  let res = await injectRoute(server, routes.updateWallets, { token: investor.token, body: { wallets } });
  if (res.status === 200 && res.body.walletCode) {
    const code = await lastCode(server, investor.login, "wallet");
    res = await injectRoute(server, routes.updateWallets, { token: investor.token, body: { wallets, code } });
  }
  if (res.status !== 200) throw new Error(`wallets: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.wallets as { paymentSystemId: string; address: string }[];
}

/** A valid TRC20 address for withdrawal tests. */
export const TRC20_WALLET = "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE";

/**
 * An investor who may withdraw (a prior top-up and a deposit, docs/cabinet-rules.md#access): a USDT wallet, 600 USDT
 * credited, 100 of it on a deposit — 500 available.
 */
export async function withdrawalReadyInvestor(server: TestServer, clock: Clock): Promise<Investor> {
  const investor = await newInvestor(server.handle.db, clock);
  await saveWallets(server, investor, [{ paymentSystemId: "usdt-trc20", address: TRC20_WALLET }]);
  await fund(server.handle.db, clock, investor.id, "USDT", "600");
  await openDeposit({ db: server.handle.db, clock }, investor.id, {
    planId: "start",
    currency: "USDT",
    amount: "100",
    autoInvest: false,
  });
  return investor;
}

/**
 * A pending 20 USDT withdrawal (TRC-20, no fee) of `userId`, written straight into the table: the start of a test
 * about what its moves tell (notices, inbox), not about the request. Fund the balance first.
 */
export async function pendingWithdrawal(db: DatabaseHandle["db"], userId: string) {
  const [row] = await db
    .insert(schema.withdrawals)
    .values({
      userId,
      paymentSystemId: "usdt-trc20",
      currency: "USDT",
      network: "TRC20",
      wallet: "TXYZ",
      amount: "20",
      fee: "0",
      amountToReceive: "20",
      status: "pending",
      createdAt: new Date(),
    })
    .returning();
  if (!row) throw new Error("the withdrawal was not written");
  return row;
}

/**
 * A withdrawal of `userId` the operator marks paid: 100 USDT funded, a pendingWithdrawal, and the operator's
 * "success" with a transaction hash; gives the operator's reply. The start of a test about what "paid" tells.
 */
export async function paidWithdrawal(server: TestServer, userId: string) {
  await fund(server.handle.db, systemClock, userId, "USDT", "100");
  const row = await pendingWithdrawal(server.handle.db, userId);
  return injectRoute(server, operatorRoutes.processWithdrawal, {
    token: TEST_OPERATOR_TOKEN,
    params: { id: row.id, action: "success" },
    body: { txHash: "0xabcdef0123456789" },
  });
}
