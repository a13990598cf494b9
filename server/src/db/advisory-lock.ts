/**
 * One holder at a time across every instance on one PostgreSQL database: a transaction-scoped
 * advisory lock (`pg_try_advisory_xact_lock`), taken without waiting. The transaction that holds it
 * stays open while the work runs on other connections of the pool, and its end (commit, rollback,
 * a dropped connection, a killed process) releases the lock, so a crashed instance never leaves it
 * held. On PGlite there is one process and a single connection (a transaction held open would
 * stall the work itself): the work simply runs.
 */
import { sql } from "drizzle-orm";
import type { Database, DatabaseKind } from "./client";

/** The first key of Kassa's advisory locks ("KA"); the second names the job. */
const NAMESPACE = 0x4b41;

export const ADVISORY_LOCKS = {
  /** The accrual run of the scheduler. */
  accruals: 1,
  /** The sweeper (expired withdrawal applications, stale rate-limit counters). */
  sweeper: 2,
} as const;
export type AdvisoryLock = keyof typeof ADVISORY_LOCKS;

export type Exclusive<T> = { ran: true; value: T } | { ran: false };

/** Runs `work` when this instance gets `lock`; `{ ran: false }` when another holds it. */
export async function runExclusive<T>(
  db: Database,
  kind: DatabaseKind,
  lock: AdvisoryLock,
  work: () => Promise<T>,
): Promise<Exclusive<T>> {
  if (kind !== "postgres") return { ran: true, value: await work() };
  return db.transaction(async (tx) => {
    // This transaction sits idle while the work runs on other connections, as long as it takes.
    await tx.execute(sql`set local idle_in_transaction_session_timeout = 0`);
    const result = await tx.execute(
      sql`select pg_try_advisory_xact_lock(${NAMESPACE}::int, ${ADVISORY_LOCKS[lock]}::int) as got`,
    );
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { got: boolean }[];
    if (!rows[0]?.got) return { ran: false } as const;
    return { ran: true, value: await work() } as const;
  });
}

/** The SQL that holds `lock` from another session (tests, an operator pausing the jobs). */
export function advisoryLockKey(lock: AdvisoryLock): [number, number] {
  return [NAMESPACE, ADVISORY_LOCKS[lock]];
}
