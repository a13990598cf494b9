/**
 * The same server on a real PostgreSQL (postgres.js driver, its own migrator). Runs when
 * TEST_DATABASE_URL points at an empty, disposable database (`npm test` starts one).
 */
import fs from "node:fs";
import path from "node:path";
import { PlansReply } from "@contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, MIGRATIONS_FOLDER, openDatabase } from "../../server/src/db/client";
import { createTestServer, type TestServer } from "./helpers";

const url = process.env.TEST_DATABASE_URL;
const reason = "set TEST_DATABASE_URL to a disposable PostgreSQL database to run (npm test does)";
if (!url) console.warn(`[kassa] PostgreSQL integration tests skipped: ${reason}`);

describe.skipIf(!url)(`PostgreSQL${url ? "" : ` (skipped: ${reason})`}`, () => {
  let handle: DatabaseHandle;
  let server: TestServer;

  beforeAll(async () => {
    const admin = await openDatabase({ databaseUrl: url, migrate: false });
    // Start from nothing, so the migrations run for real.
    await admin.db.execute(sql`drop schema if exists public cascade`);
    await admin.db.execute(sql`drop schema if exists drizzle cascade`);
    await admin.db.execute(sql`create schema public`);
    await admin.close();
    handle = await openDatabase({ databaseUrl: url });
    server = await createTestServer({ handle });
  });

  afterAll(async () => {
    await server?.close();
    await handle?.close();
  });

  it("runs the migrations and serves the seeded plans", async () => {
    expect(handle.kind).toBe("postgres");
    const res = await server.app.inject({ method: "GET", url: "/api/settings_other/plans/available" });
    expect(res.statusCode).toBe(200);
    expect(PlansReply.parse(res.json()).map((p) => [p.id, p.dailyYieldPercent, p.maxAmount])).toEqual([
      ["start", "1", "1000"],
      ["standard", "1.5", "10000"],
      ["premium", "2", "100000"],
    ]);
  });

  it("opens an already migrated database again without changes", async () => {
    const again = await openDatabase({ databaseUrl: url });
    try {
      const rows = await again.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
      const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, "meta/_journal.json"), "utf8")) as {
        entries: unknown[];
      };
      expect((rows as unknown as { n: number }[])[0]?.n).toBe(journal.entries.length);
    } finally {
      await again.close();
    }
  });
});
