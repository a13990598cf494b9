/**
 * The kept caches (db/change-feed.ts) hold for 50,000 investors active within a minute, within the budget
 * `npm start` gives them: every investor reads the balance as `GET /user/balance` does (the session, then the
 * route's service, `getBalance`), then each does it again — the second round is answered from memory (≥ 95 % hits
 * over every per-investor cache, ≤ 0.05 database statements a request). Another investor's session
 * changing (revoked, its expiry moved) drops that session alone: the others stay kept. What an investor who opens
 * the app weighs in the caches (session, row, balances, pulse, unread count) is printed. Counted by what happens
 * (hits, statements sent to the database), never by time: the caches and the sessions run on the test's clock,
 * a millisecond a request (a round of 50,000 in 50 s), whatever the machine's speed. On the run's PostgreSQL (npm
 * test always has one; 50,000 investors are a production database's case), else on PGlite: the first round's
 * 100,000 statements cost PGlite twice the CPU (50.7 s against 25.4 s for the file alone, the machine's busy time).
 */
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "../../server/src/clock";
import { type Kept, keptBudgetBytes, startKept, stopKept } from "../../server/src/db/change-feed";
import { type DatabaseHandle, openDatabase } from "../../server/src/db/client";
import { resultRows } from "../../server/src/db/rows";
import { getBalance } from "../../server/src/services/balance";
import { getBalances } from "../../server/src/services/ledger";
import { pulse } from "../../server/src/services/notifications";
import { findLiveSession, revokeSession } from "../../server/src/services/sessions";
import { findUserById, unreadCount } from "../../server/src/services/users";
import { NPM_START_OPTIONS } from "../e2e/support/server";
import { countStatements, pgliteTemplate } from "./helpers";
import { freshPostgres, TEST_DATABASE_URL } from "./money";

const INVESTORS = 50_000;
/** The caches that keep something per investor (the sessions, and per user the row, balances, pulse, unread count). */
const PER_INVESTOR = ["sessions", "users", "balances", "pulse", "unread"] as const;

/** The caches' budget under `npm start`: its share of the heap --max-old-space-size allows. */
function npmStartBudget(): number {
  const mb = Number(NPM_START_OPTIONS.find((option) => option.startsWith("--max-old-space-size="))?.split("=")[1]);
  expect(mb).toBeGreaterThan(0);
  return keptBudgetBytes(mb * 1048576);
}

/**
 * Requests in flight at once: investors active within the same minute call side by side, and the app's pool (ten
 * connections) serves them so, several queued on a connection. One at a time, every statement waited for the one
 * before it: the file alone cost 32.8 and 35.0 s of CPU (its whole process tree, the run's PostgreSQL included),
 * twenty at a time 27.3 and 30.8 s, a hundred 23.7 and 25.1 s.
 */
const IN_FLIGHT = 100;

/** `visit(i)` for investors `from`…`to`, `IN_FLIGHT` at a time, each investor's own calls one after another. */
async function eachInvestor(from: number, to: number, visit: (i: number) => Promise<void>): Promise<void> {
  let next = from;
  const lane = async () => {
    for (let i = next++; i <= to; i = next++) await visit(i);
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
}

const token = (i: number) => `k${String(i).padStart(10, "0")}${createHash("md5").update(`k${i}`).digest("hex")}`;
const tokenSql = (i: string) => `'k' || lpad((${i})::text, 10, '0') || md5('k' || (${i}))`;

describe(`the kept caches with ${INVESTORS.toLocaleString("en-US")} investors`, () => {
  let handle: DatabaseHandle;
  let kept: Kept;
  let statements: () => number = () => 0;
  /** The time of the caches and the sessions: a request a millisecond. */
  const clock = fixedClock(new Date());

  let database: Awaited<ReturnType<typeof freshPostgres>> | undefined;

  beforeAll(async () => {
    database = TEST_DATABASE_URL ? await freshPostgres("kept") : undefined;
    handle = await openDatabase(database ? { databaseUrl: database.url } : { initialData: pgliteTemplate("migrated") });
    const seed = [
      `insert into users (id, login, created_at)
        select md5('k-' || i)::uuid, 'kept_' || i, now() - interval '10 days' from generate_series(1, ${INVESTORS}) i`,
      `insert into sessions (user_id, token_hash, created_at, expires_at, last_used_at)
        select md5('k-' || i)::uuid, encode(sha256(convert_to(${tokenSql("i")}, 'UTF8')), 'hex'), now(),
               now() + interval '30 days', now()
          from generate_series(1, ${INVESTORS}) i`,
      `insert into balances (user_id, currency, amount, updated_at)
        select md5('k-' || i)::uuid, 'USDT', i, now() from generate_series(1, ${INVESTORS}) i`,
    ];
    for (const statement of seed) await handle.db.execute(sql.raw(statement));
    clock.set(new Date());
    kept = await startKept(handle.db, npmStartBudget(), { now: () => clock.now().getTime() });
    // Every statement the services send from here on.
    statements = countStatements(handle);
  }, 1_200_000);
  afterAll(async () => {
    await stopKept(handle.db);
    await handle.close();
    await database?.drop();
  });

  /**
   * One round: each investor's `GET /user/balance` as the route serves it (the authentication hook's session, then
   * the route's handler, `getBalance`); the statements a request cost and the share of kept reads.
   */
  async function round(): Promise<{ perRequest: number; hitRate: number }> {
    const before = { statements: statements(), ...counters() };
    await eachInvestor(1, INVESTORS, async (i) => {
      clock.advance(1);
      const session = await findLiveSession(handle.db, clock, token(i));
      if (!session) throw new Error(`investor ${i} is not signed in`);
      // As the route: the session links its user's kept money.
      const balance = await getBalance(handle.db, session.userId, session);
      if (balance.currencies.USDT !== String(i) || balance.currentCurrency !== "USDT")
        throw new Error(`investor ${i} sees ${JSON.stringify(balance)}`);
    });
    const after = counters();
    const hits = after.hits - before.hits;
    return {
      perRequest: (statements() - before.statements) / INVESTORS,
      hitRate: hits / (hits + after.misses - before.misses),
    };
  }
  /** Hits and reads of every cache that keeps something per investor, whichever the route reads. */
  const counters = () => {
    let hits = 0;
    let misses = 0;
    for (const name of PER_INVESTOR) {
      const stats = kept[name].stats();
      hits += stats.hits;
      misses += stats.misses;
    }
    return { hits, misses };
  };
  /**
   * Returns once the caches have heard every change committed so far: on PostgreSQL the database announces changes
   * made by plain SQL a moment later (the app's read-your-writes wait, `ChangeFeed.reach`); PGlite's are heard at once.
   */
  const heardEverything = async () => {
    const at = await kept.feed.position();
    if (at) await kept.feed.reach(at);
  };
  const weights = () => Object.fromEntries(PER_INVESTOR.map((name) => [name, kept[name].stats()]));

  it("answer the second round from memory: ≥ 95 % hits, ≤ 0.05 statements a request", async () => {
    const first = await round();
    expect(first.perRequest).toBeGreaterThanOrEqual(1);
    const second = await round();
    console.log(
      `[kept] ${INVESTORS.toLocaleString("en-US")} investors' GET /user/balance, twice: ${(second.hitRate * 100).toFixed(1)} % hits and ${second.perRequest.toFixed(3)} statements a request the second time (the first ${first.perRequest.toFixed(3)}); budget ${Math.round(npmStartBudget() / 1024)} kB; caches ${JSON.stringify(weights())}`,
    );
    expect(second.perRequest).toBeLessThanOrEqual(0.05);
    expect(second.hitRate).toBeGreaterThanOrEqual(0.95);
  }, 1_800_000);

  it("drop only the session that changed: other investors' sessions stay kept", async () => {
    // Unrelated sessions change, through the service and by plain SQL (the database announces each).
    const rows = resultRows<{ id: string }>(await handle.db.execute(sql`select id from sessions order by id limit 10`));
    for (const row of rows) {
      await handle.db.execute(
        sql`update sessions set expires_at = expires_at + interval '1 minute' where id = ${row.id}`,
      );
    }
    const seventh = resultRows<{ id: string }>(
      await handle.db.execute(
        sql`select id from sessions where token_hash = ${createHash("sha256").update(token(7)).digest("hex")}`,
      ),
    )[0];
    if (!seventh) throw new Error("no session of investor 7");
    await heardEverything();
    await revokeSession(handle.db, clock, seventh.id);
    expect(await findLiveSession(handle.db, clock, token(7))).toBeNull();

    const sessionsBefore = kept.sessions.stats();
    for (let i = 1; i <= INVESTORS; i++) {
      if (i === 7) continue;
      clock.advance(1);
      expect(await findLiveSession(handle.db, clock, token(i))).not.toBeNull();
    }
    const sessionsAfter = kept.sessions.stats();
    // The ten moved sessions are read again; the other 49,989 come from memory.
    expect(sessionsAfter.misses - sessionsBefore.misses).toBeLessThanOrEqual(20);
  }, 1_800_000);

  it("weigh an investor who opens the app: the session, the row, the balances, the pulse and the unread count", async () => {
    // A figure for the budget's sizing (docs/database.md), printed: 2,000 investors with a full profile (a password
    // hash, a name, an e-mail, a phone, a place, a Telegram id, confirmed contacts) read what the app's start reads.
    const sample = 2_000;
    // The last 2,000 (investor 7 was signed out above).
    const first = INVESTORS - sample + 1;
    await handle.db.execute(
      sql.raw(`update users u set password_hash = '$argon2id$v=19$m=19456,t=2,p=1$' || md5('s' || g.i) || '$' ||
          md5('h' || g.i) || md5('g' || g.i),
        full_name = 'Investor ' || g.i, email = u.login || '@example.com', email_confirmed_at = now(),
        phone = '+7' || (7000000000 + g.i), phone_confirmed_at = now(), city = 'Almaty', country = 'KZ',
        telegram_id = 5000000000 + g.i
        from generate_series(${first}, ${INVESTORS}) g(i) where u.id = md5('k-' || g.i)::uuid`),
    );
    await heardEverything();
    await eachInvestor(first, INVESTORS, async (i) => {
      clock.advance(1);
      const session = await findLiveSession(handle.db, clock, token(i));
      if (!session) throw new Error(`investor ${i} is not signed in`);
      const row = await findUserById(handle.db, session.userId);
      expect(row?.email).toContain("@example.com");
      await getBalances(handle.db, session.userId);
      await pulse(handle.db, session.userId);
      await unreadCount(handle.db, session.userId);
    });
    // Bytes an investor per cache, from the caches' own weights (kB and entries as readiness shows them).
    const perInvestor: Record<string, number> = {};
    let total = 0;
    for (const name of PER_INVESTOR) {
      const bytes = Math.round(kept[name].weight / kept[name].size);
      perInvestor[name] = bytes;
      total += bytes;
    }
    const fit = Math.floor(npmStartBudget() / total);
    console.log(
      `[kept] an investor who opens the app weighs ${total} bytes (${JSON.stringify(perInvestor)}): the budget of npm start holds ${fit.toLocaleString("en-US")} of them`,
    );
    // Within the budget beside the 50,000 sessions and balances: every sampled investor's row stays kept.
    expect(kept.users.size).toBe(sample);
  }, 600_000);
});
