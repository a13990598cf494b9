/**
 * A lease in the database: work that one process at a time may do (the bot's long polling and its
 * chat outbox), on PGlite and PostgreSQL alike. The holder renews it well before it expires; when a
 * process dies its lease runs out and another takes it over.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../db/client";

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

/** Drizzle's `execute` answers rows (postgres.js) or `{ rows }` (PGlite). */
export function resultRows<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
