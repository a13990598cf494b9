/**
 * Runs the accruals at start and then every `intervalSeconds` (ACCRUAL_INTERVAL_SECONDS, 60 by
 * default). Runs never overlap within the process; across processes the accruals' own locking
 * and UNIQUE(deposit_id, day_index) keep each deposit-day single.
 */
import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "./clock";
import type { Database } from "./db/client";
import { type AccrualRun, runAccruals } from "./services/accruals";

export interface AccrualScheduler {
  /** Runs now unless a run is under way (then waits for it). */
  runNow(): Promise<AccrualRun | null>;
  /** Stops the timer and waits for a run under way. */
  stop(): Promise<void>;
}

export function startAccrualScheduler(options: {
  db: Database;
  clock: Clock;
  intervalSeconds: number;
  log: FastifyBaseLogger;
}): AccrualScheduler {
  const { db, clock, log } = options;
  let running: Promise<AccrualRun | null> | null = null;
  let stopped = false;

  const runNow = () => {
    if (running) return running;
    running = runAccruals(db, clock, {
      onError: (depositId, error) => log.error({ err: error, depositId }, "accrual failed"),
    })
      .then((run) => {
        if (run.deposits > 0 || run.failed.length > 0) log.info({ accruals: run }, "accruals run");
        return run;
      })
      .catch((error: unknown) => {
        log.error({ err: error }, "accrual run failed");
        return null;
      })
      .finally(() => {
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
