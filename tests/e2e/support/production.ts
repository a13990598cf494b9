/**
 * The production set-up of README.md's "Running in production", for the rehearsal
 * (tests/e2e/production-rehearsal.test.ts): deploy/nginx.conf
 * rendered by README's own envsubst command and run by Debian's nginx, Kassa instances started as
 * `npm start` starts them, and an https client that connects from a chosen local address (127.0.0.2,
 * 127.0.0.3 …), so nginx sees distinct clients.
 */
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:https";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startArguments } from "../../../scripts/lib/start-command.mjs";
import { NGINX_PATH } from "../../../scripts/lib/system.mjs";
import { spawnBuiltServer } from "./server";

/** README.md's "Running in production" section. */
export function productionSection(): string {
  const readme = readFileSync("README.md", "utf8");
  const start = readme.indexOf("\n## Running in production\n");
  if (start < 0) throw new Error('README.md has no "## Running in production" section');
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** The variables README's envsubst command names (`envsubst '$A $B' < deploy/nginx.conf`). */
export function readmeEnvsubstVariables(): string {
  const match = /envsubst '([^']+)' < deploy\/nginx\.conf/.exec(productionSection());
  if (!match?.[1]) throw new Error("README's production section has no envsubst command for deploy/nginx.conf");
  return match[1];
}

/** The names of the instances' environment README's production section lists (its `kassa.env` block). */
export function readmeInstanceVariables(): string[] {
  const block = /```sh\n\s*# kassa\.env[^\n]*\n([\s\S]*?)```/.exec(productionSection());
  if (!block?.[1]) throw new Error("README's production section has no kassa.env block");
  return block[1]
    .split("\n")
    .map((line) => /^([A-Z][A-Z0-9_]*)=/.exec(line.trim())?.[1])
    .filter((name): name is string => Boolean(name));
}

export interface Nginx {
  stop(): Promise<void>;
  /** nginx's error log so far (for a failure's message). */
  errors(): string;
}

/**
 * deploy/nginx.conf rendered with README's envsubst command (the values in `vars`), included in an http
 * block of a main configuration of its own (as Debian's /etc/nginx/nginx.conf includes conf.d/*.conf),
 * and nginx run in the foreground until `stop()`. Resolves once its https port accepts connections.
 */
export async function startNginx(vars: Record<string, string>, httpsPort: number): Promise<Nginx> {
  const dir = mkdtempSync(join(tmpdir(), "kassa-nginx-"));
  // Root's workers run as nobody: they must reach the temporary folders.
  chmodSync(dir, 0o755);
  const site = join(dir, "kassa.conf");
  const rendered = execFileSync("sh", ["-c", `envsubst '${readmeEnvsubstVariables()}' < deploy/nginx.conf`], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...vars },
    encoding: "utf8",
  });
  writeFileSync(site, rendered);
  for (const sub of ["body", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(join(dir, sub), { recursive: true });
  const errorLog = join(dir, "error.log");
  writeFileSync(
    join(dir, "nginx.conf"),
    `worker_processes 1;
pid ${join(dir, "nginx.pid")};
error_log ${errorLog} warn;
events { worker_connections 1024; }
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log ${join(dir, "access.log")};
    client_body_temp_path ${join(dir, "body")};
    proxy_temp_path ${join(dir, "proxy")};
    fastcgi_temp_path ${join(dir, "fastcgi")};
    uwsgi_temp_path ${join(dir, "uwsgi")};
    scgi_temp_path ${join(dir, "scgi")};
    include ${site};
}
`,
  );
  const args = ["-p", dir, "-e", errorLog, "-c", join(dir, "nginx.conf")];
  execFileSync(NGINX_PATH, [...args, "-t", "-q"], { stdio: ["ignore", "ignore", "pipe"] });
  const child = spawn(NGINX_PATH, [...args, "-g", "daemon off;"], { stdio: ["ignore", "ignore", "inherit"] });
  const errors = () => {
    try {
      return readFileSync(errorLog, "utf8");
    } catch {
      return "";
    }
  };
  const deadline = Date.now() + 30_000;
  while (!(await accepts(httpsPort))) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${errors()}`);
    if (Date.now() > deadline) throw new Error(`nginx did not listen on ${httpsPort} within 30 s: ${errors()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    errors,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGQUIT");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill("SIGKILL");
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

export interface Instance {
  port: number;
  pid: number;
  /** kill -9 of the instance's whole process group; resolves once none of it is alive. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A Kassa instance as README's production section starts one: `npm start`'s Node options and script
 * (package.json, scripts/start.mjs: the built app and server) with the given environment, in its own
 * process group. Resolves when `/api/health/ready` answers.
 */
export async function startInstance(env: Record<string, string>): Promise<Instance> {
  const port = Number(env.PORT);
  const server = await spawnBuiltServer(env, { args: startArguments("."), port, inheritOutput: true });
  await server.ready("/api/health/ready", 120_000);
  return {
    port,
    pid: server.child.pid ?? 0,
    kill: () => server.kill(),
    async stop() {
      await server.stop(12_000);
    },
  };
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as it came over the wire (not decoded when it is compressed). */
  bytes: Buffer;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: a reply's JSON, read by the test
  json: any;
}

/**
 * An https client of the proxy that connects from `localAddress` (any of 127.0.0.0/8) and trusts `ca`:
 * one client address per instance, a connection per request.
 */
export function httpsClient(origin: string, ca: string, localAddress = "127.0.0.1") {
  return (
    method: string,
    path: string,
    options: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
  ): Promise<Reply> =>
    new Promise((resolve, reject) => {
      const body = options.body === undefined ? undefined : JSON.stringify(options.body);
      const req = request(
        new URL(path, origin),
        {
          method,
          ca,
          localAddress,
          agent: false,
          headers: {
            ...(body === undefined ? {} : { "content-type": "application/json" }),
            ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
            ...options.headers,
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => {
            const bytes = Buffer.concat(chunks);
            const text = bytes.toString("utf8");
            let json: unknown;
            try {
              json = JSON.parse(text);
            } catch {
              json = undefined;
            }
            resolve({ status: response.statusCode ?? 0, headers: response.headers, bytes, text, json });
          });
          response.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(body);
    });
}
