/**
 * The memory a PGlite server takes to start, as `npm start` runs it in production (its built JavaScript and V8
 * options, no demo data): its peak (VmHWM), read until it has stopped growing after readiness, stays within 400 MB
 * on a new folder and on the same folder again. `npm start` runs PGlite's WebAssembly on V8's baseline compiler
 * (`--liftoff-only`): with the optimising tier the peak came seconds after readiness, at 600-850 MB. A new folder is loaded from the build's ready copy (server/src/db/initial-data.ts); with
 * PGlite's own initdb the start peaked at 1.1-1.3 GB and a 512 MB container killed it. Memory, not time.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SERVER_ENTRY } from "../../scripts/lib/server-build.mjs";
import { initialDataFile } from "../../server/src/db/initial-data";
import { killRunningServers, NPM_START_OPTIONS, spawnBuiltServer } from "../e2e/support/server";
import { tempDir } from "./helpers";

/** The aim: the whole start within 400 MB, so that a 512 MB container keeps room for the load. */
const LIMIT_KB = 400 * 1024;

afterEach(killRunningServers);

/** Starts the built server on `dataDir`, waits until it is ready, and gives its peak memory in kB; stops it. */
async function peakOfStart(dataDir: string): Promise<number> {
  const server = await spawnBuiltServer(
    { DATA_DIR: dataDir, STATIC_DIR: "", SEED_DEMO: "false", TELEGRAM_BOT: "off", LOG_LEVEL: "warn" },
    { args: [...NPM_START_OPTIONS, SERVER_ENTRY] },
  );
  // A ceiling, not a speed: the start ends when readiness answers.
  await server.ready();
  // The peak comes after readiness too: V8 compiles PGlite's hottest WebAssembly again with its optimising tier in the
  // background, seconds later. Read until it has grown by less than 1 MB in 10 s while the server answers calls that
  // reach the database (a ceiling of two minutes, not a speed).
  const hwm = () => Number(fs.readFileSync(`/proc/${server.child.pid}/status`, "utf8").match(/VmHWM:\s+(\d+) kB/)?.[1]);
  let peak = hwm();
  let windowFrom = peak;
  let steadySince = Date.now();
  const settle = Date.now() + 120_000;
  while (Date.now() - steadySince < 10_000 && Date.now() < settle) {
    await fetch(`${server.origin}/api/health/ready`).then((res) => res.arrayBuffer());
    await new Promise((resolve) => setTimeout(resolve, 200));
    const now = hwm();
    // Settled: less than a megabyte more in 10 s (a few kB here and there are the calls' own).
    if (now >= windowFrom + 1024) {
      windowFrom = now;
      steadySince = Date.now();
    }
    peak = Math.max(peak, now);
  }
  // Stopped, not killed: the next start opens the same folder (a ceiling for the shutdown, not a speed).
  await server.stop(60_000);
  return peak;
}

describe("a PGlite server's start fits in 400 MB", () => {
  it("peaks within 400 MB on a new folder (from the build's ready copy) and on it again", async () => {
    // The build made the copy (npm test builds the server before the tests).
    expect(fs.existsSync(initialDataFile())).toBe(true);
    const folder = tempDir();
    try {
      const dataDir = path.join(folder.dir, "db");
      const first = await peakOfStart(dataDir);
      const again = await peakOfStart(dataDir);
      console.log(`[start-memory] peak of a start: new folder ${first >> 10} MB, again ${again >> 10} MB`);
      expect({ first: first <= LIMIT_KB, again: again <= LIMIT_KB }).toEqual({ first: true, again: true });
    } finally {
      folder.remove();
    }
  }, 600_000);
});
