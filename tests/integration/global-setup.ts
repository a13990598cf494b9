/**
 * Once per integration run, before any test file: the databases every test server starts from.
 *
 * - PGlite: two data-directory tarballs, kept between runs: a new cluster without any migration
 *   (PGlite's initdb and nothing else, for the tests of migrations on older data) and the same migrated.
 *   And two folders, shut down cleanly: the migrated database, and the same with the default settings and
 *   the demo data. A test server's database is a copy of a folder (helpers.ts), a few tests load a
 *   tarball; either instead of creating a cluster and running every migration (seconds each time).
 * - PostgreSQL (when TEST_DATABASE_URL is set, or a PostgreSQL server is installed: then one is
 *   started here for the run): a migrated template database; `freshPostgres` creates each test's
 *   database from it with `CREATE DATABASE … TEMPLATE`.
 *
 * - The server's built JavaScript, when missing or older than its sources, for the tests that start
 *   it as a process of its own.
 *
 * The teardown removes all of it, whatever the tests did.
 */
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { migrate } from "drizzle-orm/pglite/migrator";
import type { TestProject } from "vitest/node";
import { startPostgres } from "../../scripts/lib/postgres.mjs";
import { buildServer, serverBuildIsStale } from "../../scripts/lib/server-build.mjs";
import { findPostgresBin } from "../../scripts/lib/system.mjs";
import { systemClock } from "../../server/src/clock";
import { MIGRATIONS_FOLDER, openDatabase } from "../../server/src/db/client";
import { migrationsDigest } from "../../server/src/db/initial-data";
import { seedDemo } from "../../server/src/demo/seed";
import { ensureDefaultSettings } from "../../server/src/services/settings";

declare module "vitest" {
  export interface ProvidedContext {
    /** Paths of the PGlite tarballs: a new cluster, and migrated. */
    pgliteTemplates: { empty: string; migrated: string };
    /** The migrated database as a PGlite folder, and the same with the default settings and the demo data: to copy. */
    pgliteFolders: { migrated: string; seeded: string };
    /** The PostgreSQL server's URL and the name of its migrated template database, or null. */
    postgresTemplate: { url: string; database: string } | null;
  }
}

/**
 * A PGlite data directory kept between runs under node_modules/.cache, named by what makes it: the
 * migrations and the PGlite version. A changed migration makes new ones.
 */
function cachePath(kind: "empty" | "migrated"): string {
  return join("node_modules", ".cache", "kassa-tests", `pglite-${kind}-${migrationsDigest()}.tar`);
}

/** The tarballs of a new cluster and of the migrated database: from the cache, or made (initdb) and cached. */
async function pgliteTemplates(dir: string) {
  const cached = { empty: cachePath("empty"), migrated: cachePath("migrated") };
  const empty = join(dir, "empty.tar");
  const migrated = join(dir, "migrated.tar");
  if (existsSync(cached.empty) && existsSync(cached.migrated)) {
    copyFileSync(cached.empty, empty);
    copyFileSync(cached.migrated, migrated);
    return { empty, migrated };
  }
  // A new cluster, dumped before the migrations and after them.
  const handle = await openDatabase({ dataDir: "memory", migrate: false });
  try {
    const client = (handle.db as unknown as { $client: PGlite }).$client;
    const dump = async (file: string) => {
      writeFileSync(file, Buffer.from(await (await client.dumpDataDir("none")).arrayBuffer()));
    };
    await dump(empty);
    await migrate(handle.db as never, { migrationsFolder: MIGRATIONS_FOLDER });
    await dump(migrated);
  } finally {
    await handle.close();
  }
  // Whole or not at all: another run may read them at any moment.
  mkdirSync(dirname(cached.migrated), { recursive: true });
  for (const [file, to] of [
    [empty, cached.empty],
    [migrated, cached.migrated],
  ] as const) {
    copyFileSync(file, `${to}.${process.pid}`);
    renameSync(`${to}.${process.pid}`, to);
  }
  return { empty, migrated };
}

/**
 * The migrated database as a PGlite folder, shut down cleanly, and a copy of it with the default settings and the
 * demo data seeded at the system clock: a test server's database is a copy of one (helpers.ts, `createTestServer`).
 */
async function pgliteFolders(dir: string, migratedTarball: string) {
  const migrated = join(dir, "migrated-folder");
  await (await openDatabase({ dataDir: migrated, initialData: new Blob([readFileSync(migratedTarball)]) })).close();
  const seeded = join(dir, "seeded-folder");
  cpSync(migrated, seeded, { recursive: true });
  const handle = await openDatabase({ dataDir: seeded });
  try {
    await ensureDefaultSettings(handle.db, systemClock);
    await seedDemo(handle.db, systemClock);
  } finally {
    await handle.close();
  }
  return { migrated, seeded };
}

async function postgresTemplate(url: string) {
  const database = `kassa_template_${process.pid}`;
  const admin = await openDatabase({ databaseUrl: url, migrate: false });
  try {
    await admin.db.execute(sql.raw(`drop database if exists ${database} with (force)`));
    await admin.db.execute(sql.raw(`create database ${database}`));
  } finally {
    await admin.close();
  }
  const target = new URL(url);
  target.pathname = `/${database}`;
  // Migrated, then closed: PostgreSQL copies a template only while nobody is connected to it.
  await (await openDatabase({ databaseUrl: target.toString() })).close();
  return {
    database,
    async drop() {
      const again = await openDatabase({ databaseUrl: url, migrate: false });
      try {
        await again.db.execute(sql.raw(`drop database if exists ${database} with (force)`));
      } finally {
        await again.close();
      }
    },
  };
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), "kassa-templates-"));
  const cleanups: Array<() => unknown> = [() => rmSync(dir, { recursive: true, force: true })];
  const teardown = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    // One file alone (`npx vitest run tests/integration/x.test.ts`) gets its PostgreSQL too.
    let url: string | undefined = process.env.TEST_DATABASE_URL;
    const bin = url ? null : findPostgresBin();
    if (!url && bin) {
      const pg = await startPostgres(bin);
      cleanups.push(() => pg.stop());
      url = pg.url;
      process.env.TEST_DATABASE_URL = url;
    }
    // The server as npm start runs it, for the tests that start it as a process (two-instances).
    if (serverBuildIsStale()) await buildServer();
    const [templates, pgTemplate] = await Promise.all([pgliteTemplates(dir), url ? postgresTemplate(url) : null]);
    if (pgTemplate) cleanups.push(() => pgTemplate.drop());
    project.provide("pgliteTemplates", templates);
    project.provide("pgliteFolders", await pgliteFolders(dir, templates.migrated));
    project.provide("postgresTemplate", url && pgTemplate ? { url, database: pgTemplate.database } : null);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
