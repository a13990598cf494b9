// `npm run bench:start`: the server's cold start with an existing build — from `node
// scripts/start.mjs` (what `npm start` runs) to the first 200 of `GET /api/health` (liveness) and of
// `GET /api/health/ready` (the database answers), the process tree's RSS then and its peak (VmHWM, read until it
// stops growing after readiness) — on PGlite (a folder created by a first start that is not timed; its peak is a row)
// and on a throw-away
// PostgreSQL. Each is started BENCH_STARTS times (7), in turn; it prints the median, min and max
// beside the load average. Not a test: nothing here passes or fails.
//
// Knobs (environment): BENCH_DB=pglite,postgres, BENCH_STARTS, BENCH_SERVER_DIR (the checkout
// whose server is started, default this one), BENCH_BEFORE (another checkout, e.g. a worktree of
// an older commit, started in turn with this one: a before and after on the same machine load).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort, startPostgres } from "./lib/postgres.mjs";
import { treePeakMb, treeRssMb } from "./lib/process-tree.mjs";
import { buildServer, serverBuildIsStale } from "./lib/server-build.mjs";
import { startArguments } from "./lib/start-command.mjs";
import { findPostgresBin } from "./lib/system.mjs";

const ROOT = resolve(import.meta.dirname, "..");
const SERVER_DIR = resolve(process.env.BENCH_SERVER_DIR ?? ROOT);
const BEFORE_DIR = process.env.BENCH_BEFORE ? resolve(process.env.BENCH_BEFORE) : null;
const STARTS = Number(process.env.BENCH_STARTS ?? 7);
const DBS = (process.env.BENCH_DB ?? "pglite,postgres").split(",").map((s) => s.trim());

// Each try gives up after `patience` ms: a server still starting holds the request (readiness
// answers 503 only after 3 s), and polling again finds the moment it is ready.
async function waitFor(url, started, patience, ms = 60_000) {
  while (Date.now() - started < ms) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(patience) });
      if (res.ok) return Date.now() - started;
    } catch {}
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`${url} did not answer`);
}

/** One start: ms to liveness, ms to readiness, RSS of the tree once ready, and the tree's peak once settled. */
async function start(dir, env, limitMs = 60_000) {
  const port = await freePort();
  const started = Date.now();
  const child = spawn(process.execPath, startArguments(dir), {
    cwd: dir,
    env: {
      ...process.env,
      NODE_ENV: "production",
      CODE_SECRET: "bench-code-secret-bench-code-secret-0123",
      TELEGRAM_BOT_TOKEN: "123456:bench-token-not-a-real-one",
      TELEGRAM_BOT: "off",
      SEED_DEMO: "false",
      ACCRUAL_INTERVAL_SECONDS: "0",
      STATIC_DIR: "",
      LOG_LEVEL: "warn",
      PORT: String(port),
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  const exited = new Promise((r) => child.once("exit", r));
  try {
    const base = `http://127.0.0.1:${port}/api`;
    const live = await waitFor(`${base}/health`, started, 1000, limitMs);
    const ready = await waitFor(`${base}/health/ready`, started, 100, limitMs);
    const rss = treeRssMb(child.pid);
    // The peak comes seconds after readiness (V8's optimising tier compiles PGlite's hottest WebAssembly in the
    // background): read until it has grown by less than 1 MB in 10 s, with readiness asked meanwhile.
    let peak = treePeakMb(child.pid);
    let windowFrom = peak;
    let steadySince = Date.now();
    while (Date.now() - steadySince < 10_000 && Date.now() - started < limitMs + 120_000) {
      await fetch(`${base}/health/ready`).then(
        (res) => res.arrayBuffer(),
        () => undefined,
      );
      await new Promise((r) => setTimeout(r, 200));
      const now = treePeakMb(child.pid);
      // Settled: less than a megabyte more in 10 s (a few kB here and there are the calls' own).
      if (now >= windowFrom + 1) {
        windowFrom = now;
        steadySince = Date.now();
      }
      peak = Math.max(peak, now);
    }
    return { live, ready, rss, peak };
  } finally {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {}
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const row = (name, xs, unit) =>
  `| ${name.padEnd(41)} | ${`${median(xs)} ${unit}`.padEnd(9)} | ${`${Math.min(...xs)}–${Math.max(...xs)}`.padEnd(11)} |`;

async function main() {
  if (!process.env.BENCH_SERVER_DIR && serverBuildIsStale()) {
    console.log("[bench:start] building the server…");
    await buildServer();
  }
  const load0 = loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
  const targets = [];
  const cleanup = [];
  const servers = BEFORE_DIR
    ? [
        ["before", BEFORE_DIR],
        ["after", SERVER_DIR],
      ]
    : [["", SERVER_DIR]];
  try {
    for (const [label, serverDir] of servers) {
      const named = (db) => (label ? `${db} ${label}` : db);
      if (DBS.includes("pglite")) {
        const dir = mkdtempSync(join(tmpdir(), "kassa-start-"));
        cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
        const env = { DATA_DIR: join(dir, "pglite") };
        // Creates the folder from the build's ready copy (and builds): not timed; its peak is a row of its own.
        const first = await start(serverDir, env, 600_000);
        targets.push({ name: named("PGlite"), dir: serverDir, env, live: [], ready: [], rss: [], peak: [], first });
      }
      if (DBS.includes("postgres")) {
        const bin = findPostgresBin();
        if (!bin) throw new Error("PostgreSQL binaries not found (set PG_BIN)");
        const pg = await startPostgres(bin);
        cleanup.push(() => pg.stop());
        const env = { DATABASE_URL: pg.url };
        await start(serverDir, env, 600_000); // migrates: not counted
        targets.push({ name: named("PostgreSQL"), dir: serverDir, env, live: [], ready: [], rss: [], peak: [] });
      }
    }
    for (let i = 0; i < STARTS; i++) {
      for (const t of targets) {
        const r = await start(t.dir, t.env);
        t.live.push(r.live);
        t.ready.push(r.ready);
        t.rss.push(r.rss);
        t.peak.push(r.peak);
      }
    }
  } finally {
    for (const c of cleanup) c();
  }
  const load1 = loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
  console.log(`\nCold start with an existing build, ${STARTS} starts each (median, min–max)`);
  console.log(`load average ${load0} at the start, ${load1} at the end\n`);
  console.log(`| ${"what".padEnd(41)} | median    | min–max     |`);
  console.log(`| ${"-".repeat(41)} | --------- | ----------- |`);
  for (const t of targets) {
    console.log(row(`${t.name}: cold start to health`, t.live, "ms"));
    console.log(row(`${t.name}: cold start to ready`, t.ready, "ms"));
    console.log(row(`${t.name}: RSS when ready (tree)`, t.rss, "MB"));
    console.log(row(`${t.name}: peak RSS of a start (tree)`, t.peak, "MB"));
    if (t.first) console.log(row(`${t.name}: peak RSS, new folder (tree)`, [t.first.peak], "MB"));
  }
}

await main();
