/**
 * The memory a PGlite server takes to start, as `npm start` runs it in production (its built JavaScript and V8
 * options, no demo data): its peak (VmHWM) stays within a 512 MB container on a new folder and on the same
 * folder again. A new folder is loaded from the build's ready copy (server/src/db/initial-data.ts); with
 * PGlite's own initdb the start peaked at 1.1-1.3 GB and a 512 MB container killed it. Memory, not time.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/free-port.mjs";
import { SERVER_ENTRY } from "../../scripts/lib/server-build.mjs";
import { initialDataFile } from "../../server/src/db/initial-data";
import { tempDir } from "./helpers";

const LIMIT_KB = 512 * 1024;
/** `npm start`'s V8 options, read from package.json so that the test starts the server as it does. */
const START_OPTIONS = (
  JSON.parse(fs.readFileSync("package.json", "utf8")) as { scripts: { start: string } }
).scripts.start.match(/--[\w-]+=\S+/g) as string[];

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

/** Starts the built server on `dataDir`, waits until it is ready, and gives its peak memory in kB; stops it. */
async function peakOfStart(dataDir: string): Promise<number> {
  const port = await freePort();
  const child = spawn(process.execPath, [...START_OPTIONS, SERVER_ENTRY], {
    env: {
      ...process.env,
      NODE_ENV: "development",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: dataDir,
      STATIC_DIR: "",
      SEED_DEMO: "false",
      TELEGRAM_BOT: "off",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  // A ceiling, not a speed: the start ends when readiness answers.
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited:\n${output.slice(-3000)}`);
    const ready = await fetch(`http://127.0.0.1:${port}/api/health/ready`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`never ready:\n${output.slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const status = fs.readFileSync(`/proc/${child.pid}/status`, "utf8");
  const peak = Number(status.match(/VmHWM:\s+(\d+) kB/)?.[1]);
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
  return peak;
}

describe("a PGlite server's start fits in 512 MB", () => {
  it("peaks within 512 MB on a new folder (from the build's ready copy) and on it again", async () => {
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
