/**
 * Exactly-once money calls (docs/decisions.md#exactly-once-money-calls): the money routes take an
 * `Idempotency-Key`; 20 identical requests sent at once with one key make one operation (the others get the
 * same reply, or 409 while the first runs), a later repeat gets the stored reply, the same key with another
 * body is 422, a refused first request releases its key. On PGlite and, with TEST_DATABASE_URL, on a real
 * PostgreSQL with a pool of connections, where the requests really overlap.
 *
 * Rerun: TEST_DATABASE_URL=postgres://… npx vitest run --project integration tests/integration/idempotency.test.ts
 */
import { randomUUID } from "node:crypto";
import { routes } from "@contract";
import { and, count, eq } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { systemClock } from "../../server/src/clock";
import { deposits, idempotencyKeys, operations, refills } from "../../server/src/db/schema";
import { IDEMPOTENCY_KEY_TTL_MS } from "../../server/src/plugins/idempotency";
import { call, callRoute, createTestServer, injectRoute, TEST_CODE_SECRET, type TestServer } from "./helpers";
import {
  balanceOf,
  expectLedgerConsistent,
  freshPostgres,
  fund,
  newInvestor,
  POSTGRES_SKIP_REASON,
  TEST_DATABASE_URL,
} from "./money";

const clock = systemClock;
const BURST = 20;

function withKey(token: string, key: string) {
  return { token, headers: { "idempotency-key": key } };
}

async function operationCount(server: TestServer, userId: string): Promise<number> {
  const [row] = await server.handle.db.select({ n: count() }).from(operations).where(eq(operations.userId, userId));
  return row?.n ?? 0;
}

function suite(backend: string, open: () => Promise<{ server: TestServer; done(): Promise<void> }>) {
  let server: TestServer;
  let done: () => Promise<void>;
  beforeAll(async () => {
    ({ server, done } = await open());
  }, 180_000);
  afterAll(async () => {
    await done?.();
  });

  it(`${backend}: ${BURST} identical deposits at once with one key open one deposit`, async () => {
    const investor = await newInvestor(server.handle.db, clock);
    await fund(server.handle.db, clock, investor.id, "USDT", "1000");
    const key = randomUUID();
    const body = { planId: "standard", currency: "USDT" as const, amount: "100" };
    const replies = await Promise.all(
      Array.from({ length: BURST }, () =>
        injectRoute(server, routes.createDeposit, { ...withKey(investor.token, key), body }),
      ),
    );
    const ok = replies.filter((r) => r.status === 200);
    const inFlight = replies.filter((r) => r.status === 409);
    console.log(
      `[kassa] ${BURST} identical deposits with one key on ${backend}: ${ok.length} × 200 (one new, the rest replayed), ` +
        `${inFlight.length} × 409 IDEMPOTENCY_IN_FLIGHT`,
    );
    expect(ok.length + inFlight.length).toBe(BURST);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const r of inFlight) expect(r.body).toMatchObject({ code: "IDEMPOTENCY_IN_FLIGHT" });
    // Every 200 is the same deposit.
    expect(new Set(ok.map((r) => r.body.id)).size).toBe(1);
    const [made] = await server.handle.db.select({ n: count() }).from(deposits).where(eq(deposits.userId, investor.id));
    expect(made?.n).toBe(1);
    // The refill and one plan debit.
    expect(await operationCount(server, investor.id)).toBe(2);
    expect((await balanceOf(server, investor)).USDT).toBe("900");

    // Later, the same request again: the first reply, marked as replayed, nothing spent.
    const again = await injectRoute(server, routes.createDeposit, { ...withKey(investor.token, key), body });
    expect(again.status).toBe(200);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.body).toEqual(ok[0]?.body);
    expect((await balanceOf(server, investor)).USDT).toBe("900");
    await expectLedgerConsistent(server.handle.db);
  });

  it(`${backend}: ${BURST} identical refills at once with one key start one refill`, async () => {
    const investor = await newInvestor(server.handle.db, clock);
    const key = randomUUID();
    const replies = await Promise.all(
      Array.from({ length: BURST }, () =>
        injectRoute(server, routes.createRefill, {
          ...withKey(investor.token, key),
          body: { paymentSystemId: "usdt-trc20", amount: "75" },
        }),
      ),
    );
    expect(replies.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    const [made] = await server.handle.db.select({ n: count() }).from(refills).where(eq(refills.userId, investor.id));
    expect(made?.n).toBe(1);
  });

  it(`${backend}: the same key with another body is 422, and another user's same key is theirs`, async () => {
    const investor = await newInvestor(server.handle.db, clock);
    const other = await newInvestor(server.handle.db, clock);
    await fund(server.handle.db, clock, investor.id, "USDT", "100");
    await fund(server.handle.db, clock, other.id, "USDT", "100");
    const key = randomUUID();
    await callRoute(server, "exchange", {
      ...withKey(investor.token, key),
      body: { from: "USDT", to: "TON", amount: "10" },
    });
    const changed = await injectRoute(server, routes.exchange, {
      ...withKey(investor.token, key),
      body: { from: "USDT", to: "TON", amount: "20" },
    });
    expect(changed.status).toBe(422);
    expect(changed.body).toEqual({
      code: "IDEMPOTENCY_KEY_REUSED",
      message: "This request was already sent with other data",
    });
    // Key order in the body does not matter: the same request.
    const reordered = await injectRoute(server, routes.exchange, {
      ...withKey(investor.token, key),
      body: { amount: "10", to: "TON", from: "USDT" },
    });
    expect(reordered.status).toBe(200);
    expect(reordered.headers["idempotent-replayed"]).toBe("true");
    expect((await balanceOf(server, investor)).USDT).toBe("90");

    const theirs = await injectRoute(server, routes.exchange, {
      ...withKey(other.token, key),
      body: { from: "USDT", to: "TON", amount: "20" },
    });
    expect(theirs.status).toBe(200);
    expect(theirs.headers["idempotent-replayed"]).toBeUndefined();
    expect((await balanceOf(server, other)).USDT).toBe("80");
  });

  it(`${backend}: a key is kept a day; after it the same key starts a new intent`, async () => {
    const investor = await newInvestor(server.handle.db, clock);
    const key = randomUUID();
    const body = { paymentSystemId: "usdt-trc20", amount: "5" };
    const first = await injectRoute(server, routes.createRefill, { ...withKey(investor.token, key), body });
    expect(first.status).toBe(200);
    const age = async (ms: number) =>
      server.handle.db
        .update(idempotencyKeys)
        .set({ createdAt: new Date(Date.now() - ms) })
        .where(and(eq(idempotencyKeys.userId, investor.id), eq(idempotencyKeys.key, key)));
    // Almost a day old: still the first reply.
    await age(IDEMPOTENCY_KEY_TTL_MS - 60_000);
    const kept = await injectRoute(server, routes.createRefill, { ...withKey(investor.token, key), body });
    expect(kept.headers["idempotent-replayed"]).toBe("true");
    expect(kept.body.id).toBe(first.body.id);
    // Past its day: forgotten, the same key (even with another body) runs as new, and is kept again.
    await age(IDEMPOTENCY_KEY_TTL_MS + 60_000);
    const other = { paymentSystemId: "usdt-trc20", amount: "6" };
    const anew = await injectRoute(server, routes.createRefill, { ...withKey(investor.token, key), body: other });
    expect(anew.status).toBe(200);
    expect(anew.headers["idempotent-replayed"]).toBeUndefined();
    expect(anew.body.id).not.toBe(first.body.id);
    const replayed = await injectRoute(server, routes.createRefill, { ...withKey(investor.token, key), body: other });
    expect(replayed.headers["idempotent-replayed"]).toBe("true");
    expect(replayed.body.id).toBe(anew.body.id);
    const [made] = await server.handle.db.select({ n: count() }).from(refills).where(eq(refills.userId, investor.id));
    expect(made?.n).toBe(2);
  });

  it(`${backend}: a refused first request releases its key; the same intent runs once funds arrive`, async () => {
    const investor = await newInvestor(server.handle.db, clock);
    const key = randomUUID();
    const body = { optionId: "month" };
    const short = await injectRoute(server, routes.subscribe, { ...withKey(investor.token, key), body });
    expect(short.status).toBe(409);
    expect(short.body).toMatchObject({ code: "INSUFFICIENT_FUNDS" });
    const left = await server.handle.db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.userId, investor.id), eq(idempotencyKeys.key, key)));
    expect(left).toEqual([]);

    await fund(server.handle.db, clock, investor.id, "USDT", "1000");
    const paid = await Promise.all(
      Array.from({ length: 5 }, () => injectRoute(server, routes.subscribe, { ...withKey(investor.token, key), body })),
    );
    expect(paid.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(1);
    const debits = await server.handle.db
      .select({ n: count() })
      .from(operations)
      .where(and(eq(operations.userId, investor.id), eq(operations.type, "subscription")));
    expect(debits[0]?.n).toBe(1);
    await expectLedgerConsistent(server.handle.db);
  });

  it(`${backend}: every money route of the contract checks the key; without one the call runs as before`, async () => {
    const investor = await newInvestor(server.handle.db, clock);
    const samples: Record<string, { url: string; body?: unknown }> = {
      createRefill: { url: "/funds/refills", body: { paymentSystemId: "usdt-trc20", amount: "1" } },
      createDeposit: { url: "/funds/deposits", body: { planId: "standard", currency: "USDT", amount: "100" } },
      closeDeposit: { url: `/funds/deposits/client/close/${randomUUID()}` },
      exchange: { url: "/user/exchange", body: { from: "USDT", to: "TON", amount: "1" } },
      requestWithdrawal: { url: "/funds/payments/request", body: { paymentSystemId: "usdt-trc20", amount: "1" } },
      createWithdrawal: { url: "/funds/payments", body: { paymentSystemId: "usdt-trc20", amount: "1" } },
      validateWithdrawal: { url: "/funds/payments/validate", body: { withdrawalId: randomUUID(), code: "123456" } },
      subscribe: { url: "/user/subscription", body: { optionId: "month" } },
    };
    const flagged = Object.entries(routes)
      .filter(([, def]) => "idempotent" in def && def.idempotent)
      .map(([name]) => name)
      .sort();
    expect(flagged).toEqual(Object.keys(samples).sort());
    for (const [name, sample] of Object.entries(samples)) {
      const res = await call(server, "POST", sample.url, sample.body, withKey(investor.token, "short"));
      expect({ name, status: res.status, code: res.body.code }).toEqual({
        name,
        status: 400,
        code: "IDEMPOTENCY_KEY_INVALID",
      });
    }
    // No header: two refills, as an older client would make them.
    const refill = { paymentSystemId: "usdt-trc20", amount: "1" };
    const a = await injectRoute(server, routes.createRefill, { token: investor.token, body: refill });
    const b = await injectRoute(server, routes.createRefill, { token: investor.token, body: refill });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.id).not.toBe(b.body.id);
  });
}

describe("idempotent money calls on PGlite", () => {
  suite("PGlite", async () => {
    const server = await createTestServer({ clock });
    return { server, done: () => server.close() };
  });
});

describe.skipIf(!TEST_DATABASE_URL)(`idempotent money calls on PostgreSQL (${POSTGRES_SKIP_REASON})`, () => {
  let shared: { server: TestServer; url: string } | undefined;
  suite("PostgreSQL", async () => {
    const database = await freshPostgres("idempotency");
    const server = await createTestServer({
      clock,
      env: { DATABASE_URL: database.url, CODE_SECRET: TEST_CODE_SECRET },
    });
    shared = { server, url: database.url };
    return {
      server,
      done: async () => {
        await server.close();
        await database.drop();
      },
    };
  });

  /**
   * A key's holder is another session of the database holding the key's advisory lock, as a first run does:
   * here a bare connection in an open transaction, so the test decides when it ends. A repeat arriving
   * meanwhile waits for it, within a bound, instead of answering "in flight" at once.
   */
  async function holdKey(url: string, userId: string, key: string) {
    const holder = postgres(url, { max: 1, onnotice: () => {} });
    const session = await holder.reserve();
    await session`begin`;
    await session`select pg_advisory_xact_lock(hashtextextended(${`idempotency:${userId}:${key}`}, 0))`;
    const [me] = await session<{ pid: number }[]>`select pg_backend_pid() as pid`;
    return { holder, session, pid: me?.pid ?? 0 };
  }

  /** An investor with 1,000 USDT, a deposit's body and a key for it, held by another session. */
  async function depositWithHeldKey(server: TestServer, url: string) {
    const investor = await newInvestor(server.handle.db, clock);
    await fund(server.handle.db, clock, investor.id, "USDT", "1000");
    const key = randomUUID();
    const body = { planId: "standard", currency: "USDT" as const, amount: "100" };
    return { investor, key, body, held: await holdKey(url, investor.id, key) };
  }

  /** Resolves once a session waits for an advisory lock (the repeat, parked behind the holder). */
  async function repeatWaiting(url: string): Promise<void> {
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    try {
      await vi.waitFor(
        async () => {
          const [row] = await admin<{ n: number }[]>`
            select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`;
          expect(row?.n).toBeGreaterThan(0);
        },
        { timeout: 30_000, interval: 20 },
      );
    } finally {
      await admin.end();
    }
  }

  it("PostgreSQL: a retry whose key is held by a session that then dies (its server was killed) runs anew, not 409", async () => {
    const { server, url } = shared as { server: TestServer; url: string };
    const { investor, key, body, held } = await depositWithHeldKey(server, url);
    try {
      const retry = injectRoute(server, routes.createDeposit, { ...withKey(investor.token, key), body });
      await repeatWaiting(url);
      // The dead process's backend ends, as PostgreSQL ends it once it sees the connection closed.
      const admin = postgres(url, { max: 1, onnotice: () => {} });
      await admin`select pg_terminate_backend(${held.pid})`;
      await admin.end();
      const res = await retry;
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 200, code: undefined });
      expect(res.headers["idempotent-replayed"]).toBeUndefined();
      expect((await balanceOf(server, investor)).USDT).toBe("900");
    } finally {
      held.session.release();
      await held.holder.end({ timeout: 1 }).catch(() => {});
    }
  });

  it("PostgreSQL: a holder that outlasts the wait is 409 IDEMPOTENCY_IN_FLIGHT, nothing spent; once it is gone the key runs", async () => {
    const { server, url } = shared as { server: TestServer; url: string };
    const { investor, key, body, held } = await depositWithHeldKey(server, url);
    try {
      const res = await injectRoute(server, routes.createDeposit, { ...withKey(investor.token, key), body });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: "IDEMPOTENCY_IN_FLIGHT" });
      expect((await balanceOf(server, investor)).USDT).toBe("1000");
      await held.session`rollback`;
      const after = await injectRoute(server, routes.createDeposit, { ...withKey(investor.token, key), body });
      expect(after.status).toBe(200);
      expect((await balanceOf(server, investor)).USDT).toBe("900");
    } finally {
      held.session.release();
      await held.holder.end();
    }
  });
});
