/**
 * What the server keeps in memory (settings and the maintenance flag, sessions, pulses, balances with the current
 * currency, users' rows) follows the database: after a change written anywhere — through another instance, or by
 * plain SQL — the next answer shows it. On PGlite at once; with two instances on one PostgreSQL, the other
 * instance within the notification's delivery (polled here, with a generous ceiling).
 */

import { BalanceReply } from "@contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { systemClock } from "../../server/src/clock";
import { type JsonSlot, keptOf, REPLY_JSON } from "../../server/src/db/change-feed";
import { type DatabaseHandle, openDatabase } from "../../server/src/db/client";
import * as schema from "../../server/src/db/schema";
import { replySerializerCompiler } from "../../server/src/routes/reply-json";
import { getBalance } from "../../server/src/services/balance";
import { pulse } from "../../server/src/services/notifications";
import { findLiveSession } from "../../server/src/services/sessions";
import { getSetting, setMaintenance } from "../../server/src/services/settings";
import { call, createTestServer, type TestServer, until } from "./helpers";
import { freshPostgres, fund, newInvestor, POSTGRES_SKIP_REASON, TEST_DATABASE_URL } from "./money";

const status = async (server: TestServer, url: string, token: string) =>
  (await call(server, "GET", url, undefined, { token })).status;
const usdt = async (server: TestServer, token: string) =>
  ((await call(server, "GET", "/user/balance", undefined, { token })).body.currencies as Record<string, string>).USDT;
const version = async (server: TestServer, token: string) =>
  (await call(server, "GET", "/user/pulse", undefined, { token })).body.version;

describe("kept in memory, on PGlite", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it("sees a session revoked, maintenance switched, an operation written by plain SQL and a refill at once", async () => {
    const db = server.handle.db;
    const investor = await newInvestor(db, systemClock);
    expect(await status(server, "/user/me", investor.token)).toBe(200);
    const before = await version(server, investor.token);
    expect(await version(server, investor.token)).toBe(before);

    await db.insert(schema.operations).values({
      userId: investor.id,
      currency: "USDT",
      type: "refill",
      amount: "1",
      createdAt: new Date(),
    });
    expect(await version(server, investor.token)).not.toBe(before);

    await db.execute(sql`update settings set value = '{"enabled":true,"message":null,"until":null}'::jsonb
      where key = 'technicalWork'`);
    expect(await status(server, "/user/me", investor.token)).toBe(503);
    await db.execute(sql`update settings set value = '{"enabled":false,"message":null,"until":null}'::jsonb
      where key = 'technicalWork'`);
    expect(await status(server, "/user/me", investor.token)).toBe(200);

    expect(await usdt(server, investor.token)).toBe("0");
    await fund(db, systemClock, investor.id, "USDT", "25");
    expect(await usdt(server, investor.token)).toBe("25");

    const me = async () => (await call(server, "GET", "/user/me", undefined, { token: investor.token })).body;
    expect((await me()).login).toBe(investor.login);
    await db.execute(sql`update users set full_name = 'Renamed By SQL' where id = ${investor.id}`);
    expect(JSON.stringify(await me())).toContain("Renamed By SQL");

    // The current currency is kept with the balances (one entry a user): a change of the row drops it too.
    const current = async (url: string) =>
      (await call(server, "GET", url, undefined, { token: investor.token })).body.currentCurrency;
    expect(await current("/user/balance")).toBe("USDT");
    await db.execute(sql`update users set current_currency = 'ETH' where id = ${investor.id}`);
    expect(await current("/user/balance")).toBe("ETH");
    expect(await current("/user/statistics")).toBe("ETH");

    await db.execute(sql`update sessions set revoked_at = now() where user_id = ${investor.id}`);
    expect(await status(server, "/user/me", investor.token)).toBe(401);
  });

  it("answers what it keeps at once, not as a promise, and reads again after a change", async () => {
    const db = server.handle.db;
    const investor = await newInvestor(db, systemClock);
    // The first reads go to the database and keep what they read.
    const session = await findLiveSession(db, systemClock, investor.token);
    expect(session?.userId).toBe(investor.id);
    await getSetting(db, "technicalWork");
    const balance = await getBalance(db, investor.id);
    await pulse(db, investor.id);
    // Kept: the values themselves, so that a call answered from memory (the session, the maintenance flag, the
    // balance: `GET /user/balance` whole) takes no turn of the event loop for them.
    const again = findLiveSession(db, systemClock, investor.token);
    expect(again).not.toBeInstanceOf(Promise);
    expect(again).toEqual(session);
    expect(getSetting(db, "technicalWork")).not.toBeInstanceOf(Promise);
    expect(getBalance(db, investor.id)).toBe(balance);
    expect(pulse(db, investor.id)).not.toBeInstanceOf(Promise);
    // A change drops the entry: the next read is the database's again.
    await fund(db, systemClock, investor.id, "USDT", "5");
    const funded = getBalance(db, investor.id);
    expect(funded).toBeInstanceOf(Promise);
    expect((await funded).currencies.USDT).toBe("5");
  });

  it("finds the kept balance through the caller's kept session, without the balances' map, and never a dropped one", async () => {
    const db = server.handle.db;
    const investor = await newInvestor(db, systemClock);
    const session = await findLiveSession(db, systemClock, investor.token);
    if (!session) throw new Error("not signed in");
    const balance = await getBalance(db, investor.id, session);
    // The session is its kept row, the same object every call (nothing is made a call); it links the money it read.
    expect(findLiveSession(db, systemClock, investor.token)).toBe(session);
    // The kept reply keeps its JSON in a slot of its own, filled by the first route that writes it.
    const write = replySerializerCompiler({ schema: BalanceReply, method: "GET", url: "/api/user/balance" });
    const json = write(balance);
    expect(JSON.parse(json)).toEqual(balance);
    const slot = (balance as unknown as { [REPLY_JSON]: JsonSlot })[REPLY_JSON];
    expect(slot).toEqual({ schema: BalanceReply, json });
    expect(write(balance)).toBe(json);
    expect(Object.keys(balance)).not.toContain(String(REPLY_JSON));
    const balances = keptOf(db)?.balances as unknown as { entries: Map<string, unknown> };
    const lookups = vi.spyOn(balances.entries, "get");
    try {
      expect(getBalance(db, investor.id, session)).toBe(balance);
      expect(lookups).not.toHaveBeenCalled();
      // A change drops the entry: the link does not answer with it, the database does, and the next call links anew.
      await fund(db, systemClock, investor.id, "USDT", "7");
      const funded = getBalance(db, investor.id, session);
      expect(funded).toBeInstanceOf(Promise);
      const kept = await funded;
      expect(kept.currencies.USDT).toBe("7");
      expect(getBalance(db, investor.id, session)).toBe(kept);
      lookups.mockClear();
      expect(getBalance(db, investor.id, session)).toBe(kept);
      expect(lookups).not.toHaveBeenCalled();
      // Everything dropped at once (a lost connection's `*`): nothing answers through a link either.
      keptOf(db)?.feed.changed("*");
      const again = getBalance(db, investor.id, session);
      expect(again).toBeInstanceOf(Promise);
      expect((await again).currencies.USDT).toBe("7");
    } finally {
      lookups.mockRestore();
    }
  });

  it("refuses a refill on a payment system closed by plain SQL at once, and takes it when reopened", async () => {
    const db = server.handle.db;
    const investor = await newInvestor(db, systemClock);
    const refill = async () =>
      (await call(server, "POST", "/funds/refills", { paymentSystemId: "usdt-trc20", amount: "5" }, investor)).status;
    expect(await refill()).toBe(200);
    await db.execute(sql`update payment_systems set refill_enabled = false where id = 'usdt-trc20'`);
    try {
      expect(await refill()).toBe(400);
    } finally {
      await db.execute(sql`update payment_systems set refill_enabled = true where id = 'usdt-trc20'`);
    }
    expect(await refill()).toBe(200);
  });

  it("refuses a deposit on a plan or a crypto case closed by plain SQL at once, and takes it when reopened", async () => {
    const db = server.handle.db;
    const investor = await newInvestor(db, systemClock);
    await fund(db, systemClock, investor.id, "USDT", "1000");
    const open = async (caseId?: string) => {
      const reply = await call(
        server,
        "POST",
        "/funds/deposits",
        { planId: "standard", currency: "USDT", amount: "100", ...(caseId ? { caseId } : {}) },
        investor,
      );
      return reply.status === 200 ? "opened" : (reply.body.params as { reason?: string } | undefined)?.reason;
    };
    // Read once, so that what the server keeps is the open catalogue.
    expect(await open("balanced")).toBe("opened");
    await db.execute(sql`update plans set active = false where id = 'standard'`);
    try {
      expect(await open()).toBe("plan_unavailable");
    } finally {
      await db.execute(sql`update plans set active = true where id = 'standard'`);
    }
    expect(await open()).toBe("opened");
    await db.execute(sql`update crypto_cases set active = false where id = 'balanced'`);
    try {
      expect(await open("balanced")).toBe("case_unavailable");
    } finally {
      await db.execute(sql`update crypto_cases set active = true where id = 'balanced'`);
    }
    expect(await open("balanced")).toBe("opened");
  });
});

describe.skipIf(!TEST_DATABASE_URL)(
  `kept in memory, two instances on PostgreSQL${TEST_DATABASE_URL ? "" : ` (skipped: ${POSTGRES_SKIP_REASON})`}`,
  () => {
    let database: Awaited<ReturnType<typeof freshPostgres>>;
    let handles: DatabaseHandle[] = [];
    let a: TestServer;
    let b: TestServer;

    beforeAll(async () => {
      database = await freshPostgres("kept");
      handles = [await openDatabase({ databaseUrl: database.url }), await openDatabase({ databaseUrl: database.url })];
      a = await createTestServer({ handle: handles[0] });
      b = await createTestServer({ handle: handles[1], seed: false });
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
      for (const handle of handles) await handle.close();
      await database?.drop();
    });

    it("drops a session logged out on the other instance", async () => {
      const investor = await newInvestor(a.handle.db, systemClock);
      expect(await status(b, "/user/me", investor.token)).toBe(200);
      expect(await status(b, "/user/me", investor.token)).toBe(200);
      const out = await call(a, "POST", "/auth/logout", undefined, { token: investor.token });
      expect(out.status).toBe(200);
      await until("the session revoked on B", async () => (await status(b, "/user/me", investor.token)) === 401);
    });

    it("answers 503 on both once maintenance is switched on through one", async () => {
      const investor = await newInvestor(a.handle.db, systemClock);
      expect(await status(b, "/user/balance", investor.token)).toBe(200);
      await setMaintenance(a.handle.db, systemClock, { enabled: true });
      try {
        expect(await status(a, "/user/balance", investor.token)).toBe(503);
        await until("maintenance on B", async () => (await status(b, "/user/balance", investor.token)) === 503);
      } finally {
        await setMaintenance(a.handle.db, systemClock, { enabled: false });
      }
      await until("maintenance off on B", async () => (await status(b, "/user/balance", investor.token)) === 200);
    });

    it("refuses a refill on the other instance once a payment system is closed through one", async () => {
      const investor = await newInvestor(a.handle.db, systemClock);
      const refill = async (server: TestServer) =>
        (await call(server, "POST", "/funds/refills", { paymentSystemId: "usdt-trc20", amount: "5" }, investor)).status;
      expect(await refill(b)).toBe(200);
      await a.handle.db.execute(sql`update payment_systems set refill_enabled = false where id = 'usdt-trc20'`);
      try {
        await until("the payment system off on B", async () => (await refill(b)) === 400);
      } finally {
        await a.handle.db.execute(sql`update payment_systems set refill_enabled = true where id = 'usdt-trc20'`);
      }
      await until("the payment system on again on B", async () => (await refill(b)) === 200);
    });

    it("shows a refill confirmed through one instance in the balance on both", async () => {
      const investor = await newInvestor(a.handle.db, systemClock);
      expect(await usdt(a, investor.token)).toBe("0");
      expect(await usdt(b, investor.token)).toBe("0");
      await fund(a.handle.db, systemClock, investor.id, "USDT", "40");
      expect(await usdt(a, investor.token)).toBe("40");
      await until("the new balance on B", async () => (await usdt(b, investor.token)) === "40");
    });

    it("shows the current currency set through one instance on the other", async () => {
      const investor = await newInvestor(a.handle.db, systemClock);
      const current = async (server: TestServer) =>
        (await call(server, "GET", "/user/balance", undefined, { token: investor.token })).body.currentCurrency;
      expect(await current(b)).toBe("USDT");
      const set = await call(a, "POST", "/user/balance", { currency: "BTC" }, { token: investor.token });
      expect(set.body.currentCurrency).toBe("BTC");
      expect(await current(a)).toBe("BTC");
      await until("the current currency on B", async () => (await current(b)) === "BTC");
    });

    it("moves the pulse on the other instance when an operation is written", async () => {
      const investor = await newInvestor(a.handle.db, systemClock);
      const before = await version(b, investor.token);
      expect(await version(b, investor.token)).toBe(before);
      await a.handle.db.insert(schema.operations).values({
        userId: investor.id,
        currency: "USDT",
        type: "refill",
        amount: "1",
        createdAt: new Date(),
      });
      await until("the pulse moved on B", async () => (await version(b, investor.token)) !== before);
    });
  },
);
