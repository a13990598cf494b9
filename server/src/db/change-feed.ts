/**
 * What the server keeps in memory between requests — the settings (the maintenance flag among
 * them), live sessions and per user the row, the pulse, the balances and the unread count — and how it learns that they changed, on PGlite and
 * across several instances on one PostgreSQL.
 *
 * Triggers of the database (migration `0009_change_feed`) send `NOTIFY kassa_changes` with the key
 * that changed when a transaction that changed it commits: `settings` (any write of the settings
 * table), `catalog` (any write of the payment systems, the plans or the crypto cases), `session:<id>` (a session revoked, its
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
 * notifications may have been missed. Entries also expire after `ttlMs` as a last bound. Each cache is
 * bounded in bytes and keeps what was used most recently (`keptBudgetBytes`); a change drops exactly the
 * entry it names (a session by its id, a user's by the user's id), never a whole cache.
 */
import { randomUUID } from "node:crypto";
import v8 from "node:v8";
import { sql } from "drizzle-orm";
import type { Database } from "./client";

const CHANGES_CHANNEL = "kassa_changes";

/**
 * What one kept entry costs beyond its key and value, in V8's heap (64-bit, no pointer compression): the
 * entry's object (a header and six slots; its order of use and its place boxed once they outgrow a small
 * integer), 104 bytes; and its slot in the cache's map, 112 bytes: a slot is 28 bytes (key, value, chain and a share
 * of the buckets) and a map whose entries move to the back (a delete and a set, the holes kept until the table is
 * full, then grown) holds up to four slots per live entry — measured: 105 bytes an entry for 70,000 entries when
 * every read moved its entry.
 */
const ENTRY_BYTES = 104;
const MAP_SLOT_BYTES = 112;
/** A WeakMap's slot (the reply serializer's, a reply to its JSON): measured 42 bytes an entry for 200,000 entries. */
const WEAK_SLOT_BYTES = 48;
/** A kept reply's JSON slot (`REPLY_JSON`): an object of two fields, as `weigh` counts one. */
const JSON_SLOT_BYTES = 56;

/**
 * Where a kept reply (a cache's with `reply`) keeps the JSON it is written as: a slot of its own, a non-enumerable
 * property given before the copy is frozen, which the serializer fills the first time (routes/reply-json.ts) and
 * reads after without a lookup in a WeakMap of every kept reply. `schema` is the contract schema the JSON was
 * checked against.
 */
export const REPLY_JSON = Symbol("reply JSON");
export interface JsonSlot {
  schema: unknown;
  json: string | null;
}

/** A character outside Latin-1: V8 then keeps the string at two bytes a character. */
const NOT_LATIN1 = /[\u0100-\uffff]/;

/** Rounds up to V8's 8-byte allocation unit. */
const aligned = (bytes: number): number => Math.ceil(bytes / 8) * 8;

/**
 * How many bytes of V8's heap `value` takes at most, as the caches keep it: their own copy (`ownCopy`), whose
 * strings are flat and whose objects have fast properties. A string its 16-byte header and a byte a character, two
 * where one is not Latin-1; an object its header, four slots and a store for more fields, grown three at a time
 * (past 128 fields, a dictionary: three slots per entry, 1.5 entries of room per field, rounded up to a power of two);
 * an array its header, store and slots; a date 96 bytes; a number outside the small integers a boxed double; a
 * map its table, up to two slots per entry. Weighed once, when an entry is kept (`memory-bounds.test.ts` holds
 * the estimate against the heap actually used).
 */
function weigh(value: unknown, depth = 0): number {
  if (value === null || value === undefined || typeof value === "boolean") return 0;
  if (typeof value === "string") {
    const wide = NOT_LATIN1.test(value);
    // The empty string and those of one Latin-1 character exist once in V8 (a copy is the same string).
    if (value.length <= 1 && !wide) return 0;
    return aligned(16 + (wide ? 2 : 1) * value.length);
  }
  if (typeof value === "number") return Number.isInteger(value) && Math.abs(value) < 2 ** 31 ? 0 : 16;
  if (typeof value === "bigint") return aligned(16 + 8 * Math.ceil(value.toString(16).length / 16));
  if (typeof value !== "object" || depth > 8) return 64;
  if (value instanceof Date) return 96;
  if (value instanceof Map) {
    let bytes = 32 + 48 + 2 * 28 * Math.max(value.size, 2);
    for (const [k, v] of value) bytes += weigh(k, depth + 1) + weigh(v, depth + 1);
    return bytes;
  }
  if (Array.isArray(value)) {
    let bytes = 32 + 16 + 8 * value.length;
    for (const inner of value) bytes += weigh(inner, depth + 1);
    return bytes;
  }
  // A copy's object: a header and four slots of its own, more fields in a store grown three slots at a time.
  const fields = Object.values(value);
  let bytes =
    fields.length > 128
      ? 24 + 56 + 24 * 2 ** Math.ceil(Math.log2(fields.length * 1.5))
      : 56 + (fields.length > 4 ? 16 + 24 * Math.ceil((fields.length - 4) / 3) : 0);
  for (const inner of fields) bytes += weigh(inner, depth + 1);
  return bytes;
}

/**
 * The copy of `value` a cache keeps: a structured clone, so that what it holds has the layout `weigh` counts
 * whoever built the value — flat strings (a string joined of pieces, as `crypto.randomUUID()` returns one, holds
 * 472 bytes for 36 characters), fast objects (a row built field by field may be a dictionary: 1.6 kB for 22 fields
 * instead of 208 bytes), nothing of a larger string it was cut from. Frozen when `value` was (every caller shares
 * the kept value). Undefined when the value cannot be cloned (it is then not kept).
 */
function ownCopy<V>(value: V, jsonSlot = false): V | undefined {
  let copy: V;
  try {
    copy = structuredClone(value);
  } catch {
    return undefined;
  }
  if (jsonSlot && copy !== null && typeof copy === "object" && !Array.isArray(copy)) {
    const slot: JsonSlot = { schema: null, json: null };
    Object.defineProperty(copy, REPLY_JSON, { value: slot });
  }
  if (value !== null && typeof value === "object" && Object.isFrozen(value)) deepFreeze(copy);
  return copy;
}

/** What the JSON of `value` as a reply holds (its slot, a WeakMap's or its own, and the string), as `weigh` counts it. */
function weighJsonOf(value: unknown, slotBytes = WEAK_SLOT_BYTES): number {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return 0;
  }
  return json === undefined ? 0 : slotBytes + weigh(json);
}

function deepFreeze(value: unknown): void {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
}

/**
 * One memory budget shared by several caches: when they hold more than it together, the least recently used
 * entry of them all goes first, whichever cache holds it.
 */
export class KeptBudget {
  total = 0;
  /** The caches' order of use: each entry kept, and each moved to the back of its cache's order, takes the next number. */
  uses = 0;
  /** The entries the caches hold together. */
  entries = 0;
  private readonly caches: KeptCache<unknown>[] = [];

  constructor(readonly maxBytes: number) {}

  join(cache: KeptCache<unknown>): void {
    this.caches.push(cache);
  }

  /** Drops the least recently used entries until the caches are within the budget (`keepKey` of `keep` last of all). */
  trim(keep: KeptCache<unknown>, keepKey: string): void {
    while (this.total > this.maxBytes) {
      let oldest: KeptCache<unknown> | null = null;
      let oldestUsed = Number.POSITIVE_INFINITY;
      for (const cache of this.caches) {
        const used = cache.leastRecentUse(cache === keep ? keepKey : null);
        if (used < oldestUsed) {
          oldestUsed = used;
          oldest = cache;
        }
      }
      if (!oldest) return;
      oldest.dropLeastRecent(oldest === keep ? keepKey : null);
    }
  }
}

interface Entry<V> {
  value: V;
  /** When it was kept: the cache's clock in whole seconds (a small integer, not a boxed double); DROPPED once dropped. */
  at: number;
  /** When it was last read, in the budget's order of use. */
  used: number;
  /** Its place in its cache's order: the order of use when it was kept or last moved to the back. */
  placed: number;
  bytes: number;
  /** The key the change feed names the entry by, when it is not the cache key (a session's id, `indexBy`). */
  tag: string | null;
}

/** An entry's time once it is dropped: as if kept long before any `ttlMs`, so a link to it never answers (`KeptLink`). */
const DROPPED = -(2 ** 30);

/**
 * Where a caller keeps, between its calls, the entry a cache holds for one key: `get(key, read, link)` answers from
 * the linked entry while the cache keeps it, without looking the key up in the cache's map, and links the entry it
 * answered from or kept. A kept session's row links its user's money (`userMoney`), so a kept `GET /user/balance` looks up
 * one map of 50,000 entries, the sessions', not two. A link serves one key of one cache; an entry dropped is never
 * answered through it (its value let go: the link holds at most the entry's own few fields until it moves on).
 */
export interface KeptLink {
  linked?: unknown;
  linkedIn?: unknown;
}

export interface KeptCacheOptions<V> {
  /** The most bytes (as `weigh` counts them, key and entry included) the cache keeps, alone or with others; the least recently used go first. */
  budget: KeptBudget;
  /** An entry is read again from the database at the latest this long after it was kept. */
  ttlMs: number;
  /** The change-feed key a cache key (with the value read for it) moves with. */
  feedKey: (key: string, value: V) => string | null;
  /**
   * The key the change feed names an entry by, when it comes from the value and not the cache key (sessions: kept by
   * token hash, announced by id): the cache then indexes its entries by it to drop exactly the one announced
   * (`invalidateIndexed`). A string of the kept value itself, so the index weighs only its map slot.
   */
  indexBy?: (value: V) => string | null;
  /** Whether a value is worth keeping (a session token nobody holds is not: a stranger could fill the cache). */
  keeps?: (value: V) => boolean;
  /** The cache's clock in milliseconds, for `ttlMs` (`performance.now` unless a test drives it). */
  now?: () => number;
  /**
   * Whether a kept value is a call's reply as it is (the balance, the pulse): the kept copy gets a slot for the
   * reply's JSON (`REPLY_JSON`), which the serializer fills (routes/reply-json.ts), weighed with it.
   */
  reply?: boolean;
}

/** The counters of one cache (readiness shows them): hits, reads from the database, and what it holds. */
export interface KeptStats {
  hits: number;
  misses: number;
  entries: number;
  kB: number;
}

/** A value at once or, when it has to be read, a promise of it (what a kept cache's `get` gives). */
export type Awaitable<T> = T | Promise<T>;

/** `next` of `value`: at once when `value` is there (no turn of the event loop), else once it arrives. */
export function andThen<T, R>(value: Awaitable<T>, next: (value: T) => Awaitable<R>): Awaitable<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/** A key-value cache invalidated by the change feed (see the module comment). */
export class KeptCache<V> {
  /** In order of use: the least recently used first. */
  private readonly entries = new Map<string, Entry<V>>();
  private readonly tagged = new Map<string, string>();
  private readonly reading = new Map<string, Set<{ stale: boolean }>>();
  /** The entries from the least recently used on, and the first of them, kept between drops (`front`). */
  private cursor: MapIterator<[string, Entry<V>]> | null = null;
  private head: [string, Entry<V>] | null = null;
  private bytes = 0;
  hits = 0;
  misses = 0;

  private readonly now: () => number;

  constructor(
    private readonly feed: ChangeFeed,
    private readonly options: KeptCacheOptions<V>,
  ) {
    options.budget.join(this as KeptCache<unknown>);
    this.now = options.now ?? (() => performance.now());
  }

  /**
   * The kept value of `key` — itself, not a promise: a call answered from memory takes no turn of the event loop
   * for it — or, as a promise, the value `read` returns (kept when no change overlapped it). With `link`, the entry
   * linked there is read first, without a lookup in the map (`KeptLink`).
   */
  get(key: string, read: () => Promise<V>, link?: KeptLink): Awaitable<V> {
    let hit = link !== undefined && link.linkedIn === this ? (link.linked as Entry<V>) : undefined;
    if (hit === undefined || hit.at === DROPPED) hit = this.entries.get(key);
    if (hit) {
      if (this.now() - hit.at * 1000 < this.options.ttlMs) {
        if (link !== undefined && link.linked !== hit) {
          link.linked = hit;
          link.linkedIn = this;
        }
        this.hits++;
        // Used now. It moves to the back of the order only when the budget is full and it comes up first
        // (`leastRecentUse`), not on every read: moving an entry is a delete and a set in a large map (V8's Map is
        // slow at doing that to one key over and over: ~20 µs a time with 20,000 entries), and with 50,000
        // investors polling two such moves a request were most of what set their calls apart from one investor's.
        hit.used = this.options.budget.uses++;
        return hit.value;
      }
      this.drop(key, hit);
    }
    return this.load(key, read, link);
  }

  private async load(key: string, read: () => Promise<V>, link: KeptLink | undefined): Promise<V> {
    this.misses++;
    const ticket = { stale: !this.feed.listening };
    let tickets = this.reading.get(key);
    if (!tickets) {
      tickets = new Set();
      this.reading.set(key, tickets);
    }
    tickets.add(ticket);
    try {
      const value = await read();
      // A change this process is making and the database has not announced yet: keep nothing.
      const feedKey = this.options.feedKey(key, value);
      const changing = feedKey !== null && this.feed.isChanging(feedKey);
      const worth = this.options.keeps ? this.options.keeps(value) : true;
      if (!ticket.stale && !changing && worth && this.feed.listening) {
        // The kept copy is what every caller gets from now on, this one too (a caller may note on it what it wrote).
        const copy = ownCopy(value, this.options.reply);
        if (copy !== undefined) {
          const entry = this.set(key, copy);
          if (link !== undefined) {
            link.linked = entry;
            link.linkedIn = this;
          }
          return copy;
        }
      }
      return value;
    } finally {
      tickets.delete(ticket);
      if (tickets.size === 0) this.reading.delete(key);
    }
  }

  private set(callerKey: string, value: V): Entry<V> {
    const old = this.entries.get(callerKey);
    if (old) this.drop(callerKey, old);
    // A string of the cache's own, flat (a key joined of pieces would keep the pieces).
    const key = ownCopy(callerKey) ?? callerKey;
    // The value's own string (weighed with it): the index adds its map slot alone.
    const tag = this.options.indexBy?.(value) ?? null;
    const bytes =
      ENTRY_BYTES +
      MAP_SLOT_BYTES +
      weigh(key) +
      weigh(value) +
      (tag === null ? 0 : MAP_SLOT_BYTES) +
      (this.options.reply ? weighJsonOf(value, JSON_SLOT_BYTES) : 0);
    const used = this.options.budget.uses++;
    const entry: Entry<V> = { value, at: Math.floor(this.now() / 1000), used, placed: used, bytes, tag };
    this.entries.set(key, entry);
    this.options.budget.entries++;
    if (tag !== null) this.tagged.set(tag, key);
    this.bytes += bytes;
    this.options.budget.total += bytes;
    this.options.budget.trim(this as KeptCache<unknown>, key);
    return entry;
  }

  /**
   * Weighs `made` — a value made from the kept `value` of `key` and kept as long as it (db/derived.ts: a reply and
   * its JSON) — with that entry, so that the budget bounds it too. Nothing when the entry holds another value by now.
   */
  keepBeside(key: string, value: V, made: unknown): void {
    const entry = this.entries.get(key);
    if (entry?.value !== value) return;
    const bytes = weigh(made) + weighJsonOf(made);
    entry.bytes += bytes;
    this.bytes += bytes;
    this.options.budget.total += bytes;
    this.options.budget.trim(this as KeptCache<unknown>, key);
  }

  /**
   * When this cache's least recently used entry was last read (not counting `except`); +∞ when none. The entries
   * read since they took their place go to the back first (a second chance, as the CLOCK algorithm gives), so the
   * first entry is then one not read since it was kept or moved: the least recently used, or nearly (an entry moved
   * here goes behind entries kept after it was read).
   */
  leastRecentUse(except: string | null): number {
    return this.front(except)?.[1].used ?? Number.POSITIVE_INFINITY;
  }

  /** Drops this cache's least recently used entry (not `except`). */
  dropLeastRecent(except: string | null): void {
    const front = this.front(except);
    if (front === null) return;
    this.head = null;
    this.drop(...front);
  }

  /**
   * The first entry in this cache's order but `except`, once the entries read since they took their place have gone
   * to the back. Walked with one iterator kept between calls (a map iterator goes on past deletions and moves): a
   * new one starts at the map's front and walks every place the entries dropped before it left, which V8 frees only
   * when the map is rebuilt (at the budget a new entry cost 21–70 µs, ~4 µs with this). `except`, passed over, comes
   * up again once the walk has gone round.
   */
  private front(except: string | null): [string, Entry<V>] | null {
    let wrapped = false;
    for (;;) {
      if (this.head === null) {
        this.cursor ??= this.entries.entries();
        const next = this.cursor.next();
        if (next.done) {
          this.cursor = null;
          if (wrapped) return null;
          wrapped = true;
          continue;
        }
        this.head = next.value;
      }
      const [key, entry] = this.head;
      if (key === except || this.entries.get(key) !== entry) {
        // Passed over, or dropped (or kept anew) since it came up.
        this.head = null;
        continue;
      }
      if (entry.used !== entry.placed) {
        this.entries.delete(key);
        this.entries.set(key, entry);
        entry.placed = entry.used;
        this.head = null;
        continue;
      }
      return this.head;
    }
  }

  private drop(key: string, entry: Entry<V>): void {
    this.entries.delete(key);
    // A link may still point here: it no longer answers, nor holds the value.
    entry.at = DROPPED;
    entry.value = undefined as V;
    this.options.budget.entries--;
    this.bytes -= entry.bytes;
    this.options.budget.total -= entry.bytes;
    if (entry.tag !== null && this.tagged.get(entry.tag) === key) this.tagged.delete(entry.tag);
  }

  /** How many entries the cache holds. */
  get size(): number {
    return this.entries.size;
  }

  /** About how many bytes the cache holds (as `weigh` counts them). */
  get weight(): number {
    return this.bytes;
  }

  stats(): KeptStats {
    return { hits: this.hits, misses: this.misses, entries: this.entries.size, kB: Math.round(this.bytes / 1024) };
  }

  /** Drops the entry of `key` (a cache whose feed key is its key's own). */
  invalidate(key: string): void {
    const entry = this.entries.get(key);
    if (entry) this.drop(key, entry);
    for (const ticket of this.reading.get(key) ?? []) ticket.stale = true;
  }

  /**
   * Drops the entry the change feed named `index` (a cache indexed by value, `indexBy`): exactly that one. A read in
   * flight cannot be told apart before its value arrives, so none of them is kept.
   */
  invalidateIndexed(index: string): void {
    const key = this.tagged.get(index);
    if (key !== undefined) {
      const entry = this.entries.get(key);
      if (entry) this.drop(key, entry);
    }
    for (const tickets of this.reading.values()) for (const ticket of tickets) ticket.stale = true;
  }

  clear(): void {
    this.options.budget.entries -= this.entries.size;
    for (const entry of this.entries.values()) {
      entry.at = DROPPED;
      entry.value = undefined as V;
    }
    this.entries.clear();
    this.cursor = null;
    this.head = null;
    this.tagged.clear();
    this.options.budget.total -= this.bytes;
    this.bytes = 0;
    for (const tickets of this.reading.values()) for (const ticket of tickets) ticket.stale = true;
  }
}

type Listener = (key: string | null) => void;

/** How long a change this process announced waits for the database's notification at most. */
const CHANGING_MS = 5000;
/** How long a sync notification (`reach`) may take to come back before the caches are dropped instead. */
const SYNC_PATIENCE_MS = 2000;

/** A WAL position (`16/B374D848`) as a number, or null when it is not one. */
function parseLsn(text: string): bigint | null {
  const match = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i.exec(text);
  if (!match) return null;
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

/**
 * A WAL position as `Kassa-Seen` carries it: 16 upper-case hex digits (`00000016B374D848`), so that the app keeps
 * the highest of two by comparing the strings. Null when `text` is not one.
 */
function parseSeen(text: string): bigint | null {
  return /^[0-9A-F]{16}$/.test(text) ? BigInt(`0x${text}`) : null;
}

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

  /**
   * Read-your-writes across instances (PostgreSQL): the WAL position up to which this instance has heard every
   * notification. A reply to a write carries the position after its commit (`Kassa-Seen`, plugins/read-your-writes.ts);
   * a request that brings one this instance has not reached waits for `reach` first.
   */
  private reached = 0n;
  private barrier: Promise<void> | null = null;
  private readonly syncs = new Map<string, () => void>();
  private db: Database | null = null;
  /** Whether other processes may write (PostgreSQL): on PGlite every write is this process's, heard at once. */
  shared = false;

  /** The database's WAL position now, as `Kassa-Seen` carries it (after a write has committed; see `parseSeen`). */
  async position(): Promise<string | null> {
    if (!this.shared || !this.db) return null;
    const rows = await this.db.execute(sql`select pg_current_wal_lsn()::text as lsn`);
    const at = parseLsn((rows as unknown as { lsn: string }[])[0]?.lsn ?? "");
    return at === null ? null : at.toString(16).toUpperCase().padStart(16, "0");
  }

  /**
   * Returns once every change committed before WAL position `seen` has been heard (and so dropped from the
   * caches). Past what this instance reached, it sends a notification of its own and waits for it to come
   * back: notifications arrive in commit order, so every earlier commit's have arrived before it. One such
   * round trip at a time serves every request waiting.
   */
  async reach(seen: string): Promise<void> {
    const target = parseSeen(seen);
    if (target === null || !this.shared || !this.db) return;
    for (let tries = 0; tries < 3 && target > this.reached; tries++) {
      this.barrier ??= this.sync().finally(() => {
        this.barrier = null;
      });
      await this.barrier;
    }
  }

  private async sync(): Promise<void> {
    const db = this.db;
    if (!db || !this.listening) return;
    const key = `sync:${randomUUID()}`;
    let timer: NodeJS.Timeout | undefined;
    const heard = new Promise<boolean>((resolve) => {
      this.syncs.set(key, () => resolve(true));
      timer = setTimeout(() => resolve(false), SYNC_PATIENCE_MS);
    });
    try {
      const rows = await db.execute(
        sql`select pg_current_wal_lsn()::text as lsn, pg_notify(${CHANGES_CHANNEL}, ${key}) as sent`,
      );
      const at = parseLsn((rows as unknown as { lsn: string }[])[0]?.lsn ?? "");
      if (await heard) {
        if (at !== null && at > this.reached) this.reached = at;
      } else {
        // The notification did not come back: what was missed is unknown, so nothing kept stays.
        for (const listener of this.listeners) listener(null);
      }
    } finally {
      clearTimeout(timer);
      this.syncs.delete(key);
    }
  }

  private announced(key: string): void {
    if (key.startsWith("sync:")) {
      this.syncs.get(key)?.();
      return;
    }
    this.changingSince.delete(key);
    if (key === "*") this.changingSince.clear();
    this.changed(key);
  }

  onChange(listener: Listener): void {
    this.listeners.push(listener);
  }

  /** Starts listening on the database behind `db` (postgres.js or PGlite). */
  async start(db: Database): Promise<void> {
    const client = (db as unknown as { $client: unknown }).$client as ListenClient;
    this.db = db;
    this.shared = isPostgresJs(client);
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
  /**
   * Per user id: the pulse, the balances with the current currency of the user's row (`userMoney`,
   * services/ledger.ts), the unread count (all move with `user:<id>`).
   */
  pulse: KeptCache<unknown>;
  balances: KeptCache<unknown>;
  unread: KeptCache<number>;
  /** Per user id: the user's row (every update of it announces `user:<id>`). */
  users: KeptCache<unknown>;
  /**
   * The payment systems, the plans and the crypto cases (any write of their tables announces `catalog`; migrations
   * `0011_partner_totals`, `0029_catalog_plans`).
   */
  catalog: KeptCache<unknown>;
}

/**
 * What the caches may hold together: a third of V8's heap limit (`--max-old-space-size`, which `npm start`
 * sets, and the young generation), one budget for the sessions and every user's row, pulse, balances and unread
 * count. Kept by recent use: when the budget is full the least recently used entry of any of them goes first.
 * Under `npm start` that is 72 MB (a third of 192 MB old and 24 MB young). `GET /user/balance` keeps two entries an
 * investor, the session (616 bytes as `weigh` counts it: kept by the token's 32-character digest, indexed by its own
 * id) and the balances with the current currency and the reply's JSON (632), so 50,000 investors reading their
 * balance within a minute take 59.5 MB and stay in memory (`kept-at-scale.test.ts`, held to 64 MB, the old space's
 * third). A route that kept the user's whole row besides (744 bytes, 1,248 with a
 * full profile) for one field filled the budget at ~42,900 investors, and a pass over 50,000 in the same order then
 * found each entry just dropped.
 */
export function keptBudgetBytes(heapLimitBytes = v8.getHeapStatistics().heap_size_limit): number {
  return Math.floor(heapLimitBytes / 3);
}
/**
 * An entry is read again from the database at the latest this long after it was kept. The change feed drops
 * every entry that changed at once; this only bounds what no trigger announces (a balance row edited by hand).
 * Counted from when the entry was kept, not from its last read: an investor active all along has the entry
 * read again once per this time — at 60 s that capped the hits at 95 % for an app polling every 3 s, and a pass
 * of 50,000 investors that took longer than a minute found nothing kept.
 */
const KEPT_TTL_MS = 10 * 60_000;

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

/**
 * A catalogue table (the payment systems, the plans, the crypto cases: a few rows each) by id: kept in memory until
 * any of the catalogue's tables changes (`catalog`), read from the table when `db` has no caches (a transaction).
 */
export async function catalogRows<Row extends { id: string }>(
  db: Database,
  key: "paymentSystems" | "plans" | "cryptoCases",
  rows: () => Promise<Row[]>,
): Promise<ReadonlyMap<string, Row>> {
  const read = async () => new Map((await rows()).map((row) => [row.id, row]));
  const kept = keptOf(db);
  return kept ? ((await kept.catalog.get(key, read)) as ReadonlyMap<string, Row>) : read();
}

/** Sets up (once per handle) the caches of `db` and starts listening for changes. */
export async function startKept(
  db: Database,
  budgetBytes = keptBudgetBytes(),
  { now }: { now?: () => number } = {},
): Promise<Kept> {
  const existing = registry.get(db);
  if (existing) return existing;
  const feed = new ChangeFeed();
  const user = (id: string) => `user:${id}`;
  const budget = new KeptBudget(budgetBytes);
  const perUser = <V>(): KeptCacheOptions<V> => ({ budget, ttlMs: KEPT_TTL_MS, feedKey: user, now });
  const small = <V>(key: string): KeptCacheOptions<V> => ({
    budget: new KeptBudget(1 << 20),
    ttlMs: KEPT_TTL_MS,
    feedKey: () => key,
    now,
  });
  const kept: Kept = {
    feed,
    settings: new KeptCache(feed, small("settings")),
    sessions: new KeptCache<unknown>(feed, {
      budget,
      ttlMs: KEPT_TTL_MS,
      feedKey: (_key, row) => (row ? `session:${(row as { sessionId: string }).sessionId}` : null),
      indexBy: (row) => (row as { sessionId: string }).sessionId,
      keeps: (row) => row !== null,
      now,
    }),
    pulse: new KeptCache(feed, { ...perUser(), reply: true }),
    balances: new KeptCache(feed, { ...perUser(), reply: true }),
    unread: new KeptCache(feed, perUser<number>()),
    users: new KeptCache(feed, perUser()),
    catalog: new KeptCache(feed, small("catalog")),
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
    else if (key.startsWith("session:")) kept.sessions.invalidateIndexed(key.slice(8));
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

/** Each cache's counters, for readiness. */
export function keptStats(db: Database): Record<string, KeptStats> | undefined {
  const kept = registry.get(db);
  if (!kept) return undefined;
  const { feed: _feed, ...caches } = kept;
  return Object.fromEntries(Object.entries(caches).map(([name, cache]) => [name, cache.stats()]));
}

/** Stops listening; the caches keep nothing after. */
export async function stopKept(db: Database): Promise<void> {
  const kept = registry.get(db);
  if (!kept) return;
  registry.delete(db);
  live.delete(kept);
  await kept.feed.close();
}
