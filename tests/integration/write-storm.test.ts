/**
 * A storm of money writes on PostgreSQL, over real sockets, with the app's pool of connections:
 * many deposits and refills of one investor (and of a few) at once, each with its Idempotency-Key,
 * some of their clients giving up mid-flight as a load generator does at the end of a run. Every
 * request that was waited for gets an answer within a bound, and afterwards the instance still
 * answers: `/api/health`, an authenticated read, a new write.
 *
 * It hung before: a statement a request started after its client had gone (the key's reply stored
 * after the deposit's transaction) was cancelled before postgres.js had sent it, and postgres.js
 * then parked the connection it handed that statement to as "full" for good; after ten of them
 * every query of the instance waited forever (db/query-scope.ts).
 *
 * And no wait of the app's connections is unbounded (and a statement costs one round trip, as a
 * prepared statement of its connection): a write waiting for a row another
 * transaction holds gives up at the lock timeout with 503 BUSY (and Retry-After), and a
 * transaction left idle is ended by PostgreSQL, its connection back in the pool.
 */
import type { AddressInfo } from "node:net";
import { money, routes } from "@contract";
import { operatorRoutes } from "@contract/operator";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { systemClock } from "../../server/src/clock";
import { type DatabaseHandle, openDatabase } from "../../server/src/db/client";
import { runExclusive, tryLease } from "../../server/src/db/leader";
import { createRefill } from "../../server/src/services/refills";
import {
  callRoute,
  createTestServer,
  injectRoute,
  TEST_CODE_SECRET,
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
  TEST_DATABASE_URL,
} from "./money";

/**
 * A generous ceiling on waiting for an answer: a request not answered by then counts as unanswered (a
 * server that holds requests, not a slow machine; the answer times are printed, not asserted).
 */
const ANSWER_WITHIN_MS = 60_000;

interface Outcome {
  status: number;
  code?: string;
  ms: number;
}

/** A step of a test that another waits for: `opened` settles once `open()` is called. */
function gate(): { open: () => void; opened: Promise<void> } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe.skipIf(!TEST_DATABASE_URL)(
  `write storm${TEST_DATABASE_URL ? "" : ` (skipped: ${POSTGRES_SKIP_REASON})`}`,
  () => {
    let database: Awaited<ReturnType<typeof freshPostgres>>;
    let server: TestServer;
    let base: string;

    beforeAll(async () => {
      database = await freshPostgres("storm");
      server = await createTestServer({
        // Every client here comes from one address: the per-address cap on open connections (64)
        // would close the storm's sockets before the server ever saw their requests.
        env: { DATABASE_URL: database.url, CODE_SECRET: TEST_CODE_SECRET, MAX_CONNECTIONS_PER_ADDRESS: "1000" },
      });
      await server.app.listen({ port: 0, host: "127.0.0.1" });
      base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}/api`;
    });

    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    /** One call over a socket; `giveUpAfterMs` closes it early (then null: nobody saw the answer). */
    async function send(
      investor: Investor,
      method: "GET" | "POST",
      path: string,
      body?: unknown,
      options: { key?: string; giveUpAfterMs?: number } = {},
    ): Promise<Outcome | null> {
      const started = Date.now();
      const headers: Record<string, string> = { authorization: `Bearer ${investor.token}` };
      if (body !== undefined) {
        headers["content-type"] = "application/json";
        headers["idempotency-key"] = options.key ?? newKey();
      }
      try {
        const res = await fetch(`${base}${path}`, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(options.giveUpAfterMs ?? ANSWER_WITHIN_MS),
        });
        const reply = (await res.json()) as { code?: string };
        return { status: res.status, code: reply.code, ms: Date.now() - started };
      } catch (error) {
        if (options.giveUpAfterMs !== undefined) return null; // abandoned on purpose
        const cause = (error as { cause?: unknown }).cause;
        return { status: 0, code: `${String(error)} (${String(cause)})`, ms: Date.now() - started };
      }
    }

    const deposit = { planId: "start", currency: "USDT", amount: "10" };
    let keys = 0;
    const newKey = () => `storm-${process.pid}-${++keys}`;
    const refill = { paymentSystemId: "usdt-trc20", amount: "50" };

    interface Abandoned {
      investor: Investor;
      path: string;
      body: unknown;
      key: string;
    }

    /**
     * `n` deposits and `n` refills of each investor at once, each with its own key; every other
     * client gives up after 20-120 ms. The answers waited for, and the calls given up.
     */
    async function storm(investors: Investor[], n: number): Promise<{ answered: Outcome[]; abandoned: Abandoned[] }> {
      const calls: Promise<Outcome | null>[] = [];
      const abandoned: Abandoned[] = [];
      for (const investor of investors) {
        for (let i = 0; i < n; i++) {
          for (const [path, body] of [
            ["/funds/deposits", deposit],
            ["/funds/refills", refill],
          ] as const) {
            const key = newKey();
            if (i % 2 === 0) {
              abandoned.push({ investor, path, body, key });
              calls.push(send(investor, "POST", path, body, { key, giveUpAfterMs: 20 + ((i * 7) % 100) }));
            } else calls.push(send(investor, "POST", path, body, { key }));
          }
        }
      }
      const answered = (await Promise.all(calls)).filter((outcome): outcome is Outcome => outcome !== null);
      report(answered);
      return { answered, abandoned };
    }

    /**
     * A client that gave up sends its call again with the same key, as the app does after a
     * dropped connection: once the first run has ended it gets that run's reply, or a new run
     * when the first one changed nothing. Never a key stuck "in flight".
     */
    async function expectRetriesSettle(abandoned: Abandoned[]): Promise<void> {
      const started = Date.now();
      for (const call of abandoned) {
        let outcome = await send(call.investor, "POST", call.path, call.body, { key: call.key });
        while (outcome?.code === "IDEMPOTENCY_IN_FLIGHT" && Date.now() - started < ANSWER_WITHIN_MS) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          outcome = await send(call.investor, "POST", call.path, call.body, { key: call.key });
        }
        expect(outcome?.code).not.toBe("IDEMPOTENCY_IN_FLIGHT");
        expect(outcome?.status).toBeGreaterThan(0);
        expect(outcome?.status).toBeLessThan(500);
      }
    }

    /** Health, an authenticated read and a new write, each answered well within the bound. */
    async function expectStillAnswering(investor: Investor): Promise<void> {
      const health = await fetch(`${base}/health`, { signal: AbortSignal.timeout(3000) });
      expect(health.status).toBe(200);
      for (const [method, path, body] of [
        ["GET", "/user/me", undefined],
        ["GET", "/funds/deposits", undefined],
        ["POST", "/funds/deposits", deposit],
      ] as const) {
        const outcome = await send(investor, method, path, body);
        expect({ path, status: outcome?.status }).toEqual({ path, status: 200 });
      }
    }

    /** The answer times and statuses of a storm, printed (not asserted: a shared machine's times vary). */
    function report(outcomes: Outcome[]): void {
      const times = outcomes.map((o) => o.ms).sort((a, b) => a - b);
      const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
      const statuses: Record<string, number> = {};
      for (const o of outcomes) {
        const label = o.code ? `${o.status} ${o.code}` : String(o.status);
        statuses[label] = (statuses[label] ?? 0) + 1;
      }
      console.log(
        `storm: ${outcomes.length} answered; median ${at(0.5)} ms, 90th ${at(0.9)} ms, slowest ${at(1)} ms;`,
        JSON.stringify(statuses),
      );
    }

    /** Every waited-for request answered in time, none of them with a server fault. */
    function expectAnswered(outcomes: Outcome[]): void {
      const unanswered = outcomes.filter((o) => o.status === 0);
      expect(unanswered).toEqual([]);
      // Refused by a rule (the waiting refills' cap, a key still in flight) is an answer; a fault is not.
      const faults = outcomes.filter((o) => o.status >= 500);
      expect(faults).toEqual([]);
    }

    it("answers 32 deposits and 32 refills of one investor at once, clients leaving mid-flight", async () => {
      const { db } = server.handle;
      const investor = await newInvestor(db, systemClock);
      await fund(db, systemClock, investor.id, "USDT", "100000");
      const first = await storm([investor], 32);
      expectAnswered(first.answered);
      await expectStillAnswering(investor);
      await expectRetriesSettle(first.abandoned);
      // A second storm on the same instance: nothing the first one left behind holds it.
      const second = await storm([investor], 32);
      expectAnswered(second.answered);
      await expectStillAnswering(investor);
      await expectLedgerConsistent(db);
    }, 60_000);

    it("answers the writes of a few investors at once, clients leaving mid-flight", async () => {
      const { db } = server.handle;
      const investors = await Promise.all(Array.from({ length: 4 }, () => newInvestor(db, systemClock)));
      for (const investor of investors) await fund(db, systemClock, investor.id, "USDT", "100000");
      const { answered, abandoned } = await storm(investors, 12);
      expectAnswered(answered);
      for (const investor of investors) await expectStillAnswering(investor);
      await expectRetriesSettle(abandoned);
      await expectLedgerConsistent(db);
    }, 60_000);
  },
);

describe.skipIf(!TEST_DATABASE_URL)(
  `bounded waits${TEST_DATABASE_URL ? "" : ` (skipped: ${POSTGRES_SKIP_REASON})`}`,
  () => {
    const LOCK_TIMEOUT_MS = 400;
    const IDLE_IN_TRANSACTION_MS = 400;
    let database: Awaited<ReturnType<typeof freshPostgres>>;
    let handle: DatabaseHandle;
    let server: TestServer;
    let other: postgres.Sql;

    beforeAll(async () => {
      database = await freshPostgres("bounds");
      handle = await openDatabase({
        databaseUrl: database.url,
        lockTimeoutMs: LOCK_TIMEOUT_MS,
        idleInTransactionMs: IDLE_IN_TRANSACTION_MS,
      });
      server = await createTestServer({
        handle,
        env: { DATABASE_URL: database.url, CODE_SECRET: TEST_CODE_SECRET },
      });
      // Another session (an operator's SQL, another instance), holding rows the app needs.
      other = postgres(database.url, { max: 1, onnotice: () => {} });
    });

    afterAll(async () => {
      await other?.end({ timeout: 1 });
      await server?.close();
      await handle?.close();
      await database?.drop();
    });

    it("answers 503 BUSY with Retry-After when a row stays locked past the lock timeout, and runs once it is free", async () => {
      const investor = await newInvestor(handle.db, systemClock);
      const released = gate();
      const locked = gate();
      const holder = other.begin(async (tx) => {
        await tx`select id from users where id = ${investor.id} for update`;
        locked.open();
        await released.opened;
      });
      await locked.opened;
      const body = { paymentSystemId: "usdt-trc20", amount: "50" };
      const refused = await injectRoute(server, routes.createRefill, { token: investor.token, body });
      released.open();
      await holder;
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({ code: "BUSY", message: "An error occurred, try again later" });
      expect(refused.headers["retry-after"]).toBe("1");
      // Refused by the lock timeout while the row was still held (released only after the answer): BUSY is what the
      // server answers for that (SQLSTATE 55P03, server/src/errors.ts) and for nothing else a refill may meet.
      // Nothing of the refused call was kept; the same call runs now that the row is free.
      const again = await injectRoute(server, routes.createRefill, { token: investor.token, body });
      expect(again.status).toBe(200);
      // The refill as created reads as the stored one.
      expect(again.body).toMatchObject({ status: "waiting", currency: "USDT", amountRequested: "50", txHash: null });
      const stored = await injectRoute(server, routes.refill, {
        token: investor.token,
        params: { id: String(again.body.id) },
      });
      expect(stored.body).toEqual(again.body);
      const list = await injectRoute(server, routes.refills, { token: investor.token, query: {} });
      expect((list.body as { total: number }).total).toBe(1);
    });

    it("ends a transaction left idle, frees its rows, and the pool answers after", async () => {
      const investor = await newInvestor(handle.db, systemClock);
      const stuck = handle.db.transaction(async (tx) => {
        await tx.execute(sql`select id from users where id = ${investor.id} for update`);
        await new Promise((resolve) => setTimeout(resolve, IDLE_IN_TRANSACTION_MS * 4));
        await tx.execute(sql`select 1`);
      });
      await expect(stuck).rejects.toThrow();
      // The row is free again: another session takes it at once.
      const [row] = await other`select id from users where id = ${investor.id} for update nowait`;
      expect(row?.id).toBe(investor.id);
      const res = await injectRoute(server, routes.currentUser, { token: investor.token });
      expect(res.status).toBe(200);
    });

    it("runs the app's statements as prepared statements of their connection, planned with their values", async () => {
      // A statement sees its own connection's prepared statements, itself among them once named.
      const mine = sql`select count(*)::int as n, current_setting('plan_cache_mode') as mode
        from pg_prepared_statements where statement like ${"%pg_prepared_statements%"}`;
      const outside = (await handle.db.execute(mine)) as unknown as { n: number; mode: string }[];
      expect(outside[0]).toEqual({ n: 1, mode: "force_custom_plan" });
      const inside = (await handle.db.transaction((tx) => tx.execute(mine))) as unknown as { n: number }[];
      expect(inside[0]?.n).toBe(1);
    });

    it("keeps a job's lease while its work runs past the lease's time to live; a killed holder's is taken over", async () => {
      const ttlMs = 300;
      const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      const run = (value: string) => runExclusive(handle.db, "postgres", "test-job", async () => value, { ttlMs });
      const work = () => new Promise<string>((resolve) => setTimeout(resolve, ttlMs * 4, "done"));
      const first = runExclusive(handle.db, "postgres", "test-job", work, { ttlMs });
      await wait(ttlMs * 2);
      // Renewed while the work runs: not taken over, although its first term has passed.
      expect(await run("again")).toEqual({ ran: false });
      expect(await first).toEqual({ ran: true, value: "done" });
      // Given up when the work ended: the next run takes it at once.
      expect(await run("next")).toEqual({ ran: true, value: "next" });
      // A holder killed mid-run (kill -9) renews it no more: taken over once it has expired.
      expect(await tryLease(handle.db, "test-job", "killed", ttlMs, new Date())).toBe(true);
      expect(await run("too soon")).toEqual({ ran: false });
      await wait(ttlMs + 100);
      expect(await run("taken over")).toEqual({ ran: true, value: "taken over" });
    });
  },
);

describe.skipIf(!TEST_DATABASE_URL)(
  `a deadlock's victim${TEST_DATABASE_URL ? "" : ` (skipped: ${POSTGRES_SKIP_REASON})`}`,
  () => {
    let database: Awaited<ReturnType<typeof freshPostgres>>;
    let handle: DatabaseHandle;
    let server: TestServer;
    /** Another session (an operator's SQL, another instance's transaction killed in the middle). */
    let other: postgres.Sql;
    let watcher: postgres.Sql;
    /** The operator's confirm of the refill `id`, with the amount it asked for. */
    const confirmRefill = (id: string) =>
      injectRoute(server, operatorRoutes.confirmRefill, { token: TEST_OPERATOR_TOKEN, params: { id }, body: {} });
    /** An investor holding 100 USDT with a refill of 60 USDT waiting for the operator. */
    const investorWithWaitingRefill = async () => {
      const { db } = handle;
      const investor = await newInvestor(db, systemClock);
      await fund(db, systemClock, investor.id, "USDT", "100");
      const waiting = await createRefill({ db, clock: systemClock }, investor.id, {
        paymentSystemId: "usdt-trc20",
        amount: "60",
      });
      return { investor, waiting };
    };
    /** Waits until `n` of the database's sessions wait for a lock (the calls queued where the test means). */
    const waitersAre = (n: number) =>
      vi.waitFor(
        async () => {
          const [row] = await watcher`select count(*)::int as waiting from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock'`;
          expect(row?.waiting).toBe(n);
        },
        { timeout: 60_000, interval: 20 },
      );

    beforeAll(async () => {
      database = await freshPostgres("deadlock");
      other = postgres(database.url, { max: 1, onnotice: () => {} });
      watcher = postgres(database.url, { max: 1, onnotice: () => {} });
      // The app's sessions check for a deadlock 3 s into a wait (PostgreSQL's default is 1 s: room for a busy
      // machine to close the circle first), and wait for a lock without a timeout: only the deadlock check can end
      // the confirm's wait, so a refusal here is a deadlock's and not the lock timeout's (55P03, answered BUSY too).
      await other.unsafe(`alter database "${new URL(database.url).pathname.slice(1)}" set deadlock_timeout = '3s'`);
      handle = await openDatabase({ databaseUrl: database.url, lockTimeoutMs: 0 });
      server = await createTestServer({ handle, env: { DATABASE_URL: database.url, CODE_SECRET: TEST_CODE_SECRET } });
    });

    afterAll(async () => {
      await Promise.all([other?.end({ timeout: 1 }), watcher?.end({ timeout: 1 })]);
      await server?.close();
      await handle?.close();
      await database?.drop();
    });

    it("answers the request PostgreSQL rolls back as a deadlock's victim 503 BUSY with Retry-After, keeps nothing of it, and the same call runs after", async () => {
      const { db } = handle;
      const { investor, waiting } = await investorWithWaitingRefill();
      const confirmWaits = gate();
      const held = gate();
      // The other session holds the investor's USDT balance; the operator's confirm locks the refill, then waits for
      // that balance; the other session then asks for the refill: each waits for the other. The other session checks
      // for a deadlock only after a minute, so the confirm's check finds the circle and it is rolled back.
      const holder = other.begin(async (tx) => {
        await tx`set local deadlock_timeout = '60s'`;
        await tx`select amount from balances where user_id = ${investor.id} and currency = 'USDT' for update`;
        held.open();
        await confirmWaits.opened;
        await tx`select id from refills where id = ${waiting.id} for update`;
      });
      await held.opened;
      const confirm = confirmRefill(waiting.id);
      await waitersAre(1);
      confirmWaits.open();
      const refused = await confirm;
      await holder;
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({ code: "BUSY", message: "An error occurred, try again later" });
      expect(refused.headers["retry-after"]).toBe("1");
      // Nothing of the refused confirm was kept: the refill still waits and the balance is as it was.
      expect(await balanceOf(server, investor)).toMatchObject({ USDT: "100" });
      const again = await confirmRefill(waiting.id);
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ status: "replenished", amountCredited: "60" });
      expect(await balanceOf(server, investor)).toMatchObject({ USDT: "160" });
      await expectLedgerConsistent(db);
    }, 120_000);

    it("lets an operator's confirm and the investor's own money call meet on one balance without a deadlock: the user's row is taken for no key update, which the ledger's foreign keys never wait on", async () => {
      const { db } = handle;
      const { investor, waiting } = await investorWithWaitingRefill();
      const option = (await callRoute(server, "subscriptionOptions")).find((o) => o.currency === "USDT");
      if (!option) throw new Error("no USDT subscription option");
      // The other session holds the USDT balance, so both calls queue on it in a known order: first the confirm
      // (it holds the refill), then the subscription (it holds the user's row). The balance freed, the confirm
      // credits it and records its operation, whose foreign key takes a key share of the user's row; the
      // subscription waits for the balance. With the user's row locked `for update` that share waited for the
      // subscription: each waited for the other, and one was rolled back (503 BUSY).
      const released = gate();
      const held = gate();
      const holder = other.begin(async (tx) => {
        await tx`select amount from balances where user_id = ${investor.id} and currency = 'USDT' for update`;
        held.open();
        await released.opened;
      });
      await held.opened;
      const confirm = confirmRefill(waiting.id);
      await waitersAre(1);
      const subscribe = injectRoute(server, routes.subscribe, {
        token: investor.token,
        body: { optionId: option.id },
      });
      await waitersAre(2);
      released.open();
      await holder;
      const [confirmed, subscribed] = await Promise.all([confirm, subscribe]);
      expect([confirmed.status, subscribed.status]).toEqual([200, 200]);
      expect(await balanceOf(server, investor)).toMatchObject({ USDT: money("160").minus(option.price).toString() });
      await expectLedgerConsistent(db);
    }, 120_000);
  },
);
