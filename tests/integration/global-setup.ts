/**
 * Once per integration run, before any test file: the databases every test server starts from.
 *
 * - PGlite: two data-directory tarballs, one migrated, one migrated with the default settings and
 *   the demo data. A test server loads one (about a second) instead of creating a cluster and
 *   running every migration (several seconds each time). The migrated one is kept between runs.
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
import type { TestProject } from "vitest/node";
import { startPostgres } from "../../scripts/lib/postgres.mjs";
import { buildServer, serverBuildIsStale } from "../../scripts/lib/server-build.mjs";
import { findPostgresBin } from "../../scripts/lib/system.mjs";
import { systemClock } from "../../server/src/clock";
import { openDatabase } from "../../server/src/db/client";
import { migrationsDigest } from "../../server/src/db/initial-data";
import { seedDemo } from "../../server/src/demo/seed";
import { ensureDefaultSettings } from "../../server/src/services/settings";

declare module "vitest" {
  export interface ProvidedContext {
    /** Paths of the PGlite tarballs: migrated only, and migrated + settings + demo data. */
    pgliteTemplates: { migrated: string; seeded: string };
    /** The PostgreSQL server's URL and the name of its migrated template database, or null. */
    postgresTemplate: { url: string; database: string } | null;
  }
}

/**
 * The migrated PGlite data directory, kept between runs under node_modules/.cache, named by what
 * makes it: the migrations and the PGlite version. A changed migration makes a new one.
 */
function migratedCachePath(): string {
  return join("node_modules", ".cache", "kassa-tests", `pglite-migrated-${migrationsDigest()}.tar`);
}

async function pgliteTemplates(dir: string) {
  const cached = migratedCachePath();
  const initialData = existsSync(cached) ? new Blob([readFileSync(cached)]) : undefined;
  const handle = await openDatabase({ dataDir: "memory", initialData });
  try {
    const client = (handle.db as unknown as { $client: PGlite }).$client;
    const dump = async (file: string) => {
      writeFileSync(file, Buffer.from(await (await client.dumpDataDir("none")).arrayBuffer()));
      return file;
    };
    const migrated = await dump(join(dir, "migrated.tar"));
    if (!initialData) {
      // Whole or not at all: another run may read it at any moment.
      mkdirSync(dirname(cached), { recursive: true });
      copyFileSync(migrated, `${cached}.${process.pid}`);
      renameSync(`${cached}.${process.pid}`, cached);
    }
    await ensureDefaultSettings(handle.db, systemClock);
    await seedDemo(handle.db, systemClock);
    const seeded = await dump(join(dir, "seeded.tar"));
    return { migrated, seeded };
  } finally {
    await handle.close();
  }
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
    project.provide("postgresTemplate", url && pgTemplate ? { url, database: pgTemplate.database } : null);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
