/**
 * The background jobs, at start and then every `intervalSeconds` (ACCRUAL_INTERVAL_SECONDS, 60 by
 * default): the accruals, then the sweeper (withdrawal applications whose code expired are
 * cancelled, their funds returned and the investor told; rate-limit counters whose window ended are dropped; uploaded
 * files that nothing references are removed, services/uploads.ts). Runs never
 * overlap within the process; across instances on one PostgreSQL each job runs under its lease
 * (db/leader.ts), so one instance at a time does it and the others skip that turn. The
 * accruals' own locking and UNIQUE(deposit_id, day_index) keep each deposit-day single regardless.
 */
import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "./clock";
import type { Database, DatabaseKind } from "./db/client";
import { type Exclusive, LEASES, runExclusive } from "./db/leader";
import type { CodeSender } from "./delivery/code-sender";
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

/** One turn of the jobs: each ran here (`ran: true`), or another instance held its lease. */
export interface SchedulerTurn {
  accruals: Exclusive<AccrualRun> | null;
  sweep: Exclusive<SweepRun> | null;
}

export interface AccrualScheduler {
  /** Runs a turn now unless one is under way (then waits for it). Null parts failed (logged). */
  runNow(): Promise<SchedulerTurn>;
  /** Stops the timer and waits for a turn under way. */
  stop(): Promise<void>;
}

export interface SchedulerOptions {
  db: Database;
  clock: Clock;
  intervalSeconds: number;
  log: FastifyBaseLogger;
  /** On PostgreSQL the jobs take their leases; on PGlite (one process) they just run. */
  kind?: DatabaseKind;
  /** The server's limiter, whose stale counters the sweeper drops. */
  limiter?: Limiter;
  /** UPLOAD_DIR, whose unreferenced files the sweeper removes. */
  uploadDir?: string;
  /** The code channel (e-mail, SMS) that tells an investor their withdrawal's code expired unused. */
  codeSender?: CodeSender;
}

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

export function startAccrualScheduler(options: SchedulerOptions): AccrualScheduler {
  const { db, clock, log } = options;
  const kind = options.kind ?? "pglite";
  let running: Promise<SchedulerTurn> | null = null;
  let stopped = false;

  const job = async <T>(name: "accruals" | "sweeper", work: () => Promise<T>): Promise<Exclusive<T> | null> => {
    try {
      const result = await runExclusive(db, kind, LEASES[name], work);
      if (!result.ran) log.debug({ job: name }, "another instance holds the job's lease: skipped");
      return result;
    } catch (error) {
      log.error({ err: error, job: name }, `${name} run failed`);
      return null;
    }
  };

  const turn = async (): Promise<SchedulerTurn> => {
    const accruals = await job("accruals", async () => {
      const run = await runAccruals(db, clock, {
        onError: (depositId, error) => log.error({ err: error, depositId }, "accrual failed"),
      });
      if (run.deposits > 0 || run.failed.length > 0) log.info({ accruals: run }, "accruals run");
      return run;
    });
    const swept = await job("sweeper", async () => {
      const { limiter, uploadDir, codeSender } = options;
      const run = await sweep({ db, clock, limiter, uploadDir, codeSender, log });
      if (run.withdrawalsExpired > 0 || run.uploadsRemoved > 0) log.info({ sweep: run }, "sweep run");
      return run;
    });
    return { accruals, sweep: swept };
  };

  const runNow = () => {
    if (running) return running;
    running = turn().finally(() => {
      running = null;
    });
    return running;
  };

  const timer =
    options.intervalSeconds > 0
      ? setInterval(() => {
          if (!stopped) void runNow();
        }, options.intervalSeconds * 1000)
      : null;
  timer?.unref();
  void runNow();

  return {
    runNow,
    stop: async () => {
      stopped = true;
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
