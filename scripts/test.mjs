// `npm test`: every test of Kassa. The steps that do not depend on each other run side by side (the
// machine has two cores, and most test time is spent waiting on a browser, a server or a timer):
//
//   lint (biome) ─┐
//   knip ─────────┤
//   types (tsc) ──┤
//   unit ─────────┤   each step's output is kept and printed whole when it ends,
//   integration ──┤   then a summary with every step's time
//   build ─► end-to-end in Chromium (includes the bundle budget)
//
// A throw-away PostgreSQL serves the integration and end-to-end tests; the server's built JavaScript
// is made first, once, for both.
import { spawn } from "node:child_process";
import {
  accessSync,
  chmodSync,
  closeSync,
  constants,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statfsSync,
} from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { whatFailed } from "./lib/failures.mjs";
import { startPostgres } from "./lib/postgres.mjs";
import { buildServer, serverBuildIsStale } from "./lib/server-build.mjs";
import { ensureSystemPackages, findPostgresBin } from "./lib/system.mjs";

const started = Date.now();
/** `statfs`'s type of a tmpfs (linux/magic.h). */
const TMPFS_MAGIC = 0x01021994;
console.log(`[kassa] Node ${process.version} (the project's own, from its node devDependency)`);
ensureSystemPackages();

const bin = (name) => `node_modules/.bin/${name}`;
// The run's throw-away files (PostgreSQL's cluster, the PGlite folders the tests create and fill, certificates,
// logs) in memory when the machine has a tmpfs: the tests wait on a disk's journal otherwise (database.test.ts
// 23 → 17 s beside the end-to-end tests, the same CPU).
const scratch = memoryTmp();
if (scratch) process.env.TMPDIR = scratch;
const logs = mkdtempSync(join(tmpdir(), "kassa-test-logs-"));
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");
const steps = [];

/** Runs one step with its output in a file; prints it whole when the step ends. */
function step(name, cmd, args, env = {}) {
  const file = join(logs, `${steps.length}.log`);
  const entry = { name, ok: false, seconds: 0 };
  steps.push(entry);
  console.log(`[kassa] ▶ ${name}`);
  const begun = Date.now();
  const fd = openSync(file, "w");
  const child = spawn(cmd, args, {
    stdio: ["ignore", fd, fd],
    env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? "1", ...env },
  });
  return new Promise((resolve) => {
    child.on("close", (code) => {
      closeSync(fd);
      entry.ok = code === 0;
      entry.seconds = (Date.now() - begun) / 1000;
      console.log(`\n[kassa] ${entry.ok ? "■" : "✗"} ${name} (${entry.seconds.toFixed(1)} s, load ${load()})`);
      const output = readFileSync(file, "utf8");
      process.stdout.write(output);
      if (!entry.ok) entry.failures = whatFailed(output);
      resolve(entry.ok);
    });
  });
}

let pg;
try {
  pg = await startPostgres(findPostgresBin());
  console.log(`[kassa] PostgreSQL for the tests is up (${pg.url.replace(/\/\/[^@]*@/, "//")}); load ${load()}`);
  const env = { TEST_DATABASE_URL: pg.url };
  // The server as npm start runs it (built JavaScript), built once here: the integration and the
  // end-to-end tests start it as processes of their own, and would otherwise both build it at once.
  if (serverBuildIsStale()) {
    const begun = Date.now();
    await buildServer();
    console.log(`[kassa] server built (esbuild, ${((Date.now() - begun) / 1000).toFixed(1)} s)`);
  }

  const endToEnd = step("production build (vite)", bin("vite"), ["build", "--logLevel", "warn"]).then((built) =>
    built && existsSync("dist/index.html")
      ? step("end-to-end tests in Chromium (vitest + playwright-core)", bin("vitest"), ["run", "--project", "e2e"], env)
      : false,
  );
  await Promise.all([
    // Pure computation with no clock to miss: at a lower priority, so the tests that wait on a browser,
    // a server or a timer get the cores first.
    step("lint and format (biome)", "nice", ["-n", "10", bin("biome"), "ci", "."]),
    // Files, exports and dependencies nothing uses, dependencies used but not listed (knip.ts): no clock either.
    step("unused code and dependencies (knip)", "nice", ["-n", "10", bin("knip"), "--no-progress"]),
    // TypeScript 7 (native), one thread per project (package.json): ~15 s of CPU for the app and the server, at the
    // normal priority so it is done early.
    step("types (TypeScript 7, app and server)", "npm", ["run", "--silent", "typecheck"]),
    step("unit tests (vitest, jsdom)", bin("vitest"), ["run", "--project", "unit", "--project", "unit-isolated"], env),
    step(
      "integration tests (vitest: the server on PGlite and PostgreSQL)",
      bin("vitest"),
      ["run", "--project", "integration"],
      env,
    ),
    endToEnd,
  ]);
} finally {
  pg?.stop();
  rmSync(logs, { recursive: true, force: true });
  if (scratch) rmSync(scratch, { recursive: true, force: true });
}

/** A folder of this run's on /dev/shm when that is a writable tmpfs, else null (the system's temporary folder). */
function memoryTmp() {
  try {
    accessSync("/dev/shm", constants.W_OK);
    if (statfsSync("/dev/shm").type !== TMPFS_MAGIC) return null;
    const dir = mkdtempSync("/dev/shm/kassa-test-");
    // Open to every user as /tmp is (PostgreSQL runs as its own user when the tests run as root).
    chmodSync(dir, 0o1777);
    return dir;
  } catch {
    return null;
  }
}

const failed = steps.some((s) => !s.ok);
console.log("\n[kassa] summary");
for (const s of steps) {
  console.log(`  ${s.ok ? "ok  " : "FAIL"} ${s.name} (${s.seconds.toFixed(1)} s)`);
  for (const line of s.failures ?? []) console.log(`       ${line}`);
}
console.log(`  total ${((Date.now() - started) / 1000).toFixed(1)} s, load average ${load()}`);
process.exit(failed ? 1 : 0);
