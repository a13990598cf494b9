/**
 * Bounded work on PostgreSQL: a statement ends at the statement timeout, a request's statements
 * are cancelled when its client goes away, and the database is free again after either (nothing
 * keeps running in pg_stat_activity). Also: the app's connections run without JIT.
 */
import { once } from "node:events";
import type { ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../server/src/app";
import { systemClock } from "../../server/src/clock";
import type { KassaApp } from "../../server/src/context";
import { type DatabaseHandle, openDatabase } from "../../server/src/db/client";
import { runInQueryScope } from "../../server/src/db/query-scope";
import { resultRows } from "../../server/src/db/rows";
import { seedDemo } from "../../server/src/demo/seed";
import { ensureDefaultSettings } from "../../server/src/services/settings";
import { TEST_OPERATOR_TOKEN, testEnv, until } from "./helpers";
import { freshPostgres, newInvestor, POSTGRES_SKIP_REASON, TEST_DATABASE_URL } from "./money";

/** Statements of other sessions still running `pg_sleep` (the slow queries of this file). */
async function sleepers(observer: DatabaseHandle): Promise<number> {
  const result = await observer.db.execute(sql`
    select count(*)::int as n from pg_stat_activity
     where state = 'active' and query like '%pg_sleep%' and pid <> pg_backend_pid()`);
  return Number(resultRows<{ n: number }>(result)[0]?.n ?? 0);
}

/** The app's statement timeout here: long beside the cancellation, short beside the 30 s sleeps. */
const TIMEOUT_MS = 2000;

/** Resolves when the server has seen the response's connection close (at once if it has already). */
function connectionClosed(response: ServerResponse): Promise<void> {
  return response.closed ? Promise.resolve() : once(response, "close").then(() => undefined);
}

describe.skipIf(!TEST_DATABASE_URL)(
  `bounded work${TEST_DATABASE_URL ? "" : ` (skipped: ${POSTGRES_SKIP_REASON})`}`,
  () => {
    let database: Awaited<ReturnType<typeof freshPostgres>>;
    let handle: DatabaseHandle;
    let observer: DatabaseHandle;
    let untimed: DatabaseHandle;
    let app: KassaApp;
    let base: string;
    interface LogLine {
      level: number;
      msg: string;
      url?: string;
      reqId?: string;
    }
    const logs: LogLine[] = [];
    /** What became of the late statements of `/api/test/late` and `/api/test/after-reply`. */
    const outcomes: { late?: string; afterReply?: Promise<string> } = {};
    let lateRequests = 0;
    const statementOutcome = () =>
      handle.db.execute(sql`select 1 as one`).then(
        () => "ran",
        (error: { name?: string; cause?: { name?: string } }) => error.cause?.name ?? error.name ?? "failed",
      );
    const linesAbout = (msg: string) => logs.filter((line) => line.msg.startsWith(msg));

    beforeAll(async () => {
      database = await freshPostgres("bounded");
      handle = await openDatabase({ databaseUrl: database.url, statementTimeoutMs: TIMEOUT_MS });
      observer = await openDatabase({ databaseUrl: database.url, migrate: false });
      untimed = await openDatabase({ databaseUrl: database.url, migrate: false, statementTimeoutMs: 0 });
      await ensureDefaultSettings(handle.db, systemClock);
      await seedDemo(handle.db, systemClock);
      app = await buildApp({
        env: testEnv(),
        db: handle.db,
        // The log lines, to tell an abandoned request from a failed one.
        logger: { level: "info", stream: { write: (line: string) => logs.push(JSON.parse(line) as LogLine) } },
        operatorToken: TEST_OPERATOR_TOKEN,
      });
      // A route that keeps the database busy for 30 s unless its statement is cut.
      app.get("/api/test/slow", async () => {
        await handle.db.execute(sql`select pg_sleep(30)`);
        return { done: true };
      });
      // One whose first statement comes after its client has gone, and one whose statement comes after its reply
      // (as work a request leaves running does): each sends it once the server has seen the connection close (a
      // condition, not a time: on a busy machine a timer can run before the server has read the close).
      app.get("/api/test/late", async (_request, reply) => {
        lateRequests++;
        await connectionClosed(reply.raw);
        outcomes.late = await statementOutcome();
        return { done: true };
      });
      app.get("/api/test/after-reply", async (_request, reply) => {
        outcomes.afterReply = connectionClosed(reply.raw).then(statementOutcome);
        return { done: true };
      });
      // One that sleeps an hour on connections with no statement timeout: only a cancel can free it.
      app.get("/api/test/untimed", async () => {
        await untimed.db.execute(sql`select pg_sleep(3600)`);
        return { done: true };
      });
      await app.listen({ port: 0, host: "127.0.0.1" });
      base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    });

    afterAll(async () => {
      await app?.close();
      await handle?.close();
      await observer?.close();
      await untimed?.close();
      await database?.drop();
    });

    it("runs the app's connections without JIT and with the statement timeout", async () => {
      const result = await handle.db.execute(sql`select current_setting('jit') as jit,
      current_setting('statement_timeout') as timeout`);
      expect(resultRows<{ jit: string; timeout: string }>(result)[0]).toEqual({ jit: "off", timeout: "2s" });
    });

    it("cuts a statement at the statement timeout, and the database is free after", async () => {
      // Cut by the statement timeout (57014 "due to statement timeout"), not by a cancel ("due to user request").
      await expect(handle.db.execute(sql`select pg_sleep(30)`)).rejects.toMatchObject({
        cause: expect.objectContaining({ code: "57014", message: expect.stringMatching(/statement timeout/) }),
      });
      expect(await sleepers(observer)).toBe(0);
      const after = await handle.db.execute(sql`select 1 as one`);
      expect(resultRows<{ one: number }>(after)[0]?.one).toBe(1);
    });

    it("cancels a request's statement when its client goes away", async () => {
      logs.length = 0;
      const client = new AbortController();
      const request = fetch(`${base}/api/test/untimed`, { signal: client.signal }).catch((e: unknown) => e);
      await until("the sleeper running", async () => (await sleepers(observer)) === 1, 60_000);
      client.abort();
      expect(await request).toBeInstanceOf(Error);
      // The statement has no timeout and sleeps an hour: freed only by the cancel (60 s: a ceiling).
      await until("the sleeper gone", async () => (await sleepers(observer)) === 0, 60_000);
      const after = await handle.db.execute(sql`select 1 as one`);
      expect(resultRows<{ one: number }>(after)[0]?.one).toBe(1);
      // Logged as what it is: the client's choice (info), not a failure of the server (error).
      await until("the abandoned request's log line", async () => linesAbout("request abandoned").length === 1, 30_000);
      expect(linesAbout("request abandoned").map((line) => line.level)).toEqual([30]);
      expect(linesAbout("request failed")).toEqual([]);
    });

    it("refuses the statements of a request whose client went away before its first one, not those after a reply", async () => {
      // Answered, then its statement: it runs. (This call also leaves the maintenance switch's setting kept, so the
      // next request sends no statement before its own.)
      const answered = await fetch(`${base}/api/test/after-reply`);
      expect(answered.status).toBe(200);
      await until("the statement after the reply", async () => outcomes.afterReply !== undefined, 30_000);
      expect(await outcomes.afterReply).toBe("ran");
      // Gone before its first statement: that statement is refused.
      const client = new AbortController();
      const request = fetch(`${base}/api/test/late`, { signal: client.signal }).catch((e: unknown) => e);
      // Aborted once the server has the request (the route waits for the close).
      await until("the late request at the server", async () => lateRequests > 0, 30_000);
      client.abort();
      expect(await request).toBeInstanceOf(Error);
      await until("the late statement's outcome", async () => outcomes.late !== undefined, 30_000);
      expect(outcomes.late).toBe("StatementAbandonedError");
    });

    it("keeps serving after clients abandon requests that write in transactions", async () => {
      const investor = await newInvestor(handle.db, systemClock);
      const aborted = Array.from({ length: 40 }, async (_, i) => {
        const client = new AbortController();
        const request = fetch(`${base}/api/funds/refills`, {
          method: "POST",
          headers: { authorization: `Bearer ${investor.token}`, "content-type": "application/json" },
          body: JSON.stringify({ paymentSystemId: "usdt-trc20", amount: "10" }),
          signal: client.signal,
        }).catch(() => null);
        setTimeout(() => client.abort(), i % 8);
        return request;
      });
      await Promise.all(aborted);
      const res = await fetch(`${base}/api/funds/refills`, { headers: { authorization: `Bearer ${investor.token}` } });
      expect(res.status).toBe(200);
      // No abandoned transaction is left holding a connection (and its locks) open.
      await until(
        "no transaction left open",
        async () => {
          const result = await observer.db.execute(sql`
          select count(*)::int as n from pg_stat_activity
           where state like 'idle in transaction%' and pid <> pg_backend_pid()`);
          return Number(resultRows<{ n: number }>(result)[0]?.n) === 0;
        },
        60_000,
      );
    });

    /**
     * Holds advisory lock `key` in a transaction of the untimed connections until the returned function releases it:
     * a statement that asks for the lock waits (up to the statement timeout) until it is cancelled or released.
     */
    async function holdLock(key: number): Promise<() => Promise<void>> {
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked = () => {};
      const held = new Promise<void>((resolve) => {
        locked = resolve;
      });
      const transaction = untimed.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${key})`);
        locked();
        await released;
      });
      await held;
      return async () => {
        release();
        await transaction;
      };
    }

    /** Cancels, once, the statement of another session waiting for lock `key` (as a stray cancel request would). */
    async function cancelWaiterOnce(key: number): Promise<boolean> {
      const pattern = `%pg_advisory_xact_lock(${key})%`;
      const waiting = sql`state = 'active' and wait_event_type = 'Lock' and query like ${pattern}
        and pid <> pg_backend_pid()`;
      await until(
        "the statement waiting for the lock",
        async () => {
          const result = await observer.db.execute(
            sql`select count(*)::int as n from pg_stat_activity where ${waiting}`,
          );
          return Number(resultRows<{ n: number }>(result)[0]?.n) === 1;
        },
        30_000,
      );
      const result = await observer.db.execute(
        sql`select bool_or(pg_cancel_backend(pid)) as cancelled from pg_stat_activity where ${waiting}`,
      );
      return resultRows<{ cancelled: boolean }>(result)[0]?.cancelled === true;
    }

    it("runs a statement again when a cancel meant for the statement before it hits it", async () => {
      // A request still waited for: its scope is not abandoned, so the cancel was not meant for it. The statement waits
      // for a lock the test holds, so the cancel finds it whatever the machine's load; released once cancelled.
      // (A drizzle query starts when it is awaited: `then` here, inside the scope.)
      const release = await holdLock(4101);
      const statement = runInQueryScope(
        () => new AbortController().signal,
        () => handle.db.execute(sql`select pg_advisory_xact_lock(4101), 7 as n`).then((result) => result),
      );
      expect(await cancelWaiterOnce(4101)).toBe(true);
      await release();
      expect(resultRows<{ n: number }>(await statement)[0]?.n).toBe(7);
    });

    it("runs a transaction again from its start when a stray cancel hits it", async () => {
      let runs = 0;
      const release = await holdLock(4102);
      const transaction = runInQueryScope(
        () => new AbortController().signal,
        () =>
          handle.db.transaction(async (tx) => {
            runs++;
            await tx.execute(sql`select pg_advisory_xact_lock(4102)`);
            return "committed";
          }),
      );
      expect(await cancelWaiterOnce(4102)).toBe(true);
      await release();
      expect(await transaction).toBe("committed");
      expect(runs).toBe(2);
    });

    it("answers a request whose statement timed out with an error, and stays free", async () => {
      const res = await fetch(`${base}/api/test/slow`);
      expect(res.status).toBe(500);
      expect(await sleepers(observer)).toBe(0);
      // A statement that ran out of time with its client still there is a failure, logged as one, with the timeout
      // as its cause. Only this request's lines (its id, which the reply names): a request an earlier test abandoned
      // may still be logging; in a whole run at load ~10 another request's "abandoned" came while this one ran.
      const id = res.headers.get("x-request-id");
      const ofThisRequest = (msg: string) => linesAbout(msg).filter((line) => line.reqId === id);
      expect(ofThisRequest("request failed").map((line) => line.level)).toEqual([50]);
      expect(JSON.stringify(ofThisRequest("request failed")[0])).toMatch(/statement timeout/);
      expect(ofThisRequest("request abandoned")).toEqual([]);
    });
  },
);
