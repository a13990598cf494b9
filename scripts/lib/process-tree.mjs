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
