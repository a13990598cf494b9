/**
 * Opens the database: a real PostgreSQL through postgres.js when a URL is given, otherwise the
 * embedded PGlite (in a folder, locked against a second process, or in memory). Migrations from
 * ./migrations are applied on open with the driver's own migrator, when the database lacks one.
 *
 * Only the driver in use is loaded (each is imported when its database is opened), and the
 * migrator only when a migration is missing: a start on an up-to-date database asks it one
 * question instead (server/README.md, "Performance").
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PGlite, PGliteOptions } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { acquireDataDirLock, type DataDirLock } from "./lock";
import { parsersOnce } from "./parsers-once";
import { cancellable } from "./query-scope";
import * as schema from "./schema";
import { oneCallPerTurn } from "./turns";

/** A database handle as services take it; both drivers provide the same query builder. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export type DatabaseKind = "pglite" | "postgres";

export interface DatabaseHandle {
  db: Database;
  kind: DatabaseKind;
  /** The PGlite folder, `memory`, or undefined for PostgreSQL. */
  dataDir: string | undefined;
  /** Closes the connection and releases the folder lock. Safe to call twice. */
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** `postgres://…`; when set, `dataDir` is ignored. */
  databaseUrl?: string | undefined;
  /** PGlite folder, or `memory` (the default) for a throw-away database. */
  dataDir?: string | "memory" | undefined;
  /** Apply pending migrations (default true). */
  migrate?: boolean;
  /**
   * Open only a database that exists already (the operator CLI): a PGlite folder holding one, a
   * PostgreSQL database holding Kassa's tables. Anything else throws `DatabaseMissingError`
   * instead of creating an empty database.
   */
  existingOnly?: boolean;
  /**
   * PGlite only: a new database starts from this data directory (a `dumpDataDir()` tarball of a
   * migrated one) instead of an empty cluster; a folder that already holds a database ignores it.
   * Migrations still run after. The tests start each server from one migrated copy this way.
   */
  initialData?: Blob | undefined;
  /**
   * PostgreSQL only: the longest a statement of the app's connections may run, in milliseconds
   * (`statement_timeout`; 0 or unset: no limit). Migrations run without it.
   */
  statementTimeoutMs?: number | undefined;
  /**
   * PostgreSQL only: the longest a statement of the app's connections waits for a row or table
   * another transaction holds (`lock_timeout`; default DEFAULT_LOCK_TIMEOUT_MS, 0: no limit). Past
   * it the statement fails with 55P03 and the request is answered 503 BUSY (errors.ts).
   */
  lockTimeoutMs?: number | undefined;
  /**
   * PostgreSQL only: the longest a transaction of the app's connections may sit idle between its
   * statements (`idle_in_transaction_session_timeout`; default DEFAULT_IDLE_IN_TRANSACTION_MS, 0: no
   * limit). Past it PostgreSQL ends the session: its locks and the pool's connection are freed.
   */
  idleInTransactionMs?: number | undefined;
}

/** `lock_timeout` of the app's connections: a write queued behind the same user's others waits this long at most. */
const DEFAULT_LOCK_TIMEOUT_MS = 5000;
/** `idle_in_transaction_session_timeout` of the app's connections: no transaction of the app waits on anything this long. */
const DEFAULT_IDLE_IN_TRANSACTION_MS = 60_000;

/** `existingOnly` was asked and there is no Kassa database where the configuration points. */
export class DatabaseMissingError extends Error {
  constructor(readonly where: string) {
    super(
      `there is no Kassa database at ${where}: the server creates it on its first start. ` +
        "Point DATA_DIR (or DATABASE_URL) where the server keeps its data, or reach a running server with --server <url>",
    );
    this.name = "DatabaseMissingError";
  }
}

/** Whether a folder holds a PostgreSQL data directory (what PGlite writes on its first open). */
export function holdsDatabase(dataDir: string): boolean {
  return fs.existsSync(path.join(dataDir, "PG_VERSION"));
}

/** Resolved from this file, not the working directory, so any launcher finds the migrations. */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL("./migrations", import.meta.url));

/** The time of the journal's newest migration (drizzle's `folderMillis`, the `when` of meta/_journal.json). */
function newestMigration(): number {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as {
    entries: { when: number }[];
  };
  return Math.max(...journal.entries.map((entry) => entry.when));
}

/**
 * Whether the database holds every migration of the journal. Drizzle's migrator applies each
 * migration newer than the newest one recorded in drizzle.__drizzle_migrations; when that one is
 * as new as the journal's newest, the migrator would only check its table and open an empty
 * transaction, after reading and hashing every file. One cheap question instead.
 */
async function upToDate(rows: (text: string) => Promise<Record<string, unknown>[]>): Promise<boolean> {
  const [table] = await rows("select to_regclass('drizzle.__drizzle_migrations') is not null as present");
  if (!table?.present) return false;
  const [last] = await rows("select max(created_at)::text as applied from drizzle.__drizzle_migrations");
  return typeof last?.applied === "string" && Number(last.applied) >= newestMigration();
}

export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<DatabaseHandle> {
  const runMigrations = options.migrate ?? true;
  const existingOnly = options.existingOnly ?? false;
  if (options.databaseUrl)
    return openPostgres(options.databaseUrl, runMigrations, existingOnly, {
      statement_timeout: options.statementTimeoutMs ?? 0,
      lock_timeout: options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS,
      idle_in_transaction_session_timeout: options.idleInTransactionMs ?? DEFAULT_IDLE_IN_TRANSACTION_MS,
    });
  const dataDir = options.dataDir ?? "memory";
  if (existingOnly && (dataDir === "memory" || !holdsDatabase(dataDir))) throw new DatabaseMissingError(dataDir);
  return openPglite(dataDir, runMigrations, options.initialData);
}

/** The time limits of the app's PostgreSQL connections, in milliseconds (0: none). */
interface PostgresLimits {
  statement_timeout: number;
  lock_timeout: number;
  idle_in_transaction_session_timeout: number;
}

async function openPostgres(
  url: string,
  runMigrations: boolean,
  existingOnly: boolean,
  limits: PostgresLimits,
): Promise<DatabaseHandle> {
  const [{ default: postgres }, { drizzle }] = await Promise.all([
    import("postgres"),
    import("drizzle-orm/postgres-js"),
  ]);
  // Notices ("relation already exists, skipping") are noise in the logs. JIT compilation is off:
  // the app's statements are short, and compiling them cost more than it saved (server/README.md,
  // "Database"). The limits bound every wait of a statement or a transaction, so no request holds
  // a connection of the pool for ever (server/README.md, "Performance").
  // Statements are prepared per connection (db/query-scope.ts) and still planned with their values.
  const connection = { jit: "off", plan_cache_mode: "force_custom_plan", ...limits };
  const client = postgres(url, { max: 10, onnotice: () => {}, connection });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await client.end({ timeout: 5 });
  };
  try {
    // The checks go through the app's pool (its first connection is then open for the first
    // request); migrations through a connection of their own, without the app's time limits.
    if (existingOnly) {
      const [row] = await client`select to_regclass('public.users') is not null as present`;
      if (!row?.present) throw new DatabaseMissingError("DATABASE_URL");
    }
    if (runMigrations && !(await upToDate((text) => client.unsafe(text)))) {
      const { migrate } = await import("drizzle-orm/postgres-js/migrator");
      const setup = postgres(url, { max: 1, onnotice: () => {}, connection: { jit: "off" } });
      try {
        await migrate(drizzle({ client: setup, schema }), { migrationsFolder: MIGRATIONS_FOLDER });
      } finally {
        await setup.end({ timeout: 5 });
      }
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { db: drizzle({ client: cancellable(client), schema }), kind: "postgres", dataDir: undefined, close };
}

/** PGlite's `shared_buffers` (see openPglite). */
export const PGLITE_SHARED_BUFFERS = "32MB";

type PgliteWasm = NonNullable<PGliteOptions["pgliteWasmModule"]>;
/** Node's global (the server's TypeScript libraries do not describe it). */
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<PgliteWasm> };

/**
 * PGlite's WebAssembly, compiled, and its file-system bundle (the PostgreSQL share/ files), both
 * read from the package's own folder. PGlite reads and compiles them itself inside `create`, after
 * its JavaScript is loaded; started before that, the compile (on V8's background threads) runs
 * while the main thread loads the package and the app's modules. The compiled module is kept: a
 * process opening several databases (the tests) compiles it once; PGlite keeps it anyway.
 */
let compiledPglite: Promise<PgliteWasm> | undefined;
function pgliteArtifacts(): { wasmModule: Promise<PgliteWasm>; fsBundle: Promise<Blob> } {
  const dist = path.dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite"));
  compiledPglite ??= fs.promises.readFile(path.join(dist, "pglite.wasm")).then((bytes) => WebAssembly.compile(bytes));
  const wasmModule = compiledPglite;
  wasmModule.catch(() => {
    if (compiledPglite === wasmModule) compiledPglite = undefined;
  });
  const fsBundle = fs.promises.readFile(path.join(dist, "pglite.data")).then((bytes) => new Blob([bytes]));
  return { wasmModule, fsBundle };
}

async function openPglite(dataDir: string, runMigrations: boolean, initialData?: Blob): Promise<DatabaseHandle> {
  let lock: DataDirLock | undefined;
  if (dataDir !== "memory") {
    lock = acquireDataDirLock(dataDir);
    try {
      fs.mkdirSync(dataDir, { recursive: true });
    } catch (error) {
      lock.release();
      throw error;
    }
  }
  let client: PGlite;
  let drizzle: typeof import("drizzle-orm/pglite").drizzle;
  try {
    const artifacts = pgliteArtifacts();
    const [{ PGlite }, { pg_trgm }, drizzlePglite, pgliteWasmModule, fsBundle] = await Promise.all([
      import("@electric-sql/pglite"),
      import("@electric-sql/pglite/contrib/pg_trgm"),
      import("drizzle-orm/pglite"),
      artifacts.wasmModule,
      artifacts.fsBundle,
    ]);
    drizzle = drizzlePglite.drizzle;
    // pg_trgm: the trigram index of logins the partners table's search uses (migration 0011).
    // shared_buffers: PostgreSQL's default (128 MB) lives inside the process's own memory here; 32 MB
    // holds the pages the cabinet's calls touch, and the rest is read through the file system's cache.
    const startParams = [...PGlite.defaultStartParams, "-c", `shared_buffers=${PGLITE_SHARED_BUFFERS}`];
    const options = { extensions: { pg_trgm }, startParams, pgliteWasmModule, fsBundle };
    const fresh = initialData && (dataDir === "memory" || !holdsDatabase(dataDir));
    client = await PGlite.create({
      ...(dataDir === "memory" ? {} : { dataDir }),
      ...(fresh ? { loadDataDir: initialData } : {}),
      ...options,
    });
  } catch (error) {
    lock?.release();
    throw error;
  }
  // drizzle's parsers in the client's table once, not copied with it for every statement (parsers-once.ts); one call
  // per turn of the event loop, so connections are accepted and requests read between them (turns.ts).
  oneCallPerTurn(parsersOnce(client));
  const db = drizzle({ client, schema });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    try {
      await client.close();
    } finally {
      lock?.release();
    }
  };
  try {
    if (runMigrations && !(await upToDate(async (text) => (await client.query<Record<string, unknown>>(text)).rows))) {
      const { migrate } = await import("drizzle-orm/pglite/migrator");
      await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { db, kind: "pglite", dataDir, close };
}
