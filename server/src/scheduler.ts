/**
 * The money's background jobs (jobs.ts runs them), at start and then every `intervalSeconds` (ACCRUAL_INTERVAL_SECONDS,
 * 60 by default): the accruals, and the sweeper (withdrawal applications whose code expired are
 * cancelled, their funds returned and the investor told; rate-limit counters whose window ended are dropped; uploaded
 * files that nothing references are removed, services/uploads.ts). Across instances on one PostgreSQL each job
 * runs under its lease (db/leader.ts), so one instance at a time does it and the others skip that turn. The
 * accruals' own locking and UNIQUE(deposit_id, day_index) keep each deposit-day single regardless.
 */
import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "./clock";
import type { Database } from "./db/client";
import { LEASES } from "./db/leader";
import type { CodeSender } from "./delivery/code-sender";
import type { Jobs } from "./jobs";
import type { Limiter } from "./security/rate-limit";
import { type AccrualRun, runAccruals } from "./services/accruals";
import { sweepOrphanUploads } from "./services/uploads";
import { expireWithdrawals } from "./services/withdrawals";

export interface SweepRun {
  /** Withdrawal applications expired (their funds returned). */
  withdrawalsExpired: number;
  /** Rate-limit counters dropped. */
  rateLimitsPurged: number;
  /** Uploaded files removed because nothing references them. */
  uploadsRemoved: number;
}

export interface SchedulerOptions {
  db: Database;
  clock: Clock;
  /** The wait between runs (ACCRUAL_INTERVAL_SECONDS). */
  intervalSeconds: number;
  log: FastifyBaseLogger;
  /** The server's limiter, whose stale counters the sweeper drops. */
  limiter?: Limiter | undefined;
  /** UPLOAD_DIR, whose unreferenced files the sweeper removes. */
  uploadDir?: string | undefined;
  /** The code channel (e-mail, SMS) that tells an investor their withdrawal's code expired unused. */
  codeSender?: CodeSender | undefined;
}

/** The accruals' and the sweeper's time limits: a catch-up after days of downtime accrues many deposit-days. */
export const ACCRUALS_TIMEOUT_MS = 15 * 60_000;
export const SWEEPER_TIMEOUT_MS = 5 * 60_000;

/** The sweeper's work, once (the scheduler runs it under its lease). */
export async function sweep(deps: {
  db: Database;
  clock: Clock;
  limiter?: Limiter | undefined;
  uploadDir?: string | undefined;
  codeSender?: CodeSender | undefined;
  log?: { warn(details: object, message: string): void } | undefined;
}): Promise<SweepRun> {
  const { db, clock, codeSender, log } = deps;
  const withdrawalsExpired = await expireWithdrawals(
    codeSender && log ? { db, clock, codeSender, log } : { db, clock },
  );
  const rateLimitsPurged = deps.limiter ? await deps.limiter.purgeExpired() : 0;
  const uploadsRemoved = deps.uploadDir ? await sweepOrphanUploads({ db: deps.db, uploadDir: deps.uploadDir }) : 0;
  return { withdrawalsExpired, rateLimitsPurged, uploadsRemoved };
}

/** Adds the accruals and the sweeper to `jobs`, each under its lease, every `intervalSeconds`. */
export function addSchedulerJobs(jobs: Jobs, options: SchedulerOptions): void {
  const { db, clock, log } = options;
  const everyMs = options.intervalSeconds * 1000;
  jobs.add({
    name: "accruals",
    lease: LEASES.accruals,
    everyMs,
    timeoutMs: ACCRUALS_TIMEOUT_MS,
    run: async (): Promise<AccrualRun> => {
      const run = await runAccruals(db, clock, {
        onError: (depositId, error) => log.error({ err: error, depositId }, "accrual failed"),
      });
      if (run.deposits > 0 || run.failed.length > 0) log.info({ accruals: run }, "accruals run");
      return run;
    },
  });
  jobs.add({
    name: "sweeper",
    lease: LEASES.sweeper,
    everyMs,
    timeoutMs: SWEEPER_TIMEOUT_MS,
    run: async (): Promise<SweepRun> => {
      const { limiter, uploadDir, codeSender } = options;
      const run = await sweep({ db, clock, limiter, uploadDir, codeSender, log });
      if (run.withdrawalsExpired > 0 || run.uploadsRemoved > 0) log.info({ sweep: run }, "sweep run");
      return run;
    },
  });
}
