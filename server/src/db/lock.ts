/**
 * An exclusive lock on an embedded-database folder. PGlite is a single-process database: two
 * processes writing the same folder corrupt it, so the second one must stop with a clear message.
 * The lock is a file `<dataDir>.lock` created with O_EXCL holding the owner's pid and that
 * process's start time (Linux: /proc/<pid>/stat). A lock is stale, and taken over, when its owner
 * is no longer alive (a crash, a kill -9), when the pid is ours but this process never took the
 * lock, when a process with that pid lives but started at another time (after a `kill -9` a
 * container's new PID 1 finds its own pid in the file its previous life left), or when the owner is
 * a zombie (killed, not yet reaped by its parent).
 */
import fs from "node:fs";
import path from "node:path";

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly lockPath: string,
    readonly pid: number,
  ) {
    super(
      `another Kassa process (pid ${pid}) uses ${dataDir}: stop it or set DATA_DIR to another folder` +
        ` (if no such process runs, delete ${lockPath})`,
    );
    this.name = "DataDirLockedError";
  }
}

export interface DataDirLock {
  readonly lockPath: string;
  release(): void;
}

export function lockPathFor(dataDir: string): string {
  return `${path.resolve(dataDir)}.lock`;
}

/** Whether a process with this id exists (EPERM: it exists but belongs to someone else). */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The state letter of a process (field 3 of /proc/<pid>/stat: R, S, D, Z, X, …), or null where that
 * cannot be read.
 */
export function processState(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0] ?? null;
  } catch {
    return null;
  }
}

/**
 * When a process started, as the kernel counts it (clock ticks since boot, field 22 of
 * /proc/<pid>/stat), or null where that cannot be read (another OS, or no such process).
 */
export function processStartTime(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may hold spaces: count from its end.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

interface LockOwner {
  pid: number;
  /** The owner's start time, when it could be read (older lock files hold the pid alone). */
  startTime: string | null;
}

/** The owner written in a lock file, or null when the file is missing or unreadable. */
function readLock(lockPath: string): LockOwner | null {
  try {
    const [pidLine, startLine] = fs.readFileSync(lockPath, "utf8").split("\n");
    const pid = Number.parseInt((pidLine ?? "").trim(), 10);
    if (Number.isNaN(pid)) return null;
    const startTime = startLine?.trim() || null;
    return { pid, startTime };
  } catch {
    return null;
  }
}

/** The pid written in a lock file, or null when the file is missing or unreadable. */
function readLockOwner(lockPath: string): number | null {
  return readLock(lockPath)?.pid ?? null;
}

/** The live process that holds `dataDir`'s lock, or null (none, or a stale lock): a look, nothing taken. */
export function lockHolder(dataDir: string): number | null {
  const lockPath = lockPathFor(dataDir);
  const owner = readLock(lockPath);
  return owner !== null && isLockOwnerAlive(owner, lockPath) ? owner.pid : null;
}

/** Locks this process holds (a second open of the same folder in one process is refused too). */
const heldHere = new Set<string>();

/** Whether the process named in a lock file still holds it. */
function isLockOwnerAlive(owner: LockOwner, lockPath: string): boolean {
  if (owner.pid === process.pid) return heldHere.has(lockPath);
  if (!isProcessAlive(owner.pid)) return false;
  // A killed server whose parent does not reap it (a container without an init) stays a zombie: it
  // answers signals but holds nothing.
  const state = processState(owner.pid);
  if (state === "Z" || state === "X") return false;
  if (owner.startTime === null) return true;
  const startTime = processStartTime(owner.pid);
  return startTime === null || startTime === owner.startTime;
}

/** Takes the lock of `dataDir` or throws `DataDirLockedError` when a live process holds it. */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  const lockPath = lockPathFor(dataDir);
  fs.mkdirSync(path.dirname(lockPath), { recursive: true });

  for (let attempt = 0; attempt < 5; attempt++) {
    let fd: number;
    try {
      fd = fs.openSync(lockPath, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = readLock(lockPath);
      // The owner may be writing its pid right now: give it a moment before calling the lock stale.
      if (owner === null && attempt < 2) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
        continue;
      }
      if (owner !== null && isLockOwnerAlive(owner, lockPath))
        throw new DataDirLockedError(path.resolve(dataDir), lockPath, owner.pid);
      // Stale: its owner died without releasing it.
      fs.rmSync(lockPath, { force: true });
      continue;
    }
    fs.writeSync(fd, `${process.pid}\n${processStartTime(process.pid) ?? ""}\n`);
    fs.closeSync(fd);
    heldHere.add(lockPath);
    return ownLock(lockPath);
  }
  throw new Error(`could not take the lock ${lockPath}`);
}

function ownLock(lockPath: string): DataDirLock {
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    heldHere.delete(lockPath);
    process.off("exit", release);
    // Only remove the file while it is still ours.
    if (readLockOwner(lockPath) === process.pid) fs.rmSync(lockPath, { force: true });
  };
  process.on("exit", release);
  return { lockPath, release };
}
