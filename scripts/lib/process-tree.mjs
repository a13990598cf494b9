import { readdirSync, readFileSync } from "node:fs";

/** The resident memory (MB) of a process and every process below it, read from /proc (the benchmarks'). */
export function treeRssMb(rootPid) {
  return treeSumMb(rootPid, "VmRSS");
}

/** The peak resident memory (MB, each process's VmHWM summed) of a process and every process below it. */
export function treePeakMb(rootPid) {
  return treeSumMb(rootPid, "VmHWM");
}

function treeSumMb(rootPid, field) {
  const children = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(entry));
    } catch {}
  }
  let kb = 0;
  const walk = (pid) => {
    try {
      const m = new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      if (m) kb += Number(m[1]);
    } catch {}
    for (const c of children.get(pid) ?? []) walk(c);
  };
  walk(rootPid);
  return Math.round(kb / 1024);
}

/** The CPU time (s) used so far by processes (and their children, as a PostgreSQL's backends), from /proc. */
export function cpuSeconds(roots) {
  const stats = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1].split(" ");
      stats.set(Number(entry), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {}
  }
  let ticks = 0;
  for (const [pid, stat] of stats) if (roots.includes(pid) || roots.includes(stat.ppid)) ticks += stat.ticks;
  return ticks / 100;
}
