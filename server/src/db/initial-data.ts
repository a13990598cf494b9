/**
 * A new PGlite database from a ready copy instead of PostgreSQL's initdb. PGlite's initdb runs inside the
 * process and copies its whole WebAssembly heap while it works: a server that created its folder peaked at
 * 1.1-1.3 GB of memory (a 512 MB container was killed at its first start), against ~270 MB for a start on an
 * existing folder. So the build makes the empty, migrated database once, in a process of its own that exits
 * (`make-initial-data.ts`), and a server with a new folder (or `DATA_DIR=memory`) loads that copy
 * (`loadDataDir`) and then applies any migration it lacks, as on every start. Without the copy (the server
 * run from its sources before any build) it runs initdb as before.
 *
 * The copy's name holds a digest of the migrations and PGlite's version, so a copy made for other migrations
 * or another PGlite is never loaded.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { holdsDatabase, MIGRATIONS_FOLDER, openDatabase } from "./client";

/**
 * Where the build keeps the copies: `server/build/pglite/`, from the sources (server/src/db/) and from the
 * bundle (server/build/js/) alike, which sit at the same depth.
 */
const COPIES_FOLDER = fileURLToPath(new URL("../../build/pglite/", import.meta.url));

/** A digest of every migration file (name and bytes) and of PGlite's version. */
export function migrationsDigest(): string {
  const hash = createHash("sha256");
  for (const name of fs.readdirSync(MIGRATIONS_FOLDER, { recursive: true }).map(String).sort()) {
    const file = path.join(MIGRATIONS_FOLDER, name);
    if (fs.statSync(file).isFile()) hash.update(name).update(fs.readFileSync(file));
  }
  // PGlite's package.json is not among its exports: read beside its entry (dist/).
  const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  const pglite = JSON.parse(fs.readFileSync(path.join(path.dirname(entry), "..", "package.json"), "utf8")) as {
    version: string;
  };
  hash.update(pglite.version);
  return hash.digest("hex").slice(0, 16);
}

/** The file of the copy for today's migrations. */
export function initialDataFile(): string {
  return path.join(COPIES_FOLDER, `migrated-${migrationsDigest()}.tar.gz`);
}

/** The copy for a database that does not exist yet in `dataDir`, when the build made one. */
export function initialDataFor(dataDir: string): Blob | undefined {
  if (dataDir !== "memory" && holdsDatabase(dataDir)) return undefined;
  const file = initialDataFile();
  return fs.existsSync(file) ? new Blob([fs.readFileSync(file)]) : undefined;
}

/**
 * Makes the copy for today's migrations unless it is there: a database in memory, migrated, dumped (gzip).
 * Written whole or not at all (another process may read it at any moment). Copies for other digests go.
 */
export async function makeInitialData(): Promise<string> {
  const file = initialDataFile();
  if (fs.existsSync(file)) return file;
  const handle = await openDatabase({ dataDir: "memory" });
  try {
    const client = (handle.db as unknown as { $client: { dumpDataDir(c: "gzip"): Promise<Blob> } }).$client;
    const dump = Buffer.from(await (await client.dumpDataDir("gzip")).arrayBuffer());
    fs.mkdirSync(COPIES_FOLDER, { recursive: true });
    fs.writeFileSync(`${file}.${process.pid}`, dump);
    fs.renameSync(`${file}.${process.pid}`, file);
  } finally {
    await handle.close();
  }
  for (const name of fs.readdirSync(COPIES_FOLDER))
    if (path.join(COPIES_FOLDER, name) !== file && !name.includes(".tar.gz."))
      fs.rmSync(path.join(COPIES_FOLDER, name));
  return file;
}
