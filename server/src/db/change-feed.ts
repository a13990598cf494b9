/**
 * What the server keeps in memory between requests — the settings (the maintenance flag among
 * them), live sessions and per user the row, the pulse, the balances and the unread count — and how it learns that they changed, on PGlite and
 * across several instances on one PostgreSQL.
 *
 * Triggers of the database (migration `0009_change_feed`) send `NOTIFY kassa_changes` with the key
 * that changed when a transaction that changed it commits: `settings` (any write of the settings
 * table), `catalog` (any write of the payment systems), `session:<id>` (a session revoked, its
 * expiry moved, deleted), `user:<id>` (an operation
 * or a notification of that user, or its row updated; migration `0010_user_changes`), `*` (a table
 * emptied: everything). Every instance LISTENs and drops what it kept under that key,
 * whoever wrote it: this instance, another one, the operator's command line, a hand-written SQL
 * statement. On PGlite (one process) the notification arrives before the writing statement
 * returns; on PostgreSQL a moment after the commit (the writing instance also drops its own copy
 * at once where it writes through the services).
 *
 * A read that overlaps a change is not kept (its result may predate the change), so a cache never
 * holds something older than the last notification. When the feed is not listening (it has not
 * started, or its connection dropped and came back) nothing is kept and everything is dropped:
 * notifications may have been missed. Entries also expire after `ttlMs` as a last bound; an
 * expired entry is dropped when the cache next keeps something, so a cache's size follows the last
 * minute's callers, up to its cap.
 */
import type { Database } from "./client";

export const CHANGES_CHANNEL = "kassa_changes";

/** A key-value cache invalidated by the change feed (see the module comment). */
export class KeptCache<V> {
  private readonly entries = new Map<string, { value: V; at: number }>();
  private readonly reading = new Map<string, Set<{ stale: boolean }>>();

  constructor(
    private readonly feed: ChangeFeed,
    private readonly maxEntries: number,
    private readonly ttlMs: number,
    /** The change-feed key a cache key moves with. */
    private readonly feedKey: (key: string) => string,
  ) {}

  /** The kept value of `key`, or the value `read` returns (kept when no change overlapped it). */
  async get(key: string, read: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    if (hit && performance.now() - hit.at < this.ttlMs) return hit.value;
    // A change this process is making and the database has not announced yet: read, keep nothing.
    const ticket = { stale: !this.feed.listening || this.feed.isChanging(this.feedKey(key)) };
    let tickets = this.reading.get(key);
    if (!tickets) {
      tickets = new Set();
      this.reading.set(key, tickets);
    }
    tickets.add(ticket);
    try {
      const value = await read();
      if (!ticket.stale && this.feed.listening) this.set(key, value);
      return value;
    } finally {
      tickets.delete(ticket);
      if (tickets.size === 0) this.reading.delete(key);
    }
  }

  private set(key: string, value: V): void {
    const now = performance.now();
    this.entries.delete(key);
    this.entries.set(key, { value, at: now });
    // The map is in the order the entries were kept (a value is kept again only once it expired),
    // so the expired ones and those over the cap are at its front.
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries && now - entry.at < this.ttlMs) break;
      this.entries.delete(oldest);
    }
  }

  /** How many entries the cache holds. */
  get size(): number {
    return this.entries.size;
  }

  invalidate(key: string): void {
    this.entries.delete(key);
    for (const ticket of this.reading.get(key) ?? []) ticket.stale = true;
  }

  clear(): void {
    this.entries.clear();
    for (const tickets of this.reading.values()) for (const ticket of tickets) ticket.stale = true;
  }
}

type Listener = (key: string | null) => void;

/** How long a change this process announced waits for the database's notification at most. */
const CHANGING_MS = 5000;

/** The notifications of one database; `null` to listeners means "anything may have changed". */
export class ChangeFeed {
  listening = false;
  private readonly listeners: Listener[] = [];
  private readonly changingSince = new Map<string, number>();
  private stop: (() => Promise<void>) | null = null;

  /** Tells this process's caches at once (the writer's own change; others hear the NOTIFY). */
  changed(key: string): void {
    for (const listener of this.listeners) listener(key);
  }

  /**
   * A transaction of this process is changing `key`: drop it now, and keep nothing read for it
   * until the database's notification (sent at commit) arrives, or CHANGING_MS after a rollback.
   */
  changing(key: string): void {
    this.changingSince.set(key, performance.now());
    this.changed(key);
  }

  isChanging(key: string): boolean {
    const since = this.changingSince.get(key);
    if (since === undefined) return false;
    if (performance.now() - since < CHANGING_MS) return true;
    this.changingSince.delete(key);
    return false;
  }

  private announced(key: string): void {
    this.changingSince.delete(key);
    if (key.startsWith("session:")) this.changingSince.delete("session:*");
    if (key === "*") this.changingSince.clear();
    this.changed(key);
  }

  onChange(listener: Listener): void {
    this.listeners.push(listener);
  }

  /** Starts listening on the database behind `db` (postgres.js or PGlite). */
  async start(db: Database): Promise<void> {
    const client = (db as unknown as { $client: unknown }).$client as ListenClient;
    const deliver = (payload: string | undefined) => {
      if (payload) this.announced(payload);
    };
    const everything = () => {
      this.changingSince.clear();
      for (const listener of this.listeners) listener(null);
    };
    if (isPostgresJs(client)) {
      // postgres.js listens on a connection of its own and listens again after it reconnects,
      // calling `onlisten` each time: notifications in between may be lost, so drop everything.
      const handle = await client.listen(CHANGES_CHANNEL, deliver, () => {
        everything();
        this.listening = true;
      });
      this.stop = async () => {
        this.listening = false;
        await handle.unlisten();
      };
    } else {
      const unlisten = await client.listen(CHANGES_CHANNEL, deliver);
      this.listening = true;
      this.stop = async () => {
        this.listening = false;
        await unlisten();
      };
    }
  }

  /** Stops listening (a database already closed has stopped it). */
  async close(): Promise<void> {
    const stop = this.stop;
    this.stop = null;
    this.listening = false;
    await stop?.().catch(() => {});
  }
}

type ListenClient =
  | {
      listen(
        channel: string,
        fn: (payload: string) => void,
        onlisten: () => void,
      ): Promise<{ unlisten(): Promise<void> }>;
      unsafe: unknown;
    }
  | { listen(channel: string, fn: (payload: string) => void): Promise<() => Promise<void>> };

function isPostgresJs(client: ListenClient): client is Extract<ListenClient, { unsafe: unknown }> {
  return typeof (client as { unsafe?: unknown }).unsafe === "function";
}

/** The caches of one database handle (registered by the app; transactions have none). */
export interface Kept {
  feed: ChangeFeed;
  settings: KeptCache<unknown>;
  sessions: KeptCache<unknown>;
  /** Per user id: the pulse, the balances, the unread count (all move with `user:<id>`). */
  pulse: KeptCache<unknown>;
  balances: KeptCache<unknown>;
  unread: KeptCache<number>;
  /** Per user id: the user's row (every update of it announces `user:<id>`). */
  users: KeptCache<unknown>;
  /** The payment systems (any write of the table announces `catalog`; migration `0011_partner_totals`). */
  catalog: KeptCache<unknown>;
}

/**
 * How many sessions, and how many users' rows, pulses, balances and unread counts, each cache keeps
 * at most; the longest kept go first. Bounded by count, so by bytes through what an entry weighs in
 * V8's heap: a user who calls keeps an entry in each of the five, about 2.2–2.5 kB together with the
 * demo's rows (a full row of every field about 6 kB). At 5,000 the caches hold about 12 MB at their
 * fullest (`memory-bounds.test.ts`); at the 50,000 of before they held 32 MB for 15,000 users and
 * about 110 MB full. 5,000 users calling within a minute still read from memory; past that the
 * oldest are read from the database again.
 */
export const KEPT_PER_CACHE = 5_000;
/** An entry is read again from the database at the latest this long after it was kept. */
export const KEPT_TTL_MS = 60_000;

const registry = new WeakMap<object, Kept>();
const live = new Set<Kept>();

/**
 * A write of this process (inside a transaction, where no cache is at hand) is changing the
 * user's money or notifications: every cache of the process drops the user and keeps nothing
 * for it until the database announces the commit (user ids are unique across databases).
 */
export function userChanging(userId: string): void {
  for (const kept of live) kept.feed.changing(`user:${userId}`);
}

/** The caches of `db`, when the app set them up for it; undefined inside a transaction. */
export function keptOf(db: Database): Kept | undefined {
  return registry.get(db);
}

/** Sets up (once per handle) the caches of `db` and starts listening for changes. */
export async function startKept(db: Database): Promise<Kept> {
  const existing = registry.get(db);
  if (existing) return existing;
  const feed = new ChangeFeed();
  const user = (id: string) => `user:${id}`;
  const kept: Kept = {
    feed,
    settings: new KeptCache(feed, 100, KEPT_TTL_MS, () => "settings"),
    sessions: new KeptCache(feed, KEPT_PER_CACHE, KEPT_TTL_MS, () => "session:*"),
    pulse: new KeptCache(feed, KEPT_PER_CACHE, KEPT_TTL_MS, user),
    balances: new KeptCache(feed, KEPT_PER_CACHE, KEPT_TTL_MS, user),
    unread: new KeptCache(feed, KEPT_PER_CACHE, KEPT_TTL_MS, user),
    users: new KeptCache(feed, KEPT_PER_CACHE, KEPT_TTL_MS, user),
    catalog: new KeptCache(feed, 10, KEPT_TTL_MS, () => "catalog"),
  };
  feed.onChange((key) => {
    if (key === null || key === "*") {
      kept.settings.clear();
      kept.sessions.clear();
      kept.pulse.clear();
      kept.balances.clear();
      kept.unread.clear();
      kept.users.clear();
      kept.catalog.clear();
    } else if (key === "settings") kept.settings.clear();
    else if (key === "catalog") kept.catalog.clear();
    else if (key.startsWith("session:")) kept.sessions.clear();
    else if (key.startsWith("user:")) {
      const id = key.slice(5);
      kept.pulse.invalidate(id);
      kept.balances.invalidate(id);
      kept.unread.invalidate(id);
      kept.users.invalidate(id);
    }
  });
  registry.set(db, kept);
  live.add(kept);
  await feed.start(db);
  return kept;
}

/** Stops listening; the caches keep nothing after. */
export async function stopKept(db: Database): Promise<void> {
  const kept = registry.get(db);
  if (!kept) return;
  registry.delete(db);
  live.delete(kept);
  await kept.feed.close();
}
