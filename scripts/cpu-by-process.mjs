// `node scripts/cpu-by-process.mjs -- <command…>`: runs the command and says where the machine's CPU went while it
// ran, by kind of process (Chromium's browser, renderers and GPU process, the Kassa servers, vitest, PostgreSQL …),
// beside the wall time, the whole machine's busy CPU and the load average. It reads /proc every quarter second, so
// a process that lives less than that is missed, and a process that ends between two reads loses that part of its
// time: the kinds add up to a little less than the machine's figure. With `--by-step` (before `--`), each kind under
// the step of `npm test` it runs for: the vitest projects, Biome, knip, TypeScript, the build. Linux only. Not a
// test: nothing passes or fails.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";

const EVERY_MS = 250;
/** Clock ticks a second (`getconf CLK_TCK`): 100 on every Linux this runs on. */
const TICKS = 100;
const byStep = process.argv[2] === "--by-step";
const args = process.argv.slice(byStep ? 3 : 2);
const command = args[0] === "--" ? args.slice(1) : args;
if (command.length === 0) {
  console.error("usage: node scripts/cpu-by-process.mjs [--by-step] -- <command…>");
  process.exit(2);
}

/** What kind of process the command line names. */
function kindOf(argv) {
  const line = argv.join(" ");
  if (/chrom(e|ium)/.test(argv[0] ?? "")) return `chromium ${line.match(/--type=([\w-]+)/)?.[1] ?? "browser"}`;
  const exe = (argv[0] ?? "?").split("/").pop();
  if (exe === "node" || exe?.startsWith("node")) {
    if (line.includes("vitest")) return "node: vitest";
    if (line.includes("server/build/js/main.mjs")) return "node: Kassa server";
    if (line.includes("tsx")) return "node: tsx";
    return "node: other";
  }
  if (exe?.startsWith("postgres")) return "postgres";
  return exe ?? "?";
}

/** The step of each process seen (by pid and start time): the first found stays, as its ancestors may end first. */
const stepOf = new Map();
/** The step a process runs for: the vitest projects, or the tool, of the nearest ancestor whose command names one. */
function stepFor(key, pid, argvOf, parentOf) {
  if (stepOf.has(key)) return stepOf.get(key);
  for (let at = pid, hops = 0; at && hops < 30; at = parentOf.get(at), hops++) {
    const line = (argvOf.get(at) ?? []).join(" ");
    const projects = [...line.matchAll(/--project[= ](\S+)/g)].map((m) => m[1]);
    const step = projects.length > 0 ? projects.join("+") : line.match(/\b(biome|knip|tsc|vite build)\b/)?.[1];
    if (step) {
      stepOf.set(key, step);
      return step;
    }
  }
  return null;
}

/** Each live process's kind and CPU ticks so far, keyed by pid and start time (a pid may be taken again). */
function snapshot() {
  const seen = new Map();
  const argvOf = new Map();
  const parentOf = new Map();
  const stats = [];
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
      // No command line: a kernel thread, or a process on its way out (which keeps the kind it was seen with).
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const kind = argv.length > 0 ? kindOf(argv) : `no command line: ${name}`;
      argvOf.set(pid, argv);
      parentOf.set(pid, fields[1]);
      // Fields 14 and 15 of /proc/<pid>/stat (user and system ticks), 22 the start time.
      stats.push([pid, `${pid}@${fields[19]}`, kind, Number(fields[11]) + Number(fields[12])]);
    } catch {
      // Gone while being read.
    }
  }
  // With `--by-step`, each kind under the step it runs for (`npm test`'s vitest projects and tools).
  for (const [pid, key, kind, ticks] of stats) {
    const step = byStep ? stepFor(key, pid, argvOf, parentOf) : null;
    seen.set(key, { kind: step ? `${step}: ${kind}` : kind, ticks });
  }
  return seen;
}

/** The machine's busy ticks (all but idle and iowait), from the first line of /proc/stat. */
function machineBusy() {
  const [, ...values] = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).map(Number);
  return values.reduce((a, b) => a + b, 0) - values[3] - values[4];
}

const before = snapshot();
const busyBefore = machineBusy();
const loadBefore = loadavg();
const started = Date.now();
const byKind = new Map();
const last = new Map([...before].map(([key, p]) => [key, p.ticks]));
const kinds = new Map([...before].map(([key, p]) => [key, p.kind]));
const child = spawn(command[0], command.slice(1), { stdio: "inherit" });
const sample = () => {
  for (const [key, p] of snapshot()) {
    // A process born during the run counts from 0; one alive before it from what it had then. The kind is the
    // latest seen with a command line: a process may exec (Debian's chromium is a script that runs the browser).
    const from = last.get(key) ?? 0;
    if (!p.kind.startsWith("no command line") || !kinds.has(key)) kinds.set(key, p.kind);
    const kind = kinds.get(key);
    if (p.ticks > from) byKind.set(kind, (byKind.get(kind) ?? 0) + p.ticks - from);
    last.set(key, p.ticks);
  }
};
const timer = setInterval(sample, EVERY_MS);
const code = await new Promise((resolve) => child.on("close", (c) => resolve(c ?? 1)));
clearInterval(timer);
sample();

const seconds = (ticks) => (ticks / TICKS).toFixed(1);
const load = (l) => l.map((n) => n.toFixed(2)).join(" ");
console.log(
  `\n[cpu] exit ${code}; wall ${((Date.now() - started) / 1000).toFixed(1)} s; machine busy ${seconds(machineBusy() - busyBefore)} s of CPU; load average before ${load(loadBefore)}, after ${load(loadavg())}`,
);
for (const [kind, ticks] of [...byKind].sort((a, b) => b[1] - a[1]).filter(([, t]) => t >= TICKS / 10))
  console.log(`[cpu] ${seconds(ticks).padStart(8)} s  ${kind}`);
process.exit(code);
