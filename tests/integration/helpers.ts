/**
 * Builds the real server against a real database (a PGlite folder of its own, a copy of the run's
 * migrated one, unless told otherwise), for `inject` calls. Always `close()` it: an open PGlite keeps
 * the test run alive.
 */
import fs, { readFileSync } from "node:fs";
import type { AddressInfo, Socket } from "node:net";
import os from "node:os";
import path from "node:path";
import { type RouteDef, type RouteName, routes, routeUrl } from "@contract";
import type { FastifyServerOptions } from "fastify";
import { afterAll, beforeAll, inject } from "vitest";
import type { z } from "zod";
import { buildApp } from "../../server/src/app";
import { type Clock, systemClock } from "../../server/src/clock";
import type { KassaApp } from "../../server/src/context";
import { type DatabaseHandle, holdsDatabase, openDatabase } from "../../server/src/db/client";
import type { CodeSender } from "../../server/src/delivery/code-sender";
import { seedDemo } from "../../server/src/demo/seed";
import { type Env, loadEnv } from "../../server/src/env";
import { ensureDefaultSettings } from "../../server/src/services/settings";

export const TEST_OPERATOR_TOKEN = "test-operator-token-0123456789";
/** CODE_SECRET for servers started in production mode. */
export const TEST_CODE_SECRET = "test-code-secret-0123456789abcdefghij";

export interface TestServer {
  app: KassaApp;
  handle: DatabaseHandle;
  env: Env;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** Environment variables on top of NODE_ENV=test, STATIC_DIR empty (no app), DATA_DIR=memory. */
  env?: Record<string, string>;
  /** Seed the demo data (default true). */
  seed?: boolean;
  clock?: Clock;
  /** An already open database (the server then does not close it). */
  handle?: DatabaseHandle;
  /** How codes go out (by default the development outbox). */
  codeSender?: CodeSender;
  /** The bot built with these options on top of the server's (e.g. a short call timeout, a log to read). */
  botOptions?: Partial<import("../../server/src/telegram/bot").KassaBotOptions>;
  /** Fastify's logger option (none by default); a test that reads the log passes a stream. */
  logger?: FastifyServerOptions["logger"];
}

export function testEnv(vars: Record<string, string> = {}): Env {
  return loadEnv({ NODE_ENV: "test", STATIC_DIR: "", DATA_DIR: "memory", LOG_LEVEL: "silent", ...vars });
}

/**
 * A data directory's tarball whose bytes PGlite takes as they are. PGlite reads `loadDataDir` with `arrayBuffer()`,
 * which for a plain Blob of ~40 MB streamed the bytes out and joined them again: 0.5–2 s of CPU for every test
 * server, more than the rest of its opening. PGlite only reads them (untars them into its file system, copying each
 * file), so one buffer serves every database of a test file.
 */
class TarballBlob extends Blob {
  readonly #bytes: ArrayBuffer;
  constructor(bytes: Buffer) {
    super([], { type: "application/x-tar" });
    this.#bytes = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }
  override get size(): number {
    return this.#bytes.byteLength;
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.#bytes);
  }
}

const templateData: Partial<Record<"empty" | "migrated", Blob>> = {};

/**
 * The run's PGlite data directory as a tarball (tests/integration/global-setup.ts): `migrated`, or `empty`, a new
 * cluster without any migration (a database from before the migrations a test applies itself). Read once per
 * worker. A test server's database is a copy of a folder instead (`openTestDatabase`).
 */
export function pgliteTemplate(kind: "empty" | "migrated"): Blob {
  templateData[kind] ??= new TarballBlob(readFileSync(inject("pgliteTemplates")[kind]));
  return templateData[kind];
}

/**
 * Makes `dataDir`, a folder that holds no database yet, a copy of the run's migrated or seeded PGlite folder
 * (global-setup.ts): a database as a new folder's first start leaves it, without loading a tarball.
 */
export function copyTemplateFolder(kind: "migrated" | "seeded", dataDir: string): void {
  fs.cpSync(inject("pgliteFolders")[kind], dataDir, { recursive: true });
}

/**
 * A copy of the run's migrated or seeded PGlite folder in a temporary folder of its own, opened;
 * closing the handle removes it. What a test server's database is: copying the folder and opening it costs less
 * than loading the 42 MB tarball into PGlite's memory (unpacked file by file, copied twice), and a PGlite file in
 * memory grows by copying itself whole.
 */
export async function openTestDatabase(kind: "migrated" | "seeded"): Promise<DatabaseHandle> {
  const copy = tempDir("kassa-db-");
  try {
    const dataDir = path.join(copy.dir, "pglite");
    copyTemplateFolder(kind, dataDir);
    const handle = await openDatabase({ dataDir });
    return {
      ...handle,
      close: async () => {
        await handle.close();
        copy.remove();
      },
    };
  } catch (error) {
    copy.remove();
    throw error;
  }
}

/** Servers not closed yet: tests/integration/setup.ts closes what a test file left open. */
const openServers = new Set<TestServer>();

/** Closes every test server still open (an open PGlite would keep the run alive). */
export async function closeOpenServers(): Promise<number> {
  const left = [...openServers];
  for (const server of left) await server.close();
  return left.length;
}

export async function createTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const env = testEnv(options.env);
  const clock = options.clock ?? systemClock;
  const seed = options.seed ?? true;
  // A new PGlite starts from the run's template; on the system clock the demo data comes with it.
  // Another clock seeds its own history (the demo's dates follow the clock). The template's folder is copied:
  // into a temporary folder for DATA_DIR=memory, the tests' default (`openTestDatabase`), else into DATA_DIR.
  const newPglite = !options.handle && !env.DATABASE_URL && (env.DATA_DIR === "memory" || !holdsDatabase(env.DATA_DIR));
  const seeded = newPglite && seed && clock === systemClock;
  const template = seeded ? "seeded" : "migrated";
  if (newPglite && env.DATA_DIR !== "memory") copyTemplateFolder(template, env.DATA_DIR);
  const handle =
    options.handle ??
    (newPglite && env.DATA_DIR === "memory"
      ? await openTestDatabase(template)
      : await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR }));
  try {
    if (!seeded) {
      await ensureDefaultSettings(handle.db, clock);
      if (seed) await seedDemo(handle.db, clock);
    }
    const silent = { info: () => {}, warn: () => {}, error: () => {} };
    // The bot of a test server waits up to two minutes for the Bot API stand-in (the server's own 10 s is about
    // Telegram; at a load of 18 the local stand-in once took longer): a test asserts what was said, not how fast.
    // A hanging call is tested with its own ceiling (bot-hang.test.ts).
    const botOptions = options.botOptions ?? (env.TELEGRAM_BOT_ENABLED ? {} : undefined);
    const bot = botOptions
      ? new (await import("../../server/src/telegram/bot")).KassaBot({
          env,
          db: handle.db,
          clock,
          log: silent,
          callTimeoutMs: 120_000,
          ...botOptions,
        })
      : undefined;
    const app = await buildApp({
      env,
      db: handle.db,
      clock,
      logger: options.logger ?? false,
      operatorToken: TEST_OPERATOR_TOKEN,
      codeSender: options.codeSender,
      ...(bot ? { bot } : {}),
    });
    await app.ready();
    const server: TestServer = {
      app,
      handle,
      env,
      close: async () => {
        openServers.delete(server);
        await app.close();
        if (!options.handle) await handle.close();
      },
    };
    openServers.add(server);
    return server;
  } catch (error) {
    if (!options.handle) await handle.close();
    throw error;
  }
}

/**
 * Called in a describe (or at a file's top): a test server (`options` as createTestServer's) made before its tests and
 * handed to `use`, closed after them.
 */
export function serverForTests(options: TestServerOptions, use: (server: TestServer) => void): void {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await createTestServer(options);
    use(server);
  });
  afterAll(async () => {
    await server?.close();
  });
}

/**
 * Counts, from now on, the statements `handle` sends to its database: drizzle's one entry point into its driver
 * (PGlite's `query`, postgres.js's `unsafe`), counted on the client drizzle's session holds. Returns the count so far.
 */
export function countStatements(handle: DatabaseHandle): () => number {
  let statements = 0;
  const session = (handle.db as unknown as { session: { client: object } }).session;
  const entry = handle.kind === "postgres" ? "unsafe" : "query";
  session.client = new Proxy(session.client, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      if (property !== entry) return value.bind(target);
      return (...args: unknown[]) => {
        statements++;
        return value.apply(target, args);
      };
    },
  });
  return () => statements;
}

/**
 * Makes `server` listen on 127.0.0.1 (a free port, given back) and counts in `held`, by client address, the
 * connections it keeps (a connection cap destroys the others before this listener hears them).
 */
export async function listenCountingConnections(server: TestServer, held: Map<string, number>): Promise<number> {
  server.app.server.on("connection", (socket: Socket) => {
    if (socket.destroyed) return;
    const address = socket.remoteAddress ?? "";
    held.set(address, (held.get(address) ?? 0) + 1);
    socket.once("close", () => held.set(address, (held.get(address) ?? 1) - 1));
  });
  await server.app.listen({ host: "127.0.0.1", port: 0 });
  return (server.app.server.address() as AddressInfo).port;
}

/**
 * Waits until `check` holds (polled every 50 ms) and resolves with the milliseconds it took; throws, naming `what`,
 * after `ceilingMs`. The ceiling is generous on purpose: a loaded machine is slow, and the time is not what a test
 * asserts (a test that wants the figure prints it).
 */
export async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  ceilingMs = 90_000,
): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ceilingMs) throw new Error(`${what}: not within ${ceilingMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return Date.now() - started;
}

/** A fresh temporary folder, removed by the returned function. */
export function tempDir(prefix = "kassa-test-"): { dir: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Called in a describe (or at a file's top): a fresh temporary folder made before its tests and removed after them;
 * `dir` names it, in its tests and hooks.
 */
export function tempDirForTests(prefix?: string): { readonly dir: string } {
  let made: ReturnType<typeof tempDir> | undefined;
  beforeAll(() => {
    made = tempDir(prefix);
  });
  afterAll(() => made?.remove());
  return {
    get dir() {
      if (!made) throw new Error("the temporary folder is made before the tests, not while they are collected");
      return made.dir;
    },
  };
}

export interface CallOptions {
  token?: string | undefined;
  /** The client address (rate limits count by it); 127.0.0.1 by default. */
  ip?: string;
  headers?: Record<string, string>;
}

/** Calls the API as the app does: JSON in and out, the session token as a bearer. */
export async function call(
  server: Pick<TestServer, "app">,
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE",
  url: string,
  payload?: unknown,
  options: CallOptions = {},
) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const res = await server.app.inject({
    method,
    url: `/api${url}`,
    headers,
    remoteAddress: options.ip ?? "127.0.0.1",
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
  return {
    status: res.statusCode,
    body: res.body ? (res.json() as Record<string, unknown>) : {},
    headers: res.headers,
  };
}

type Part<R, K extends string> = R extends { [P in K]: infer S extends z.core.$ZodType } ? z.input<S> : never;

/** The request of a contract route: the token and address as for `call`, its body, path and query. */
export interface RouteRequest<R extends RouteDef> extends CallOptions {
  body?: Part<R, "body">;
  params?: Part<R, "params">;
  query?: Part<R, "query">;
}

/** A route's raw reply: the status, the headers and the JSON body (an error body on 4xx/5xx). */
export interface RouteResult {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string | string[] | number | undefined>;
}

/**
 * Sends the call a contract entry describes: its method and path (`:params` filled), the query
 * string and the JSON body. For error replies and statuses (`injectRoute(...).status`).
 */
export async function injectRoute<R extends RouteDef>(
  server: Pick<TestServer, "app">,
  route: R,
  request: RouteRequest<R> = {},
): Promise<RouteResult> {
  const url = routeUrl(route, request.params as Record<string, unknown>, request.query as Record<string, unknown>);
  return call(server, route.method, url, request.body, request);
}

/**
 * Calls the contract route `name` (`callRoute(server, "bonus", { token })`) and returns its reply
 * parsed by the route's reply schema, typed as the app receives it. Anything but 200 throws with
 * the status and the error body; use `injectRoute` to look at a refusal.
 */
export async function callRoute<N extends RouteName>(
  server: Pick<TestServer, "app">,
  name: N,
  request: RouteRequest<(typeof routes)[N]> = {},
): Promise<z.output<(typeof routes)[N]["response"]>> {
  const route = routes[name] as RouteDef;
  const res = await injectRoute(server, route, request as RouteRequest<RouteDef>);
  if (res.status !== 200) throw new Error(`${name}: ${res.status} ${JSON.stringify(res.body)}`);
  return route.response.parse(res.body) as z.output<(typeof routes)[N]["response"]>;
}

export interface OutboxEntry {
  login: string;
  purpose: "phone" | "password_reset" | "withdrawal" | "wallet";
  code: string;
  channel: string;
  createdAt: string;
}

/** The development outbox (newest first), optionally for one login. */
export async function outbox(server: Pick<TestServer, "app">, login?: string): Promise<OutboxEntry[]> {
  const query = login ? `?login=${encodeURIComponent(login)}` : "";
  const res = await server.app.inject({ method: "GET", url: `/api/dev/outbox${query}` });
  if (res.statusCode !== 200) throw new Error(`outbox: ${res.statusCode} ${res.body}`);
  return res.json() as OutboxEntry[];
}

/** The newest code sent to `login` for `purpose`. */
export async function lastCode(
  server: Pick<TestServer, "app">,
  login: string,
  purpose: OutboxEntry["purpose"],
): Promise<string> {
  const entry = (await outbox(server, login)).find((e) => e.purpose === purpose);
  if (!entry) throw new Error(`no ${purpose} code for ${login} in the outbox`);
  return entry.code;
}

let registered = 0;

/** A registration body that passes every rule; `n` keeps login, e-mail and phone unique. */
export function registration(overrides: Record<string, unknown> = {}) {
  registered += 1;
  const n = `${process.pid % 1000}${registered}`.padStart(6, "0");
  return {
    login: `investor${n}`,
    fullName: "Test Investor",
    email: `investor${n}@example.com`,
    phone: `+7700${n.slice(-7).padStart(7, "0")}`,
    password: "Sunflower42x",
    passwordRepeat: "Sunflower42x",
    acceptTerms: true,
    language: "en",
    ...overrides,
  };
}

/** Registers a new investor invited by `inviter` (the house account by default) and returns the reply. */
export async function registerUser(
  server: Pick<TestServer, "app">,
  overrides: Record<string, unknown> = {},
  inviter = "kassa",
  options: CallOptions = {},
) {
  const body = registration(overrides);
  const res = await call(server, "POST", `/auth/register/${inviter}`, body, options);
  if (res.status !== 200) throw new Error(`registration failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { body, token: res.body.refreshToken as string, reply: res.body };
}
