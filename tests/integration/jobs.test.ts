/**
 * The background jobs (server/src/jobs.ts, docs/jobs.md): a job's runs never overlap; a run past its time limit
 * has its signal aborted, counts as failed and shows `overdue` until it ends, while the other jobs go on; a wall-clock
 * step back does not stop the turns (they are timed on the monotonic clock); each outcome reaches `job_runs`, which
 * `kassa jobs list` and readiness show. On the server's own database (PGlite).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Jobs, listJobRuns } from "../../server/src/jobs";
import { kassa } from "./cli";
import { createTestServer, TEST_OPERATOR_TOKEN, type TestServer } from "./helpers";

let server: TestServer;
const log = { error: () => {} };

beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  vi.useRealTimers();
  await server.close();
});

const newJobs = () => new Jobs(server.handle.db, "pglite", log);

describe("jobs", () => {
  it("never overlaps a job's runs: a turn asked for while one runs joins it", async () => {
    const jobs = newJobs();
    let running = 0;
    let most = 0;
    let release: () => void = () => {};
    jobs.add({
      name: "slow",
      everyMs: 5,
      timeoutMs: 60_000,
      run: async () => {
        running++;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        running--;
        return "done";
      },
    });
    jobs.start();
    const a = jobs.runNow("slow");
    const b = jobs.runNow("slow");
    await expect.poll(() => running).toBe(1);
    release();
    expect(await a).toEqual({ ran: true, value: "done" });
    expect(await b).toEqual({ ran: true, value: "done" });
    const stopping = jobs.stop();
    release();
    await stopping;
    expect(most).toBe(1);
  });

  it("aborts a run past its time limit, counts it failed, shows it overdue until it ends; other jobs go on", async () => {
    const jobs = newJobs();
    let aborted: unknown = null;
    let finish: () => void = () => {};
    let quickRuns = 0;
    jobs.add({
      name: "hung",
      everyMs: 0,
      timeoutMs: 200,
      run: (signal) =>
        new Promise<void>((resolve) => {
          signal.addEventListener("abort", () => {
            aborted = signal.reason;
          });
          // Ignores the abort, as a stuck call would: the turn ends only when it does.
          finish = resolve;
        }),
    });
    jobs.add({
      name: "quick",
      everyMs: 10,
      timeoutMs: 60_000,
      run: async () => {
        quickRuns++;
      },
    });
    jobs.start();
    const hung = jobs.runNow("hung");
    await expect.poll(() => jobs.states().find((j) => j.name === "hung")?.state).toBe("overdue");
    expect(String(aborted)).toContain("timed out after 200 ms");
    // The other job keeps its turns meanwhile.
    const before = quickRuns;
    await expect.poll(() => quickRuns).toBeGreaterThan(before + 2);
    finish();
    expect(await hung).toEqual({ ran: false, reason: "failed" });
    expect(jobs.states().find((j) => j.name === "hung")).toMatchObject({
      state: "waiting",
      runs: 1,
      failures: 1,
      lastError: "timed out after 200 ms",
    });
    await jobs.stop();
    // The failure is recorded for the operator, with the instance that ran it.
    await expect
      .poll(async () => (await listJobRuns(server.handle.db)).find((r) => r.name === "hung"))
      .toMatchObject({ error: "timed out after 200 ms", runs: 1, failures: 1, instance: jobs.instance });
  });

  it("keeps its turns when the wall clock steps back (an NTP step, a restored snapshot)", async () => {
    const jobs = newJobs();
    let runs = 0;
    jobs.add({
      name: "steady",
      everyMs: 20,
      timeoutMs: 60_000,
      run: async () => {
        runs++;
      },
    });
    jobs.start();
    await expect.poll(() => runs).toBeGreaterThan(1);
    // Date.now() an hour back from here on; the turns are timed on the monotonic clock.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() - 3_600_000 });
    try {
      const at = runs;
      await expect.poll(() => runs).toBeGreaterThan(at + 3);
    } finally {
      vi.useRealTimers();
      await jobs.stop();
    }
  });

  it("shows every job of the server in readiness, and `kassa jobs list` reads the recorded runs", async () => {
    const ready = await server.app.inject({ method: "GET", url: "/api/health/ready" });
    expect(ready.statusCode).toBe(200);
    const states = (ready.json() as { jobs: { name: string; state: string }[] }).jobs;
    expect(Array.isArray(states)).toBe(true);
    for (const job of states) expect(["waiting", "running", "overdue", "stopped"]).toContain(job.state);

    const jobs = newJobs();
    jobs.add({
      name: "recorded",
      everyMs: 0,
      timeoutMs: 60_000,
      run: async () => {
        throw new Error("the provider refused");
      },
    });
    jobs.start();
    expect(await jobs.runNow("recorded")).toEqual({ ran: false, reason: "failed" });
    await jobs.stop();
    await expect.poll(async () => (await listJobRuns(server.handle.db)).map((r) => r.name)).toContain("recorded");

    // Through the server's operator API, as the CLI reaches a server that holds the PGlite folder.
    const address = await server.app.listen({ host: "127.0.0.1", port: 0 });
    const list = await kassa(["--server", address, "jobs", "list"], { OPERATOR_TOKEN: TEST_OPERATOR_TOKEN });
    expect(list.code, list.stderr).toBe(0);
    const line = list.stdout.split("\n").find((l) => l.startsWith("recorded"));
    expect(line).toMatch(/failed: the provider refused \(1 run\(s\), 1 failed\)/);
  });
});
