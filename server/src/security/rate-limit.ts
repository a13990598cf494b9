/**
 * Rate limits (docs/api-sign-in.md, "Rate limits") on `rate-limiter-flexible`: a window per key that
 * starts at the key's first event and holds `max` events. Where the counters live:
 * - on PostgreSQL (DATABASE_URL) in the `rate_limits` table, so every instance on the database
 *   counts into one budget and a restart forgets nothing (an atomic INSERT … ON CONFLICT per event);
 * - on PGlite (one process) the budgets of an account (its wrong passwords, codes, requests: `ACCOUNT_BUDGETS`)
 *   in the same table, so a flood of other keys never makes the process forget a victim's counters and the
 *   operator's `kassa account unlock` reaches them; the per-address ones in this process's memory, at most
 *   100,000 keys, the least recently used forgotten first.
 * Both stores read the injected clock (the library's own stores read the machine's), so tests and
 * the development clock move time instead of waiting. Every call is async: callers await it.
 */
import { createRequire } from "node:module";
import { eq, lte, sql } from "drizzle-orm";
import { RateLimiterRes, type RateLimiterStoreAbstract as StoreAbstract } from "rate-limiter-flexible";
import type { Clock } from "../clock";
import { ambientDatabase } from "../db/ambient";
import type { Database } from "../db/client";
import { rateLimits } from "../db/schema";
import type { RateLimitRule } from "../env";
import { AppError } from "../errors";

/** The limiter every call site awaits (`ServiceContext.limiter`). */
export interface Limiter {
  /** Seconds until `key` may act again under `rule`; 0 when it may act now. Counts nothing. */
  retryAfter(key: string, rule: RateLimitRule | null): Promise<number>;
  /** Counts one event for `key`. */
  hit(key: string, rule: RateLimitRule | null): Promise<void>;
  /** Counts one event for `key` (atomically) and returns the events counted in its window, this one included. */
  count(key: string, rule: RateLimitRule): Promise<number>;
  /** Refuses with 429 RATE_LIMITED when `key` has used up `rule`, else counts one event (atomically). */
  consume(key: string, rule: RateLimitRule | null): Promise<void>;
  /** Gives back one event counted by `consume` or `hit` (an entry that turned out right). */
  refund(key: string, rule: RateLimitRule | null): Promise<void>;
  /** Refuses with 429 RATE_LIMITED when `key` has used up `rule`; counts nothing. */
  check(key: string, rule: RateLimitRule | null): Promise<void>;
  /** Forgets `key` (a successful login clears its failures). */
  reset(key: string): Promise<void>;
  /** Drops counters whose window ended (the sweeper calls it). Returns how many. */
  purgeExpired(): Promise<number>;
}

/**
 * The library's base of stores. Its typings declare it but its index does not export it: it is
 * loaded from the file every store of the library extends.
 */
const RateLimiterStoreAbstract: typeof StoreAbstract = createRequire(import.meta.url)(
  "rate-limiter-flexible/lib/RateLimiterStoreAbstract.js",
);

/** A stored counter: points used and when the window ends (null: never). */
interface Counter {
  points: number;
  expire: Date | null;
}

/** Where a clocked store keeps its counters. */
interface CounterBackend {
  /** Adds `points` (or, with `force`, sets them); a counter whose window ended starts again. */
  upsert(key: string, points: number, now: Date, expire: Date | null, force: boolean): Promise<Counter>;
  /** The counter of `key` while its window lasts, else null. */
  get(key: string, now: Date): Promise<Counter | null>;
  delete(key: string): Promise<boolean>;
  purge(now: Date): Promise<number>;
}

/**
 * A `rate-limiter-flexible` store (the library's extension point: `_upsert`, `_get`, `_delete`,
 * `_getRateLimiterRes`) over a backend, with "now" from the injected clock. The library does the
 * rest: consume/penalty/get/delete and the RateLimiterRes.
 */
class ClockedStoreLimiter extends RateLimiterStoreAbstract {
  constructor(
    rule: RateLimitRule,
    private readonly clock: Clock,
    private readonly backend: CounterBackend,
  ) {
    super({ storeClient: backend, points: rule.max, duration: rule.windowSeconds, keyPrefix: "rl" });
  }

  _upsert(key: string, points: number, msDuration: number, forceExpire = false): Promise<Counter> {
    const now = this.clock.now();
    const expire = msDuration > 0 ? new Date(now.getTime() + msDuration) : null;
    return this.backend.upsert(key, points, now, expire, forceExpire);
  }

  _get(key: string): Promise<Counter | null> {
    return this.backend.get(key, this.clock.now());
  }

  _delete(key: string): Promise<boolean> {
    return this.backend.delete(key);
  }

  _getRateLimiterRes(_key: string, changedPoints: number, counter: Counter): RateLimiterRes {
    const msBeforeNext =
      counter.expire === null ? -1 : Math.max(counter.expire.getTime() - this.clock.now().getTime(), 0);
    return new RateLimiterRes(
      Math.max(this.points - counter.points, 0),
      msBeforeNext,
      counter.points,
      counter.points === changedPoints,
    );
  }
}

/** Counters in this process (PGlite: one process). Beyond `maxKeys` the least recently used are dropped. */
export class MemoryBackend implements CounterBackend {
  /** In order of use, the least recently used first; `used` is the key's place in that order (`uses`). */
  private readonly counters = new Map<string, Counter & { used: number }>();
  private uses = 0;
  private operations = 0;
  /**
   * The keys from the least recently used on, kept between new keys: a map iterator goes on past deletions and
   * moves, and a new one would start at the map's front again, walking every place the keys dropped before left
   * (V8 frees those places only when the map is rebuilt: at the cap a new key cost 11–75 µs over 300,000 of them,
   * 3–4 µs with this).
   */
  private oldest: MapIterator<string> | null = null;

  constructor(private readonly maxKeys = 100_000) {}

  async upsert(key: string, points: number, now: Date, expire: Date | null, force: boolean): Promise<Counter> {
    const current = await this.get(key, now);
    let next: Counter;
    if (current && !force) {
      current.points += points;
      next = current;
    } else {
      this.counters.delete(key);
      this.counters.set(key, { points, expire, used: this.uses++ });
      next = { points, expire };
      this.sweep(now);
    }
    return { points: next.points, expire: next.expire };
  }

  async get(key: string, now: Date): Promise<Counter | null> {
    const counter = this.counters.get(key);
    if (!counter) return null;
    if (counter.expire !== null && counter.expire.getTime() <= now.getTime()) {
      this.counters.delete(key);
      return null;
    }
    // Used now: to the end of the map's order, the last to be forgotten, unless it is among the more recently used
    // half already (V8's Map is slow at deleting and setting one key over and over in a large map; the kept caches,
    // db/change-feed.ts, say more).
    if (this.uses - counter.used > this.counters.size / 2) {
      this.counters.delete(key);
      counter.used = this.uses++;
      this.counters.set(key, counter);
    }
    return counter;
  }

  async delete(key: string): Promise<boolean> {
    return this.counters.delete(key);
  }

  async purge(now: Date): Promise<number> {
    let removed = 0;
    for (const [key, counter] of this.counters) {
      if (counter.expire !== null && counter.expire.getTime() <= now.getTime()) {
        this.counters.delete(key);
        removed += 1;
      }
    }
    return removed;
  }

  get size(): number {
    return this.counters.size;
  }

  private sweep(now: Date): void {
    this.operations += 1;
    // A pass over every key once per thousand new keys, full or not: a pass per new key at capacity made every
    // request of a flood of addresses (the case the cap is for) walk 100,000 keys (~0.8 ms each, 600 times a new
    // key's cost below it).
    if (this.operations % 1000 === 0) void this.purge(now);
    // Map iteration is insertion order, and every use moves a key to the end: the first are the least recently used.
    while (this.counters.size > this.maxKeys) {
      this.oldest ??= this.counters.keys();
      const next = this.oldest.next();
      if (next.done) this.oldest = null;
      else this.counters.delete(next.value);
    }
  }
}

/**
 * The key prefixes of an account's budgets (keyed by account, login or device, not by address): kept in the
 * database on PGlite too, never in the memory that a flood of addresses could fill.
 */
const ACCOUNT_BUDGETS = [
  "login-failures:",
  "login-turn:",
  "login-device:",
  "code-request-account:",
  "reset-code-account:",
  "reset-code-device:",
  "reset-wait:",
  "phone-code-account:",
  "email-code-account:",
  "password-change:",
  "phone-change:",
  "withdrawal-code-account:",
  "statement-account:",
  "telegram-user:",
] as const;

const isAccountBudget = (key: string) => ACCOUNT_BUDGETS.some((prefix) => key.startsWith(prefix, 3));

/** PGlite: an account's budgets in the database, the rest in memory. Keys arrive with the library's `rl:` prefix. */
class SplitBackend implements CounterBackend {
  constructor(
    private readonly stored: CounterBackend,
    private readonly memory: CounterBackend,
  ) {}

  private of(key: string): CounterBackend {
    return isAccountBudget(key) ? this.stored : this.memory;
  }

  upsert(key: string, points: number, now: Date, expire: Date | null, force: boolean): Promise<Counter> {
    return this.of(key).upsert(key, points, now, expire, force);
  }

  get(key: string, now: Date): Promise<Counter | null> {
    return this.of(key).get(key, now);
  }

  delete(key: string): Promise<boolean> {
    return this.of(key).delete(key);
  }

  async purge(now: Date): Promise<number> {
    return (await this.stored.purge(now)) + (await this.memory.purge(now));
  }
}

/** Counters in PostgreSQL's `rate_limits`: one atomic statement per event, shared by every instance. */
class PostgresBackend implements CounterBackend {
  constructor(private readonly database: Database) {}

  /** The request's transaction when it runs in one (db/ambient.ts), else the app's handle. */
  private get db(): Database {
    return ambientDatabase(this.database);
  }

  async upsert(key: string, points: number, now: Date, expire: Date | null, force: boolean): Promise<Counter> {
    // Dates in raw SQL go through the column's encoder (postgres.js takes no Date as a parameter).
    const ended = sql`${rateLimits.expire} <= ${sql.param(now, rateLimits.expire)}`;
    const [row] = await this.db
      .insert(rateLimits)
      .values({ key, points, expire })
      .onConflictDoUpdate({
        target: rateLimits.key,
        set: force
          ? { points, expire }
          : {
              points: sql`case when ${ended} then ${points} else ${rateLimits.points} + ${points} end`,
              expire: sql`case when ${ended} then ${sql.param(expire, rateLimits.expire)} else ${rateLimits.expire} end`,
            },
      })
      .returning({ points: rateLimits.points, expire: rateLimits.expire });
    if (!row) throw new Error("rate limit counter not written");
    return row;
  }

  async get(key: string, now: Date): Promise<Counter | null> {
    const [row] = await this.db
      .select({ points: rateLimits.points, expire: rateLimits.expire })
      .from(rateLimits)
      .where(eq(rateLimits.key, key))
      .limit(1);
    if (!row || (row.expire !== null && row.expire.getTime() <= now.getTime())) return null;
    return row;
  }

  async delete(key: string): Promise<boolean> {
    const removed = await this.db.delete(rateLimits).where(eq(rateLimits.key, key)).returning({ key: rateLimits.key });
    return removed.length > 0;
  }

  async purge(now: Date): Promise<number> {
    const removed = await this.db
      .delete(rateLimits)
      .where(lte(rateLimits.expire, now))
      .returning({ key: rateLimits.key });
    return removed.length;
  }
}

class FlexibleLimiter implements Limiter {
  /** One library limiter per rule (points and window); all share the backend and the key space. */
  private readonly limiters = new Map<string, ClockedStoreLimiter>();

  constructor(
    private readonly clock: Clock,
    private readonly backend: CounterBackend,
  ) {}

  private limiter(rule: RateLimitRule): ClockedStoreLimiter {
    const id = `${rule.max}/${rule.windowSeconds}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      limiter = new ClockedStoreLimiter(rule, this.clock, this.backend);
      this.limiters.set(id, limiter);
    }
    return limiter;
  }

  async retryAfter(key: string, rule: RateLimitRule | null): Promise<number> {
    if (!rule) return 0;
    const res = await this.limiter(rule).get(key);
    if (!res || res.consumedPoints < rule.max) return 0;
    return secondsOf(res.msBeforeNext);
  }

  async hit(key: string, rule: RateLimitRule | null): Promise<void> {
    if (!rule) return;
    await this.limiter(rule).penalty(key, 1);
  }

  async count(key: string, rule: RateLimitRule): Promise<number> {
    return (await this.limiter(rule).penalty(key, 1)).consumedPoints;
  }

  async consume(key: string, rule: RateLimitRule | null): Promise<void> {
    if (!rule) return;
    try {
      await this.limiter(rule).consume(key, 1);
    } catch (error) {
      // The library rejects with a RateLimiterRes when the points are used up, with an Error otherwise.
      if (error instanceof RateLimiterRes) throw rateLimited(secondsOf(error.msBeforeNext));
      throw error;
    }
  }

  async refund(key: string, rule: RateLimitRule | null): Promise<void> {
    if (!rule) return;
    const limiter = this.limiter(rule);
    if (await limiter.get(key)) await limiter.reward(key, 1);
  }

  async check(key: string, rule: RateLimitRule | null): Promise<void> {
    const wait = await this.retryAfter(key, rule);
    if (wait > 0) throw rateLimited(wait);
  }

  async reset(key: string): Promise<void> {
    // Any rule's limiter deletes the key: they share the prefix and the backend.
    await this.limiter({ max: 1, windowSeconds: 1 }).delete(key);
  }

  purgeExpired(): Promise<number> {
    return this.backend.purge(this.clock.now());
  }
}

/** A block without end reads as a day (Retry-After needs a number). */
function secondsOf(msBeforeNext: number): number {
  return msBeforeNext < 0 ? 86_400 : Math.max(1, Math.ceil(msBeforeNext / 1000));
}

/**
 * The limiter of a server: in the database when it runs on PostgreSQL; on PGlite an account's budgets in the
 * database and the rest in memory (`memory` may be given to watch it).
 */
export function createLimiter(options: {
  clock: Clock;
  db: Database;
  shared: boolean;
  memory?: MemoryBackend;
}): Limiter {
  const stored = new PostgresBackend(options.db);
  return options.shared
    ? new FlexibleLimiter(options.clock, stored)
    : new FlexibleLimiter(options.clock, new SplitBackend(stored, options.memory ?? new MemoryBackend()));
}

/** 429 RATE_LIMITED with `Retry-After` and `params.retryAfter` (seconds). */
export function rateLimited(retryAfterSeconds: number): AppError {
  const seconds = String(Math.max(1, Math.ceil(retryAfterSeconds)));
  return new AppError("RATE_LIMITED", { params: { retryAfter: seconds }, headers: { "retry-after": seconds } });
}
