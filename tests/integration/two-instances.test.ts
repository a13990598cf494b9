/**
 * Two API processes on one PostgreSQL database (docs/decisions.md#several-instances): each `tsx server/src/main.ts`
 * with its own memory, port and scheduler (every second), the same DATABASE_URL and CODE_SECRET.
 * - login failures are counted once across both (5 per login and address: 3 on one + 2 on the
 *   other, and the 6th attempt is refused by either);
 * - a code issued by one (password reset, withdrawal) is accepted by the other;
 * - the accruals and the sweeper run under their leases (db/leader.ts): while the test holds a lease
 *   neither process runs that job, once it lets go one of them does, and the work is done once (one
 *   "accruals run" log line across both, each deposit-day once, the ledger consistent);
 * - read-your-writes: a write through one and a read at once through a third whose notifications arrive 500 ms
 *   late (a proxy holds them back), through the app's client: no stale read.
 * Runs when TEST_DATABASE_URL is set (npm test sets it). Figures are printed.
 */

import { type AddressInfo, connect, createServer, type Socket } from "node:net";
import { routes } from "@contract";
import { operatorRoutes } from "@contract/operator";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock, systemClock } from "../../server/src/clock";
import { type DatabaseHandle, openDatabase } from "../../server/src/db/client";
import { LEASES, releaseLease, tryLease } from "../../server/src/db/leader";
import * as schema from "../../server/src/db/schema";
import { DEMO_LOGIN, DEMO_PASSWORD } from "../../server/src/demo/seed";
import { openDeposit } from "../../server/src/services/deposits";
import { updateWallets } from "../../server/src/services/wallets";
import { apiRequest } from "../../src/lib/api-client";
import { spawnBuiltServer } from "../e2e/support/server";
import { TEST_CODE_SECRET, until } from "./helpers";
import {
  expectLedgerConsistent,
  freshPostgres,
  fund,
  newInvestor,
  POSTGRES_SKIP_REASON,
  TEST_DATABASE_URL,
  TRC20_WALLET,
} from "./money";

const DAY = 86_400_000;

interface Instance {
  name: string;
  url: string;
  /** The lines it has logged so far. */
  logs(): string[];
  /** SIGTERM, then SIGKILL after 8 s; the exit code (null when it had to be killed). */
  stop(): Promise<number | null>;
}

async function startInstance(name: string, databaseUrl: string, env: Record<string, string> = {}): Promise<Instance> {
  const server = await spawnBuiltServer({
    ...env,
    DATABASE_URL: databaseUrl,
    CODE_SECRET: TEST_CODE_SECRET,
    STATIC_DIR: "",
    SEED_DEMO: "true",
    TELEGRAM_BOT: "off",
    LOG_LEVEL: "info",
    ACCRUAL_INTERVAL_SECONDS: "1",
    // Every request of the test comes from 127.0.0.1: only the per-login limit is under test.
    RATE_LIMIT_LOGIN_IP: "1000/900",
  });
  await server.ready().catch((error: Error) => {
    throw new Error(`${name} did not start: ${error.message}`);
  });
  return { name, url: server.origin, logs: () => server.lines(), stop: () => server.stop(8000) };
}

async function api(instance: Instance, method: string, path: string, body?: unknown, token?: string) {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${instance.url}/api${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}

async function lastCode(instance: Instance, login: string, purpose: string): Promise<string> {
  const res = await api(instance, "GET", `/dev/outbox?login=${encodeURIComponent(login)}`);
  const entry = (res.body as unknown as { purpose: string; code: string }[]).find((e) => e.purpose === purpose);
  if (!entry) throw new Error(`no ${purpose} code for ${login} in ${instance.name}'s outbox`);
  return entry.code;
}

/** Holds lease `name` (as another instance would) while `during` runs. */
async function holding<T>(handle: DatabaseHandle, name: keyof typeof LEASES, during: () => Promise<T>): Promise<T> {
  const holder = `test-${name}`;
  // Another instance may hold it for a turn under way: taken once that turn ends.
  await until(`the ${name} lease`, () => tryLease(handle.db, LEASES[name], holder, 10 * 60_000, new Date()));
  try {
    return await during();
  } finally {
    await releaseLease(handle.db, LEASES[name], holder);
  }
}

/**
 * A TCP proxy to the PostgreSQL of `target` that passes everything at once except the server's notifications
 * (NotificationResponse, message type "A"), which it hands on `delayMs` later, in their order.
 */
async function lateNotifications(target: URL, delayMs: number): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    client.pipe(upstream);
    let pending = Buffer.alloc(0);
    upstream.on("data", (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      // Whole messages: a type byte, then a length that counts itself.
      while (pending.length >= 5) {
        const size = 1 + pending.readUInt32BE(1);
        if (pending.length < size) break;
        const message = pending.subarray(0, size);
        pending = pending.subarray(size);
        if (message[0] === 0x41) setTimeout(() => client.write(message), delayMs);
        else client.write(message);
      }
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("close", end).on("error", end);
    upstream.on("close", end).on("error", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!TEST_DATABASE_URL)(
  `two API processes on one PostgreSQL${TEST_DATABASE_URL ? "" : ` (skipped: ${POSTGRES_SKIP_REASON})`}`,
  () => {
    let database: Awaited<ReturnType<typeof freshPostgres>>;
    let a: Instance;
    let b: Instance;
    let handle: DatabaseHandle;
    let locker: DatabaseHandle;

    beforeAll(async () => {
      database = await freshPostgres("two");
      // One after the other: the first migrates and seeds, the second finds it done.
      a = await startInstance("A", database.url);
      b = await startInstance("B", database.url);
      handle = await openDatabase({ databaseUrl: database.url, migrate: false });
      locker = await openDatabase({ databaseUrl: database.url, migrate: false });
    }, 180_000);

    afterAll(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
      await handle?.close();
      await locker?.close();
      await database?.drop();
    }, 60_000);

    it("counts login failures once across both", async () => {
      const login = (instance: Instance, password: string) =>
        api(instance, "POST", "/auth/login", { login: DEMO_LOGIN, password });
      for (const [instance, i] of [
        [a, 1],
        [b, 2],
        [a, 3],
        [b, 4],
        [a, 5],
      ] as const) {
        expect((await login(instance, `wrong${i}pass`)).body.code, instance.name).toBe("INVALID_CREDENTIALS");
      }
      const onB = await login(b, DEMO_PASSWORD);
      const onA = await login(a, DEMO_PASSWORD);
      console.log(`[kassa] two instances: 5 wrong logins (A 3, B 2), then B ${onB.status}, A ${onA.status}`);
      expect(onB).toMatchObject({ status: 429, body: { code: "RATE_LIMITED" } });
      expect(onA).toMatchObject({ status: 429, body: { code: "RATE_LIMITED" } });
      const [counter] = await handle.db
        .select()
        .from(schema.rateLimits)
        .where(eq(schema.rateLimits.key, `rl:login-account:127.0.0.1:${DEMO_LOGIN}`));
      expect(counter?.points).toBeGreaterThanOrEqual(5);
    });

    it("counts parallel tries on both at once: never more than the budget gets through", async () => {
      const tries = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          api(i % 2 ? a : b, "POST", "/auth/login", { login: "nobody-parallel", password: `guess${i}pass` }),
        ),
      );
      const statuses = tries.map((t) => t.status);
      const answered = statuses.filter((s) => s === 400).length;
      console.log(
        `[kassa] two instances: 12 parallel wrong logins (6 on each) → ${answered} × 400, ${statuses.filter((s) => s === 429).length} × 429`,
      );
      expect(answered).toBe(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(7);
    });

    it("accepts on one instance a code issued by the other", async () => {
      expect((await api(a, "POST", "/auth/reset-password", { login: DEMO_LOGIN })).status).toBe(200);
      const code = await lastCode(a, DEMO_LOGIN, "password_reset");
      const validated = await api(b, "POST", "/auth/reset-password/validate", { login: DEMO_LOGIN, code });
      console.log(`[kassa] two instances: reset code issued by A, validated by B: ${validated.status}`);
      expect(validated.status).toBe(200);
      expect(validated.body.resetToken).toEqual(expect.any(String));
    });

    it("runs the accruals once, on one instance, and not while another holds its lease", async () => {
      const past = fixedClock(new Date(Date.now() - 3 * DAY - 60_000));
      const investor = await newInvestor(handle.db, past);
      await fund(handle.db, past, investor.id, "USDT", "500");
      const runLines = () => [...a.logs(), ...b.logs()].filter((l) => l.includes('"accruals run"'));
      const before = runLines().length;
      const accrued = async (depositId: string) => {
        const [row] = await handle.db
          .select({ days: schema.deposits.daysAccrued })
          .from(schema.deposits)
          .where(eq(schema.deposits.id, depositId));
        return row?.days ?? 0;
      };

      // Both schedulers tick every second; while the lease is held elsewhere neither accrues. The deposit
      // is opened under the lease too: a turn between opening it and taking the lease would accrue it first.
      const deposit = await holding(locker, "accruals", async () => {
        const opened = await openDeposit({ db: handle.db, clock: past }, investor.id, {
          planId: "start",
          currency: "USDT",
          amount: "100",
          autoInvest: false,
        });
        await sleep(3500);
        expect(await accrued(opened.id)).toBe(0);
        return opened;
      });
      const ms = await until(
        "the accruals after the lease was released",
        async () => (await accrued(deposit.id)) === 3,
      );
      await sleep(2500); // several more turns of both
      const lines = runLines().slice(before);
      const by = lines.map((l) => (a.logs().includes(l) ? "A" : "B"));
      console.log(
        `[kassa] two instances: accruals held 3.5 s by the test (0 days accrued), then 3 days accrued ${ms} ms after release by ${by.join(", ")}; runs logged: ${lines.length}`,
      );
      expect(lines).toHaveLength(1);
      const rows = await handle.db
        .select({ day: schema.accruals.dayIndex })
        .from(schema.accruals)
        .where(eq(schema.accruals.depositId, deposit.id));
      expect(rows.map((r) => r.day).sort()).toEqual([1, 2, 3]);
      await expectLedgerConsistent(handle.db);
    });

    it("takes a withdrawal code issued by one on the other, and sweeps an expired application once", async () => {
      const investor = await newInvestor(handle.db, systemClock);
      await fund(handle.db, systemClock, investor.id, "USDT", "600");
      await openDeposit({ db: handle.db, clock: systemClock }, investor.id, {
        planId: "start",
        currency: "USDT",
        amount: "100",
        autoInvest: false,
      });
      // Stored directly: a new wallet's own code is tested in wallet-code.test.ts.
      await updateWallets({ db: handle.db, clock: systemClock }, investor.id, {
        wallets: [{ paymentSystemId: "usdt-trc20", address: TRC20_WALLET }],
      });
      const apply = (instance: Instance) =>
        api(
          instance,
          "POST",
          "/funds/payments/request",
          { paymentSystemId: "usdt-trc20", amount: "50" },
          investor.token,
        );

      const first = await apply(a);
      expect(first.status).toBe(200);
      const firstId = (first.body.withdrawal as { id: string }).id;
      const code = await lastCode(a, investor.login, "withdrawal");
      const confirmed = await api(
        b,
        "POST",
        "/funds/payments/validate",
        { withdrawalId: firstId, code },
        investor.token,
      );
      expect(confirmed.status).toBe(200);

      const second = await apply(b);
      expect(second.status).toBe(200);
      const secondId = (second.body.withdrawal as { id: string }).id;
      const status = async () => {
        const [row] = await handle.db
          .select({ status: schema.withdrawals.status })
          .from(schema.withdrawals)
          .where(eq(schema.withdrawals.id, secondId));
        return row?.status;
      };
      const returned = () =>
        handle.db
          .select({ id: schema.operations.id })
          .from(schema.operations)
          .where(
            sql`${schema.operations.userId} = ${investor.id} and ${schema.operations.meta}->>'withdrawalId' = ${secondId} and ${schema.operations.meta}->>'reversal' = 'true'`,
          );

      await holding(locker, "sweeper", async () => {
        // Its code runs out (as 10 minutes later).
        const old = new Date(Date.now() - 11 * 60_000);
        await handle.db.update(schema.withdrawals).set({ createdAt: old }).where(eq(schema.withdrawals.id, secondId));
        await handle.db
          .update(schema.verificationCodes)
          .set({ createdAt: old, expiresAt: new Date(old.getTime() + 10 * 60_000) })
          .where(eq(schema.verificationCodes.target, secondId));
        await sleep(3000);
        expect(await status()).toBe("awaiting_code");
      });
      const ms = await until("the sweep after the lease was released", async () => (await status()) === "cancelled");
      await sleep(2500);
      const reversals = await returned();
      console.log(
        `[kassa] two instances: withdrawal code issued by A confirmed on B (${confirmed.status}); expired application held 3 s by the sweeper lease, swept ${ms} ms after release; reversals: ${reversals.length}`,
      );
      expect(reversals).toHaveLength(1);
      await expectLedgerConsistent(handle.db);
    });

    it("shows an investor's own write on the other instance at once, through the app's client: 0 stale reads of 20", async () => {
      // A third instance whose database connections pass a proxy that hands it the database's notifications
      // 500 ms late (a busy listener connection, a slow network): it answers from memory what it has not heard of.
      const proxy = await lateNotifications(new URL(database.url), 500);
      const lateUrl = new URL(database.url);
      lateUrl.port = String(proxy.port);
      const late = await startInstance("C", lateUrl.toString());
      try {
        const investor = await newInvestor(handle.db, systemClock);
        const currencies = ["BTC", "USDT", "ETH", "TON"] as const;
        // The app's one way to the API (src/lib/api-client.ts): it keeps the highest Kassa-Seen a write's reply
        // carried and sends it with the session's later calls.
        const write = (currency: string) =>
          apiRequest({
            method: "POST",
            path: "/user/balance",
            body: { currency },
            token: investor.token,
            baseUrl: `${a.url}/api`,
          });
        const read = async () =>
          (
            (await apiRequest({
              method: "GET",
              path: "/user/balance",
              token: investor.token,
              baseUrl: `${late.url}/api`,
            })) as { currentCurrency: string }
          ).currentCurrency;
        const readBare = async () =>
          (await api(late, "GET", "/user/balance", undefined, investor.token)).body.currentCurrency;
        // The late instance keeps the investor's session and row in memory first.
        expect(await read()).toBe("USDT");
        expect(await read()).toBe("USDT");

        let stale = 0;
        for (let i = 0; i < 20; i++) {
          const currency = currencies[i % currencies.length] as string;
          await write(currency);
          if ((await read()) !== currency) stale++;
        }
        // The same reads without the header: what the late instance answers on its own (a figure; how many of
        // them beat the notification depends on the machine's speed).
        let bare = 0;
        for (let i = 0; i < 20; i++) {
          const currency = currencies[(i + 1) % currencies.length] as string;
          await api(a, "POST", "/user/balance", { currency }, investor.token);
          if ((await readBare()) !== currency) bare++;
        }
        console.log(
          `[kassa] two instances, notifications 500 ms late on the reader: a write on one read at once on the other, ${stale} stale of 20 with Kassa-Seen, ${bare} of 20 without`,
        );
        expect(stale).toBe(0);
      } finally {
        await late.stop();
        await proxy.close();
      }
    });

    it("takes a deposit on a plan the operator has just applied, at once on the instance that applied it", async () => {
      // The instance the operator applies the catalogue through hears the database's notifications 500 ms late: its
      // own kept catalogue must go with its own write, not with the notification.
      const proxy = await lateNotifications(new URL(database.url), 500);
      const lateUrl = new URL(database.url);
      lateUrl.port = String(proxy.port);
      const operatorToken = "two-instances-operator-token";
      const late = await startInstance("C", lateUrl.toString(), { OPERATOR_TOKEN: operatorToken });
      try {
        const investor = await newInvestor(handle.db, systemClock);
        await fund(handle.db, systemClock, investor.id, "USDT", "100");
        const offered = async (instance: Instance) =>
          ((await api(instance, "GET", routes.plansAvailable.path)).body as unknown as { id: string }[]).map(
            (plan) => plan.id,
          );
        const deposit = (instance: Instance, planId: string) =>
          api(instance, "POST", routes.createDeposit.path, { planId, currency: "USDT", amount: "10" }, investor.token);
        // Both keep the plans in memory before the apply (a deposit opened reads them).
        expect(await offered(late)).not.toContain("applied-plan");
        expect(await deposit(late, "start")).toMatchObject({ status: 200 });
        expect(await deposit(a, "start")).toMatchObject({ status: 200 });
        const plan = {
          id: "applied-plan",
          name: { en: "Applied", ru: "Новый", de: "Neu", kk: "Жаңа" },
          currency: "USDT",
          dailyYieldPercent: "1",
          durationDays: 10,
          minAmount: "1",
          maxAmount: "1000",
        };
        const applied = await api(late, "PUT", operatorRoutes.applyCatalog.path, { plans: [plan] }, operatorToken);
        expect(applied.status).toBe(200);
        // At once on the instance that applied it, its notification still on the way.
        expect(await deposit(late, "applied-plan")).toMatchObject({ status: 200, body: { planId: "applied-plan" } });
        // The other instance takes it once it has heard.
        await until("A takes a deposit on the applied plan", async () => {
          const opened = await deposit(a, "applied-plan");
          if (opened.status === 200) return true;
          expect(opened.body.code).toBe("DEPOSIT_CREATE_FAILED");
          return false;
        });
        await expectLedgerConsistent(handle.db);
      } finally {
        await late.stop();
        await proxy.close();
      }
    });

    it("stops one instance cleanly on SIGTERM while the other stays ready", async () => {
      const started = Date.now();
      const code = await b.stop();
      const ms = Date.now() - started;
      console.log(`[kassa] two instances: B stopped on SIGTERM with exit code ${code} in ${ms} ms; A ready after`);
      expect(code).toBe(0);
      expect(b.logs().some((l) => l.includes('"shutting down"'))).toBe(true);
      const ready = await api(a, "GET", "/health/ready");
      expect(ready).toMatchObject({ status: 200, body: { ok: true, database: "up" } });
    });
  },
);
