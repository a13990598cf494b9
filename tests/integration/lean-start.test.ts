/**
 * The server's start as `npm start` runs it (its built JavaScript, global-setup.ts builds it when
 * stale, and `npm start`'s V8 options), server/README.md "Performance": packages a start does not need are not loaded — the bot's
 * (grammy) without a bot, the app's file server without a built app, the API docs' without API_DOCS,
 * sanitize-html until a news item is read, file-type until an upload — and liveness answers while
 * the database is still opening, readiness saying 503 until it answers. Only the database in use is
 * loaded (PGlite or the PostgreSQL driver, never both), and the migrator only when a migration is
 * missing.
 *
 * What the process loads is read from a line per module it writes (module-log.mjs, given with `node --import`: a
 * load hook of Node's own, for ES modules and CommonJS alike), by the package's folder in node_modules. Node's
 * module debug log (NODE_DEBUG=module,esm) says as much in ~40 MB per start, which a busy machine read behind.
 */
import fs from "node:fs";
import { createServer, type Server } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { migrate } from "drizzle-orm/pglite/migrator";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SERVER_ENTRY } from "../../scripts/lib/server-build.mjs";
import { MIGRATIONS_FOLDER, openDatabase } from "../../server/src/db/client";
import { type BuiltServer, killRunningServers, NPM_START_OPTIONS, spawnBuiltServer } from "../e2e/support/server";
import { copyTemplateFolder, pgliteTemplate, tempDir } from "./helpers";
import { freshPostgres, POSTGRES_SKIP_REASON, TEST_DATABASE_URL } from "./money";

const OPERATOR_TOKEN = "lean-start-operator-token-0123456789";

interface Started extends BuiltServer {
  /** The API's address. */
  url: string;
  loaded(pkg: string): boolean;
  /** Whether drizzle's migrator was loaded (from node_modules, or bundled: its own chunk). */
  loadedMigrator(): boolean;
  /**
   * Resolves once the output has stopped growing: the parts a start imports once it is ready (in its
   * background) are in the log by then.
   */
  settled(): Promise<void>;
}

afterEach(killRunningServers);

const MODULE_LOG = fileURLToPath(new URL("./module-log.mjs", import.meta.url));

async function start(env: Record<string, string>, logModules = false): Promise<Started> {
  const server = await spawnBuiltServer(
    {
      STATIC_DIR: "",
      SEED_DEMO: "false",
      TELEGRAM_BOT: "off",
      API_DOCS: "false",
      ACCRUAL_INTERVAL_SECONDS: "0",
      OPERATOR_TOKEN,
      ...env,
    },
    { args: [...NPM_START_OPTIONS, ...(logModules ? ["--import", MODULE_LOG] : []), SERVER_ENTRY] },
  );
  return Object.assign(server, {
    url: `${server.origin}/api`,
    loaded: (pkg: string) => server.output().includes(`node_modules/${pkg}/`),
    loadedMigrator: () => /^\[module\] .*\/migrator[-.]\w*\.?m?js$/m.test(server.output()),
    settled: async () => {
      for (let length = -1; length !== server.output().length; ) {
        length = server.output().length;
        await new Promise((r) => setTimeout(r, 1000));
      }
    },
  });
}

describe("a lean start", () => {
  it("loads neither the bot's, the file server's, the docs' nor the news' and uploads' packages until they are used", async () => {
    const server = await start({ DATA_DIR: "memory" }, true);
    await server.ready();
    await server.settled();
    // The log does see packages: the ones every start needs.
    expect(server.loaded("fastify")).toBe(true);
    expect(server.loaded("@electric-sql/pglite")).toBe(true);
    for (const pkg of [
      "grammy",
      "@grammyjs/auto-retry",
      "@fastify/static",
      "@fastify/swagger",
      "sanitize-html",
      "file-type",
    ])
      expect({ pkg, loaded: server.loaded(pkg) }).toEqual({ pkg, loaded: false });

    // A news item read: sanitize-html is loaded then.
    const added = await fetch(`${server.url}/operator/news`, {
      method: "POST",
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ title: { en: "Fish & Chips" }, body: { en: "<p>Hello<script>x()</script></p>" } }),
    });
    expect(added.status).toBe(200);
    const news = await fetch(`${server.url}/content/news?lang=en`);
    expect(news.status).toBe(200);
    expect(JSON.stringify(await news.json())).toContain("<p>Hello</p>");
    await vi.waitFor(() => expect(server.loaded("sanitize-html")).toBe(true), { timeout: 120_000, interval: 250 });
    await server.settled();
    expect(server.loaded("grammy")).toBe(false);
  }, 300_000);

  describe("the database in use, and nothing more", () => {
    const folders: { remove(): void }[] = [];
    afterEach(() => {
      for (const folder of folders.splice(0)) folder.remove();
    });

    it("on an up-to-date PGlite folder: neither the PostgreSQL driver nor the migrator", async () => {
      const folder = tempDir("kassa-lean-start-");
      folders.push(folder);
      const dataDir = path.join(folder.dir, "pglite");
      copyTemplateFolder("migrated", dataDir);

      const server = await start({ DATA_DIR: dataDir }, true);
      await server.ready();
      await server.settled();
      // Stopped as `kill` does, and exited: the PGlite folder's lock is free then, and the whole log read.
      await server.stop(60_000);
      expect(server.loaded("@electric-sql/pglite")).toBe(true);
      expect(server.loaded("postgres")).toBe(false);
      expect(server.loadedMigrator()).toBe(false);
    }, 300_000);

    it("on a PGlite folder that lacks the newest migration: the migrator, and the migration applied", async () => {
      const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, "meta/_journal.json"), "utf8")) as {
        entries: { tag: string }[];
      };
      // The migrations but the newest, as a folder an older server left.
      const older = tempDir("kassa-lean-migrations-");
      const folder = tempDir("kassa-lean-start-");
      folders.push(older, folder);
      const entries = journal.entries.slice(0, -1);
      fs.mkdirSync(path.join(older.dir, "meta"));
      fs.writeFileSync(path.join(older.dir, "meta/_journal.json"), JSON.stringify({ ...journal, entries }));
      for (const e of entries)
        fs.copyFileSync(path.join(MIGRATIONS_FOLDER, `${e.tag}.sql`), path.join(older.dir, `${e.tag}.sql`));
      const dataDir = path.join(folder.dir, "pglite");
      // A new cluster (the run's, not initdb here), then the older migrations.
      const old = await openDatabase({ dataDir, migrate: false, initialData: pgliteTemplate("empty") });
      await migrate(old.db as never, { migrationsFolder: older.dir });
      await old.close();

      const server = await start({ DATA_DIR: dataDir }, true);
      await server.ready();
      // The migrator is imported before the database is ready, so its line is in by now but for what the pipe still
      // holds; on a failure the output's end says what the server did instead.
      const said = () =>
        server
          .lines()
          .filter((line) => !line.startsWith("[module] "))
          .join("\n");
      await vi.waitFor(() => expect(server.loadedMigrator(), said()).toBe(true), {
        timeout: 120_000,
        interval: 250,
      });
      expect(server.child.exitCode, "the server answering readiness is this one").toBeNull();
      await server.stop(60_000);

      const after = await openDatabase({ dataDir, migrate: false });
      try {
        const rows = await after.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
        expect((rows as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(journal.entries.length);
      } finally {
        await after.close();
      }
    }, 300_000);

    it.skipIf(!TEST_DATABASE_URL)(
      `on PostgreSQL: not PGlite${TEST_DATABASE_URL ? "" : ` (skipped: ${POSTGRES_SKIP_REASON})`}`,
      async () => {
        const database = await freshPostgres("lean_start");
        try {
          const server = await start(
            { DATABASE_URL: database.url, CODE_SECRET: "lean-start-code-secret-lean-start-code-secret" },
            true,
          );
          await server.ready();
          await server.settled();
          await server.stop(60_000);
          expect(server.loaded("postgres")).toBe(true);
          expect(server.loaded("@electric-sql/pglite")).toBe(false);
        } finally {
          await database.drop();
        }
      },
      300_000,
    );
  });

  describe("while the database does not answer yet", () => {
    let silent: Server | undefined;
    afterEach(async () => {
      await new Promise((r) => silent?.close(r));
    });

    it("answers liveness, says not ready, and holds the other calls", async () => {
      // A "PostgreSQL" that takes the connection and never answers: opening the database waits.
      const held = new Set<import("node:net").Socket>();
      silent = createServer((socket) => {
        held.add(socket);
        socket.on("close", () => held.delete(socket));
      });
      await new Promise<void>((r) => silent?.listen(0, "127.0.0.1", r));
      const address = silent.address();
      const port = typeof address === "object" && address ? address.port : 0;
      const server = await start({
        DATABASE_URL: `postgres://kassa:kassa@127.0.0.1:${port}/kassa`,
        CODE_SECRET: "lean-start-code-secret-lean-start-code-secret",
      });

      const live = await server.ready("/api/health");
      expect(await live.json()).toEqual({ ok: true });
      // Liveness answers before the database is asked for; the connection comes when the opening gets to it.
      await vi.waitFor(() => expect(held.size).toBeGreaterThan(0), { timeout: 60_000, interval: 50 });

      const ready = await fetch(`${server.url}/health/ready`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ ok: false, database: "down" });

      // A call that needs the database waits for it instead of failing.
      const settings = await fetch(`${server.url}/settings/technical_work`, { signal: AbortSignal.timeout(1000) }).then(
        (res) => res.status,
        (error: Error) => error.name,
      );
      expect(settings).toBe("TimeoutError");
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
      for (const socket of held) socket.destroy();
    }, 300_000);
  });
});
