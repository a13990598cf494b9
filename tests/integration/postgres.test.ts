/**
 * The same server on a real PostgreSQL (postgres.js driver, its own migrator, a connection pool,
 * so requests really run at the same time). Runs when TEST_DATABASE_URL points at an empty,
 * disposable database (`npm test` starts one).
 */
import fs from "node:fs";
import path from "node:path";
import { routes } from "@contract";
import { RegisterBody, SessionReply } from "@contract/auth";
import { sign } from "@telegram-apps/init-data-node";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, MIGRATIONS_FOLDER, openDatabase } from "../../server/src/db/client";
import * as schema from "../../server/src/db/schema";
import { DEMO_LOGIN, DEMO_PASSWORD } from "../../server/src/demo/seed";
import { DEV_BOT_TOKEN } from "../../server/src/env";
import {
  callRoute,
  createTestServer,
  injectRoute,
  lastCode,
  registerUser,
  registration,
  type TestServer,
} from "./helpers";

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
    const plans = await callRoute(server, "plansAvailable");
    expect(plans.map((p) => [p.id, p.dailyYieldPercent, p.maxAmount])).toEqual([
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

  it("walks the sign-in slice: register, confirm the phone, sign in, reset the password", async () => {
    const { body, token } = await registerUser(server);
    const confirmed = await callRoute(server, "phoneConfirm", {
      token,
      body: {
        code: await lastCode(server, body.login, "phone"),
      },
    });
    expect(confirmed).toMatchObject({ user: { phoneConfirmed: true } });

    const demo = await callRoute(server, "login", { body: { login: DEMO_LOGIN, password: DEMO_PASSWORD } });
    expect(SessionReply.parse(demo).user.phoneConfirmed).toBe(true);

    await callRoute(server, "resetPassword", { body: { login: body.email } });
    const code = await lastCode(server, body.login, "password_reset");
    const validated = await callRoute(server, "resetPasswordValidate", { body: { login: body.login, code } });
    const resetToken = validated.resetToken as string;
    const set = await callRoute(server, "setPassword", {
      body: {
        resetToken,
        password: "Lighthouse55k",
        passwordRepeat: "Lighthouse55k",
      },
    });
    expect(set).toEqual({ ok: true });
    expect((await injectRoute(server, routes.currentUser, { token })).status).toBe(401);
    expect(
      (await injectRoute(server, routes.login, { body: { login: body.login, password: "Lighthouse55k" } })).status,
    ).toBe(200);
  });

  it("gives concurrent registrations of one login one account, and LOGIN_TAKEN to the others", async () => {
    const login = "racer2026";
    const results = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        injectRoute(server, routes.register, {
          ip: `192.0.2.${i + 1}`,
          body: RegisterBody.parse(registration({ login })),
          params: { inviter: "kassa" },
        }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.code).toBe("LOGIN_TAKEN");
    const rows = await handle.db.select().from(schema.users).where(sql`lower(${schema.users.login}) = ${login}`);
    expect(rows).toHaveLength(1);
  });

  it("creates one account when one Telegram user signs in from several requests at once", async () => {
    const user = { id: 7_100_000_001, first_name: "Concurrent", username: "concurrent1" };
    const initData = sign({ user, query_id: "AAq" } as Parameters<typeof sign>[0], DEV_BOT_TOKEN, new Date());
    const results = await Promise.all(
      Array.from({ length: 4 }, () => injectRoute(server, routes.telegramAuth, { body: { initData } })),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(results.map((r) => (r.body.user as { id: string }).id)).size).toBe(1);
    const rows = await handle.db.select().from(schema.users).where(sql`${schema.users.telegramId} = ${user.id}`);
    expect(rows).toHaveLength(1);
  });
});
