/**
 * What the server keeps in memory is bounded in bytes (server/README.md, "Performance"): the kept caches
 * (db/change-feed.ts) filled past their budget with values shaped as the services keep them — a session's
 * row, a user's full row, a pulse, balances with the current currency, an unread count — hold no more than that
 * budget of V8's heap, and keep what was used most recently; with them what the replies made from them hold (the
 * user's reply made from the row, each reply's JSON the serializer keeps: routes/reply-json.ts).
 */
import { randomUUID } from "node:crypto";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { BalanceReply, PulseReply, User } from "@contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ChangeFeed,
  type Kept,
  KeptBudget,
  KeptCache,
  type KeptLink,
  startKept,
  stopKept,
} from "../../server/src/db/change-feed";
import type { DatabaseHandle } from "../../server/src/db/client";
import { Derived } from "../../server/src/db/derived";
import { users } from "../../server/src/db/schema";
import { replySerializerCompiler } from "../../server/src/routes/reply-json";
import { openTestDatabase } from "./helpers";

/** The kept caches' budget here: what they may hold together, full. */
const KEPT_BUDGET_MB = 16;
/** More users than that budget keeps. */
const CALLERS = 40_000;

v8.setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

function heapUsedMb(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1048576;
}

/** A string of its own, as a value read from the database is (not a slice of another). */
const own = (text: string): string => Buffer.from(text).toString();

describe("the kept caches", () => {
  let handle: DatabaseHandle;
  let kept: Kept;
  let userRow: Record<string, unknown>;

  beforeAll(async () => {
    handle = await openTestDatabase("seeded");
    kept = await startKept(handle.db, KEPT_BUDGET_MB * 1048576);
    const [row] = await handle.db.select().from(users).limit(1);
    if (!row) throw new Error("the seeded template has no user");
    userRow = row;
  });
  afterAll(async () => {
    await stopKept(handle.db);
    await handle.close();
  });

  it(`hold at most ${KEPT_BUDGET_MB} MB of the heap when more users call than they keep`, async () => {
    // Each call's reply written as the routes write it, its JSON kept beside a frozen reply.
    const write = (schema: unknown) => replySerializerCompiler({ schema, method: "GET", url: "/" });
    const writeBalance = write(BalanceReply);
    const writePulse = write(PulseReply);
    const writeUser = write(User);
    const userViews = new Derived<object, unknown>();
    const before = heapUsedMb();
    for (let i = 0; i < CALLERS; i++) {
      const userId = randomUUID();
      const day = Date.now() - i * 1000;
      // A session's row as services/sessions.ts keeps it, under the token's 32-character digest.
      const session = await kept.sessions.get(own(userId.replaceAll("-", "")), async () => ({
        sessionId: randomUUID(),
        userId: own(userId),
        expiresMs: day + 30 * 86_400_000,
        revoked: false,
        lastUsedMs: day,
        linked: null,
        linkedIn: null,
      }));
      const row = await kept.users.get(own(userId), async () => {
        const row: Record<string, unknown> = {};
        for (const [field, value] of Object.entries(userRow))
          row[field] = typeof value === "string" ? own(`${value}${i}`) : value instanceof Date ? new Date(day) : value;
        row.id = own(userId);
        return Object.freeze(row);
      });
      // The user's reply as services/users.ts makes it from the kept row, weighed with it.
      const user = userViews.of(row as object, i % 7, () => {
        const made = {
          id: own(userId),
          login: own(`inv${i}`),
          fullName: own(`Investor ${i}`),
          email: own(`inv${i}@example.com`),
          phone: own(`+1555${i}`),
          phoneConfirmed: true,
          telegramLinked: false,
          language: "en",
          avatarUrl: null,
          createdAt: new Date(day).toISOString(),
          subscription: { active: false, until: null },
          notifications: { unread: i % 7 },
        };
        kept.users.keepBeside(userId, row, made);
        return made;
      });
      writeUser(user);
      writePulse(
        await kept.pulse.get(own(userId), async () => Object.freeze({ version: own(`${day}.${i}.0`), unread: i % 7 })),
      );
      writeBalance(
        // Through the session's link, as `GET /user/balance` reads it.
        await kept.balances.get(
          own(userId),
          async () =>
            Object.freeze({
              type: "balance",
              currentCurrency: "USDT",
              currencies: Object.freeze({ USDT: own(`${i}.125000`), BTC: own(`0.000${i}`), ETH: "0", TON: "0" }),
            }),
          session as KeptLink,
        ),
      );
      // The next call finds it through the session, which then holds a link to it (also once it is dropped).
      await kept.balances.get(own(userId), async () => Object.freeze({}), session as KeptLink);
      await kept.unread.get(own(userId), async () => i % 7);
    }
    const held = heapUsedMb() - before;
    console.log(
      `[memory-bounds] ${held.toFixed(1)} MB of the heap held for a ${KEPT_BUDGET_MB} MB budget, replies and their JSON with it`,
    );
    expect(held).toBeLessThan(KEPT_BUDGET_MB);
    const caches = [kept.sessions, kept.users, kept.pulse, kept.balances, kept.unread];
    // Full: each dropped its least recently used to stay within its share.
    for (const cache of caches) expect(cache.size).toBeLessThan(CALLERS);
    expect(caches.reduce((sum, cache) => sum + cache.weight, 0)).toBeLessThanOrEqual(KEPT_BUDGET_MB * 1048576);
  }, 120_000);
});

describe("a kept cache when full", () => {
  it("drops the least recently used entry, not the one read a moment ago", async () => {
    const feed = new ChangeFeed();
    feed.listening = true;
    const cache = new KeptCache<string>(feed, {
      budget: new KeptBudget(2000),
      ttlMs: 60_000,
      feedKey: () => "settings",
    });
    let reads = 0;
    const read = (value: string) => async () => {
      reads++;
      return value;
    };
    await cache.get("often", read("kept"));
    for (let i = 0; i < 100; i++) {
      await cache.get(`once-${i}`, read(`value ${i}`));
      // Read again between the others: it stays kept.
      await cache.get("often", read("kept"));
    }
    expect(reads).toBe(101);
    expect(cache.size).toBeLessThan(20);
    expect(cache.weight).toBeLessThanOrEqual(2000);
  });
});

describe("what is made from a kept value", () => {
  it("is weighed with its entry, its JSON too, and counts against the budget", async () => {
    const feed = new ChangeFeed();
    feed.listening = true;
    const options = { budget: new KeptBudget(100_000), ttlMs: 60_000, feedKey: (key: string) => key };
    const rows = new KeptCache<object>(feed, options);
    const replies = new KeptCache<object>(feed, { ...options, budget: new KeptBudget(100_000), reply: true });
    const value = { login: "a".repeat(200) };
    const row = await rows.get("u1", async () => Object.freeze({ ...value }));
    const reply = await replies.get("u1", async () => Object.freeze({ ...value }));
    // A reply kept as it is carries its JSON (the serializer keeps it beside the reply): heavier by the string.
    expect(replies.weight - rows.weight).toBeGreaterThan(JSON.stringify(reply).length);

    const before = rows.weight;
    const made = { view: "b".repeat(500) };
    rows.keepBeside("u1", row, made);
    // The made value (a 500-character string in it) and its JSON (as long again).
    expect(rows.weight - before).toBeGreaterThan(1000);
    // Made from a value the entry no longer holds: nothing counted.
    const after = rows.weight;
    rows.keepBeside("u1", Object.freeze({ ...value }), made);
    rows.keepBeside("nobody", row, made);
    expect(rows.weight).toBe(after);

    // Weighed against the budget: made values push the least recently used entries out.
    const small = new KeptCache<object>(feed, { ...options, budget: new KeptBudget(3000) });
    const first = await small.get("first", async () => Object.freeze({ n: 1 }));
    await small.get("second", async () => Object.freeze({ n: 2 }));
    expect(small.size).toBe(2);
    small.keepBeside("first", first, { view: "c".repeat(1200) });
    expect(small.size).toBe(1);
    expect(small.weight).toBeLessThanOrEqual(3000);
  });
});

describe("two kept caches on one budget", () => {
  it("keep their count and weight right when the entry one would drop next went another way first", async () => {
    const feed = new ChangeFeed();
    feed.listening = true;
    const budget = new KeptBudget(3000);
    const options = { budget, ttlMs: 60_000, feedKey: (key: string) => key };
    const a = new KeptCache<string>(feed, options);
    const b = new KeptCache<string>(feed, options);
    let reads = 0;
    const read = (value: string) => async () => {
      reads++;
      return value;
    };
    for (let i = 0; i < 300; i++) {
      await a.get(`a${i}`, read(`a value ${i}`));
      await b.get(`b${i}`, read(`b value ${i}`));
      // The oldest entries of one cache, which the budget looked at before it dropped the other's, go first
      // another way: announced by the change feed, or read anew after that.
      for (let j = Math.max(0, i - 8); j < i - 1; j++) a.invalidate(`a${j}`);
      if (i % 7 === 0) await a.get(`a${i - 1}`, read(`a value ${i - 1} again`));
    }
    expect(budget.total).toBe(a.weight + b.weight);
    expect(budget.entries).toBe(a.size + b.size);
    expect(budget.total).toBeLessThanOrEqual(3000);
    expect(a.weight).toBeGreaterThan(0);
    expect(b.weight).toBeGreaterThan(0);
    // The newest of each is kept: read again, it is not read from the database.
    const before = reads;
    await a.get("a299", read("a value 299"));
    await b.get("b299", read("b value 299"));
    expect(reads).toBe(before);
  });
});
