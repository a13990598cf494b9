/**
 * Starts the real Kassa server as its own process, as `npm start` runs it: its built JavaScript (the e2e and
 * integration global set-ups build it when stale). The e2e tests' server (`startServer`: the built app, demo data)
 * and the integration tests that need a process of its own (`spawnBuiltServer`: the start's memory and modules, two
 * instances on one database, a refused start) both start it here. No browser in it: the integration project
 * imports it too.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../../scripts/lib/free-port.mjs";
import { buildIsStale } from "../../../scripts/lib/freshness.mjs";
import { buildServer, SERVER_ENTRY, serverBuildIsStale } from "../../../scripts/lib/server-build.mjs";
import { startArguments } from "../../../scripts/lib/start-command.mjs";

/** `npm start`'s Node options (package.json's start script without its script): the heap's bounds and PGlite's tier. */
export const NPM_START_OPTIONS: string[] = startArguments(join(import.meta.dirname, "../../..")).slice(0, -1);

export interface BuiltServer {
  child: ChildProcess;
  port: number;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** What the process wrote to stdout and stderr so far (empty when its output is inherited). */
  output(): string;
  /** The output's whole lines so far. */
  lines(): string[];
  /**
   * Polls `path` until it answers 2xx and gives that reply; throws when the process exits first or after
   * `ceilingMs` (a ceiling, not a speed), with the end of its output.
   */
  ready(path?: string, ceilingMs?: number): Promise<Response>;
  /**
   * SIGTERM, then after `graceMs` SIGKILL of its whole process group; resolves once it has exited and its output is
   * read, with its exit code (null when it had to be killed or a signal ended it).
   */
  stop(graceMs?: number): Promise<number | null>;
  /** SIGKILL of its whole process group at once, as in a power cut; resolves once none of the group is alive. */
  kill(): Promise<void>;
}

export interface SpawnOptions {
  /** What to give `process.execPath`: by default the built server's entry, without Node options. */
  args?: string[];
  port?: number;
  /** The output goes to the test's own (the e2e server's) instead of being kept for the test to read. */
  inheritOutput?: boolean;
}

/** The servers spawned here that have not exited yet. */
const running = new Set<BuiltServer>();

/**
 * Spawns the built server in a process group of its own, on 127.0.0.1 and a free port, in development mode unless
 * `env` says otherwise (`env` on top of this process's environment). Does not wait: `ready()` does.
 */
export async function spawnBuiltServer(env: Record<string, string>, options: SpawnOptions = {}): Promise<BuiltServer> {
  const port = options.port ?? (await freePort());
  const child = spawn(process.execPath, options.args ?? [SERVER_ENTRY], {
    env: { ...process.env, NODE_ENV: "development", HOST: "127.0.0.1", PORT: String(port), ...env },
    stdio: ["ignore", options.inheritOutput ? "inherit" : "pipe", options.inheritOutput ? "inherit" : "pipe"],
    // Its own process group, so stop() and kill() reach whatever the server started too.
    detached: true,
  });
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const killGroup = () => {
    if (!child.pid) return;
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // the group is gone already
    }
  };
  const origin = `http://127.0.0.1:${port}`;
  const server: BuiltServer = {
    child,
    port,
    origin,
    output: () => output,
    lines: () => output.split("\n").slice(0, -1),
    ready: (path = "/api/health/ready", ceilingMs = 240_000) =>
      waitForHealth(`${origin}${path}`, child, ceilingMs, () => output),
    async stop(graceMs = 8000) {
      if (!gone()) {
        child.kill("SIGTERM");
        await Promise.race([closed, new Promise((r) => setTimeout(r, graceMs))]);
        if (!gone()) killGroup();
      }
      await closed;
      return child.exitCode;
    },
    async kill() {
      if (!gone()) killGroup();
      await closed;
      if (child.pid) await groupGone(child.pid);
    },
  };
  running.add(server);
  child.once("exit", () => running.delete(server));
  return server;
}

/** Kills (SIGKILL, whole group) every server spawned here that is still running: for a test file's afterEach. */
export async function killRunningServers(): Promise<void> {
  await Promise.all([...running].map((server) => server.kill()));
}

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

/**
 * Waits until `url` answers 2xx and gives that reply (each try gives up after 10 s: a server may hold a call);
 * throws when `child` exits first or after `timeoutMs`, with the end of `output` when given.
 */
export async function waitForHealth(
  url: string,
  child: ChildProcess,
  timeoutMs: number,
  output: () => string = () => "",
): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  const tail = () => (output() ? `:\n${output().slice(-3000)}` : "");
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`The server exited with ${child.exitCode} before it was ready${tail()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
      if (res.ok) return res;
    } catch {
      // not listening yet, or held
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`The server did not answer ${url} within ${timeoutMs} ms${tail()}`);
}

/** The e2e tests' server: the built app and the demo data on a new (or the given) PGlite folder, once ready. */
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
  // With npm start's Node options: the end-to-end run holds the app to the heap a deployment gives it.
  const server = await spawnBuiltServer(env, { args: [...NPM_START_OPTIONS, SERVER_ENTRY], port, inheritOutput: true });
  // Readiness, not liveness: liveness answers from the first moments of a start, before the
  // database is open (server/src/early-server.ts).
  await server.ready("/api/health/ready", 120_000);
  return {
    baseURL: server.origin,
    dataDir,
    env,
    async stop() {
      await server.stop(5000);
      rmSync(dataDir, { recursive: true, force: true });
    },
    kill: () => server.kill(),
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
