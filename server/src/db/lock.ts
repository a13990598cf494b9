/**
 * An exclusive lock on an embedded-database folder. PGlite is a single-process database: two
 * processes writing the same folder corrupt it, so the second one must stop with a clear message.
 * The lock is a file `<dataDir>.lock` created with O_EXCL holding the owner's pid; a lock whose
 * owner is no longer alive (a crash, a kill -9) is taken over.
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

/** The pid written in a lock file, or null when the file is missing or unreadable. */
export function readLockOwner(lockPath: string): number | null {
  try {
    const pid = Number.parseInt(fs.readFileSync(lockPath, "utf8").trim(), 10);
    return Number.isNaN(pid) ? null : pid;
  } catch {
    return null;
  }
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
      const owner = readLockOwner(lockPath);
      // The owner may be writing its pid right now: give it a moment before calling the lock stale.
      if (owner === null && attempt < 2) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
        continue;
      }
      if (owner !== null && isProcessAlive(owner)) throw new DataDirLockedError(path.resolve(dataDir), lockPath, owner);
      // Stale: its owner died without releasing it.
      fs.rmSync(lockPath, { force: true });
      continue;
    }
    fs.writeSync(fd, `${process.pid}\n`);
    fs.closeSync(fd);
    return ownLock(lockPath);
  }
  throw new Error(`could not take the lock ${lockPath}`);
}

function ownLock(lockPath: string): DataDirLock {
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    process.off("exit", release);
    // Only remove the file while it is still ours.
    if (readLockOwner(lockPath) === process.pid) fs.rmSync(lockPath, { force: true });
  };
  process.on("exit", release);
  return { lockPath, release };
}
