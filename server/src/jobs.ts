/**
 * The server's background work in one place (docs/decisions.md, "Background work: one leader mechanism"): the
 * accruals, the sweeper, the bot's chat outbox, digests, menu buttons and lease, the stored webhook updates. Each job runs at start and then `everyMs` after its
 * last run ended, timed on the monotonic clock (a wall-clock step — NTP, a restored snapshot, the development
 * clock — neither stops nor hurries it); a job's runs never overlap. A job with a `lease` runs under it
 * (db/leader.ts): on PostgreSQL one instance at a time, the others skip the turn. Each run has a time limit:
 * past it the run's signal is aborted and the run counts as failed ("timed out"); a run that ignores the signal
 * keeps its job `overdue` until it ends, and readiness shows it. The state of every job is in readiness; each run's
 * outcome is also written to `job_runs` (at most once a minute a job, and whenever the outcome changes), which
 * `kassa jobs list` reads, from any instance or none.
 */
import { hostname } from "node:os";
import { performance } from "node:perf_hooks";
import type { JobRun } from "@contract/operator";
import type { Database, DatabaseKind } from "./db/client";
import { runExclusive } from "./db/leader";
import { jobRuns } from "./db/schema";

export interface JobSpec {
  /** A short name, unique in the process: `accruals`, `chat-outbox`, … */
  name: string;
  /** The wait after a run ends before the next one starts, in ms; 0: only when asked (`runNow`). */
  everyMs: number;
  /** The longest a run may take before it counts as failed, in ms. */
  timeoutMs: number;
  /** Runs under this lease (db/leader.ts): one instance at a time on PostgreSQL. */
  lease?: string | undefined;
  /** A turn is skipped while this says no (the bot's work outside its lease holder). */
  active?: (() => boolean) | undefined;
  /** Whether the first run is at start (true) or `everyMs` later. */
  atStart?: boolean | undefined;
  /** The work; it should end soon after `signal` aborts. Its result is what `runNow` resolves with. */
  run(signal: AbortSignal): Promise<unknown>;
}

/** One job's state, as readiness shows it. Times are wall-clock ISO strings (for reading); durations in ms. */
export interface JobState {
  name: string;
  everyMs: number;
  lease: string | null;
  /** `overdue`: a run past its time limit has not ended. */
  state: "waiting" | "running" | "overdue" | "stopped";
  runs: number;
  failures: number;
  /** Turns skipped: another instance held the lease, or the job was not active here. */
  skipped: number;
  lastStartedAt: string | null;
  lastMs: number | null;
  lastError: string | null;
}

/** What one turn did: ran here (with the run's result), skipped, or failed (logged, in the state). */
export type JobOutcome = { ran: true; value: unknown } | { ran: false; reason: "lease" | "inactive" | "failed" };

export interface JobsLog {
  error(details: object, message: string): void;
  debug?(details: object, message: string): void;
}

/** How often a job's outcome is written to `job_runs` when it does not change. */
const JOB_RECORD_MS = 60_000;

class TimedOut extends Error {
  constructor(ms: number) {
    super(`timed out after ${ms} ms`);
    this.name = "TimedOut";
  }
}

class Job {
  state: JobState;
  private timer: NodeJS.Timeout | null = null;
  private current: Promise<JobOutcome> | null = null;
  /** The monotonic time the outcome was last written, and what it was. */
  private recordedAt = Number.NEGATIVE_INFINITY;
  private recordedError: string | null | undefined;
  private stopped = false;

  constructor(
    readonly spec: JobSpec,
    private readonly jobs: Jobs,
  ) {
    this.state = {
      name: spec.name,
      everyMs: spec.everyMs,
      lease: spec.lease ?? null,
      state: "waiting",
      runs: 0,
      failures: 0,
      skipped: 0,
      lastStartedAt: null,
      lastMs: null,
      lastError: null,
    };
  }

  schedule(delayMs: number): void {
    if (this.stopped || this.jobs.stopped || this.spec.everyMs <= 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.runNow().finally(() => this.schedule(this.spec.everyMs));
    }, delayMs);
    this.timer.unref();
  }

  /** A turn now, or the one under way. */
  runNow(): Promise<JobOutcome> {
    this.current ??= this.turn().finally(() => {
      this.current = null;
    });
    return this.current;
  }

  private async turn(): Promise<JobOutcome> {
    const { spec, state } = this;
    if (this.stopped || this.jobs.stopped) return { ran: false, reason: "inactive" };
    if (spec.active && !spec.active()) {
      state.skipped++;
      return { ran: false, reason: "inactive" };
    }
    const controller = new AbortController();
    const started = performance.now();
    const startedAt = new Date();
    let overdue: NodeJS.Timeout | undefined;
    state.state = "running";
    try {
      const run = () => {
        state.lastStartedAt = startedAt.toISOString();
        return spec.run(controller.signal);
      };
      const work = spec.lease
        ? runExclusive(this.jobs.db, this.jobs.kind, spec.lease, run)
        : run().then((value) => ({ ran: true as const, value }));
      const limit = new Promise<never>((_, reject) => {
        overdue = setTimeout(() => {
          controller.abort(new TimedOut(spec.timeoutMs));
          state.state = "overdue";
          reject(new TimedOut(spec.timeoutMs));
        }, spec.timeoutMs);
        overdue.unref();
      });
      // The turn ends with the work even when it outlives its limit: runs never overlap.
      const settled = work.then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      );
      let outcome: { value?: Awaited<typeof work>; error?: unknown };
      try {
        outcome = await Promise.race([settled, limit]);
      } catch (error) {
        outcome = { error };
        await settled;
      }
      if ("error" in outcome) throw outcome.error;
      const result = outcome.value as Awaited<typeof work>;
      if (!result.ran) {
        state.skipped++;
        this.jobs.log.debug?.({ job: spec.name }, "another instance holds the job's lease: skipped");
        return { ran: false, reason: "lease" };
      }
      this.ended(started, startedAt, null);
      return { ran: true, value: result.value };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.jobs.log.error({ err: error, job: spec.name }, `${spec.name} run failed`);
      this.ended(started, startedAt, message);
      return { ran: false, reason: "failed" };
    } finally {
      clearTimeout(overdue);
      state.state = this.jobs.stopped ? "stopped" : "waiting";
    }
  }

  private ended(started: number, startedAt: Date, error: string | null): void {
    const { state } = this;
    state.runs++;
    if (error !== null) state.failures++;
    state.lastMs = Math.round(performance.now() - started);
    state.lastError = error;
    const now = performance.now();
    if (error === this.recordedError && now - this.recordedAt < JOB_RECORD_MS) return;
    this.recordedAt = now;
    this.recordedError = error;
    void this.jobs.record(state, startedAt).catch((e: unknown) => {
      // Worth a line, not a failure: the run itself is done.
      this.jobs.log.debug?.({ err: e, job: state.name }, "job outcome not recorded");
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.current;
    this.state.state = "stopped";
  }
}

export class Jobs {
  private readonly jobs = new Map<string, Job>();
  private started = false;
  stopped = false;
  /** This process, as `job_runs` names the instance that ran a job. */
  readonly instance = `${hostname().slice(0, 64)}:${process.pid}`;

  constructor(
    readonly db: Database,
    readonly kind: DatabaseKind,
    readonly log: JobsLog,
  ) {}

  /** Adds a job; once started, it is scheduled at once. */
  add(spec: JobSpec): void {
    if (this.jobs.has(spec.name)) throw new Error(`job ${spec.name} added twice`);
    const job = new Job(spec, this);
    this.jobs.set(spec.name, job);
    if (this.started) job.schedule(spec.atStart === false ? spec.everyMs : 0);
  }

  /** Schedules every job added so far (and any added later). */
  start(): void {
    if (this.started) return;
    this.started = true;
    for (const job of this.jobs.values()) job.schedule(job.spec.atStart === false ? job.spec.everyMs : 0);
  }

  /** Runs job `name` now (or joins its turn under way). */
  runNow(name: string): Promise<JobOutcome> {
    const job = this.jobs.get(name);
    if (!job) throw new Error(`no job ${name}`);
    return job.runNow();
  }

  /** Stops job `name` (waiting for its run under way) and forgets it. */
  async remove(name: string): Promise<void> {
    const job = this.jobs.get(name);
    if (!job) return;
    this.jobs.delete(name);
    await job.stop();
  }

  states(): JobState[] {
    return [...this.jobs.values()].map((job) => ({ ...job.state }));
  }

  /** Stops every timer and waits for the runs under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([...this.jobs.values()].map((job) => job.stop()));
  }

  /** Writes a run's outcome to `job_runs`. */
  async record(state: JobState, startedAt: Date): Promise<void> {
    const row = {
      instance: this.instance,
      startedAt,
      ms: state.lastMs,
      error: state.lastError,
      runs: state.runs,
      failures: state.failures,
    };
    await this.db
      .insert(jobRuns)
      .values({ name: state.name, ...row })
      .onConflictDoUpdate({ target: jobRuns.name, set: row });
  }
}

/** What `job_runs` holds, by job name. */
export async function listJobRuns(db: Database): Promise<JobRun[]> {
  const rows = await db.select().from(jobRuns).orderBy(jobRuns.name);
  return rows.map((r) => ({ ...r, startedAt: r.startedAt.toISOString() }));
}
