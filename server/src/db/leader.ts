/**
 * One holder at a time, for everything only one process may do: the bot's long polling and its
 * chat outbox, digests and menus (telegram/bot.ts), the scheduler's accruals and sweeper
 * (scheduler.ts). A lease, a row of `leases`: a holder takes `name` until now + its time to live and
 * renews it well before then; a clean stop deletes it; a holder killed (`kill -9`) stops renewing,
 * and another takes it over once it has expired.
 *
 * Why leases and not PostgreSQL's advisory locks (used here before for the jobs): a lease serves
 * the long-lived role (the bot, for the life of the process) and the one-off run alike without
 * pinning a pooled connection in a transaction held open and idle; it is bounded in time, so a
 * holder that hangs while its connection stays up loses it too; and it is one plain table on both
 * databases. On PGlite the folder lock (db/lock.ts) already makes this process the only one, and
 * its lease rows would outlive a `kill -9` into the next start: there the process holds every
 * lease without asking.
 *
 * Times are the process's wall clock (not the business clock, which development moves forward).
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Database, DatabaseKind } from "./client";
import { resultRows } from "./rows";

/** The leases' names. */
export const LEASES = {
  /** The bot: long polling, the chat outbox, the digest and the menus (telegram/bot.ts). */
  bot: "telegram-bot",
  /** The accrual run of the scheduler. */
  accruals: "accruals",
  /** The sweeper (expired withdrawal applications, stale rate-limit counters, orphan uploads). */
  sweeper: "sweeper",
} as const;

/** A lease's time to live, and how often its holder renews it. */
export const LEASE_TTL_MS = 30_000;
export const LEASE_RENEW_MS = 10_000;

/** Takes or renews `name` for `holder` until now + `ttlMs`; false while another holder's lease runs. */
export async function tryLease(db: Database, name: string, holder: string, ttlMs: number, now: Date): Promise<boolean> {
  const expires = new Date(now.getTime() + ttlMs);
  const rows = await db.execute<{ holder: string }>(sql`
    insert into leases (name, holder, expires_at) values (${name}, ${holder}, ${expires.toISOString()})
    on conflict (name) do update set holder = excluded.holder, expires_at = excluded.expires_at
      where leases.holder = excluded.holder or leases.expires_at < ${now.toISOString()}
    returning holder`);
  return resultRows(rows).length > 0;
}

/** Gives the lease up at once (a clean stop), so another process need not wait for it to expire. */
export async function releaseLease(db: Database, name: string, holder: string): Promise<void> {
  await db.execute(sql`delete from leases where name = ${name} and holder = ${holder}`);
}

/** Whether this process holds every lease without asking (PGlite: its folder lock, db/lock.ts). */
export function holdsAlone(kind: DatabaseKind): boolean {
  return kind !== "postgres";
}

export type Exclusive<T> = { ran: true; value: T } | { ran: false };

/**
 * Runs `work` when this process gets lease `name`, renewed while the work runs however long it
 * takes, and given up when it ends; `{ ran: false }` when another holder's lease runs.
 */
export async function runExclusive<T>(
  db: Database,
  kind: DatabaseKind,
  name: string,
  work: () => Promise<T>,
  options: { ttlMs?: number; renewMs?: number } = {},
): Promise<Exclusive<T>> {
  if (holdsAlone(kind)) return { ran: true, value: await work() };
  const ttlMs = options.ttlMs ?? LEASE_TTL_MS;
  const holder = randomUUID();
  if (!(await tryLease(db, name, holder, ttlMs, new Date()))) return { ran: false };
  // A renewal that fails is tried again at the next beat; the work, already under way, goes on. Renewals run one
  // after another, and the release waits for the last: one still in flight when the work ended would otherwise
  // take the lease again after its release (on another connection of the pool), holding it for a term.
  let renewing: Promise<unknown> = Promise.resolve();
  const renewal = setInterval(
    () => {
      renewing = renewing.then(() => tryLease(db, name, holder, ttlMs, new Date())).catch(() => undefined);
    },
    options.renewMs ?? Math.max(1, Math.floor(ttlMs / 3)),
  );
  renewal.unref();
  try {
    return { ran: true, value: await work() };
  } finally {
    clearInterval(renewal);
    await renewing;
    await releaseLease(db, name, holder).catch(() => undefined);
  }
}
