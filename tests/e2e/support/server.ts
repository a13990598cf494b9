/** Starts the real Kassa server (built app + API + embedded database) as its own process. */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../../scripts/lib/free-port.mjs";
import { buildIsStale } from "../../../scripts/lib/freshness.mjs";
import { buildServer, SERVER_ENTRY, serverBuildIsStale } from "../../../scripts/lib/server-build.mjs";

export interface RunningServer {
  baseURL: string;
  dataDir: string;
  env: Record<string, string>;
  stop(): Promise<void>;
  /** Kills the process at once (SIGKILL), keeping its data folder for another start. */
  kill(): Promise<void>;
}

export interface StartOptions {
  /** Reuse this data folder (from a killed server) instead of a new one. */
  dataDir?: string;
  port?: number;
}

export { freePort };

/** The server's built JavaScript, built when missing or older than its sources. */
export async function ensureServerBuilt() {
  if (serverBuildIsStale()) await buildServer();
}

/** The production build the tests load: built when missing or older than its sources. */
export function ensureBuilt() {
  if (!buildIsStale()) return;
  console.log("[kassa] the build is missing or older than the sources: building it (vite build)");
  // Always a production build, though vitest runs with NODE_ENV=test: build/production-build.ts sees to that.
  const build = spawnSync("node_modules/.bin/vite", ["build", "--logLevel", "warn"], { stdio: "inherit" });
  if (build.status !== 0) throw new Error("vite build failed");
}

/** Waits until `url` answers 2xx; throws when `child` exits first or after `timeoutMs`. */
export async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited with ${child.exitCode} before it was ready`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`The server did not answer ${url} within ${timeoutMs} ms`);
}

export async function startServer(
  extraEnv: Record<string, string> = {},
  options: StartOptions = {},
): Promise<RunningServer> {
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "kassa-e2e-"));
  const env: Record<string, string> = {
    NODE_ENV: "development",
    HOST: "127.0.0.1",
    PORT: String(port),
    DATA_DIR: join(dataDir, "pglite"),
    STATIC_DIR: "dist",
    SEED_DEMO: "true",
    LOG_LEVEL: "warn",
    // Every e2e request comes from 127.0.0.1: per-address limits go up, the per-login one stays, so the
    // rate-limit test still meets it.
    RATE_LIMIT_LOGIN_IP: "1000/900",
    RATE_LIMIT_REGISTER_IP: "1000/3600",
    RATE_LIMIT_CODE_REQUEST_IP: "1000/900",
    RATE_LIMIT_CODE_ENTRY_IP: "1000/900",
    RATE_LIMIT_WITHDRAWAL_CODE_IP: "1000/3600",
    // The money tests move the server's clock by days; sessions must outlive that.
    SESSION_TTL_DAYS: "365",
    ...extraEnv,
  };
  // The server as `npm start` runs it: built JavaScript (global-setup.ts builds it when stale).
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "inherit", "inherit"],
    // Its own process group, so kill() reaches whatever the server started too.
    detached: true,
  });
  const baseURL = `http://127.0.0.1:${port}`;
  // Readiness, not liveness: liveness answers from the first moments of a start, before the
  // database is open (server/src/early-server.ts).
  await waitForHealth(`${baseURL}/api/health/ready`, child, 120_000);
  return {
    baseURL,
    dataDir,
    env,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill("SIGKILL");
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      // The whole group at once, as in a power cut.
      if (child.pid) process.kill(-child.pid, "SIGKILL");
      await exited;
      // Wait until no live member of the group is left.
      if (child.pid) await groupGone(child.pid);
    },
  };
}

/** Waits (at most 10 s) until no process of group `pgid` is alive; a zombie counts as gone. */
export async function groupGone(pgid: number): Promise<void> {
  const alive = () =>
    readdirSync("/proc")
      .filter((name) => /^\d+$/.test(name))
      .some((pid) => {
        try {
          const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
          const [state, , group] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
          return Number(group) === pgid && state !== "Z" && state !== "X";
        } catch {
          return false;
        }
      });
  for (let i = 0; i < 200 && alive(); i++) await new Promise((r) => setTimeout(r, 50));
}
