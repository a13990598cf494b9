/**
 * Migration 0015_home on a database written before it: the withdrawal returns recorded as positive
 * `withdrawal` operations take their own kind (and the kept totals follow), and the income by day is
 * filled from the accruals and partner income already there (a deposit closed early left out).
 */
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { migrate } from "drizzle-orm/pglite/migrator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS_FOLDER, openDatabase } from "../../server/src/db/client";
import { resultRows } from "../../server/src/db/rows";
import { pgliteTemplate, tempDir } from "./helpers";

describe("migration 0015_home on older data", () => {
  const folder = tempDir("kassa-migrations-");
  let handle: Awaited<ReturnType<typeof openDatabase>>;

  beforeAll(async () => {
    // The migrations up to 0014, as a database written before this one has them.
    const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, "meta/_journal.json"), "utf8")) as {
      entries: { idx: number; tag: string }[];
    };
    const before = journal.entries.filter((e) => e.idx < 15);
    fs.mkdirSync(path.join(folder.dir, "meta"));
    fs.writeFileSync(path.join(folder.dir, "meta/_journal.json"), JSON.stringify({ ...journal, entries: before }));
    for (const e of before)
      fs.copyFileSync(path.join(MIGRATIONS_FOLDER, `${e.tag}.sql`), path.join(folder.dir, `${e.tag}.sql`));
    // A new cluster (the run's, not initdb here), then the migrations up to 0014.
    handle = await openDatabase({ dataDir: "memory", migrate: false, initialData: pgliteTemplate("empty") });
    await migrate(handle.db as never, { migrationsFolder: folder.dir });
  });

  afterAll(async () => {
    await handle?.close();
    folder.remove();
  });

  it("relabels the old returns exactly and fills the income by day", async () => {
    const db = handle.db;
    await db.execute(sql`
      insert into users (id, login, full_name, language, created_at) values
        ('00000000-0000-4000-8000-000000000001', 'oldtimer', 'Old Timer', 'en', '2026-01-01T00:00:00Z'),
        ('00000000-0000-4000-8000-000000000002', 'neighbour', 'Neighbour', 'en', '2026-01-01T00:00:00Z')`);
    await db.execute(sql`
      insert into plans (id, name, currency, daily_yield_percent, duration_days, min_amount, max_amount, active, sort)
      values ('old-plan', '{"en":"Old","ru":"Old","de":"Old","kk":"Old"}', 'USDT', 1, 10, 1, 1000, true, 0)`);
    await db.execute(sql`
      insert into deposits (id, user_id, plan_id, currency, amount, daily_yield_percent, duration_days, daily_income,
                            accrued_held, days_accrued, status, started_at, ends_at, created_at) values
        ('00000000-0000-4000-8000-0000000000d1', '00000000-0000-4000-8000-000000000001', 'old-plan', 'USDT', 100, 1, 10,
         1, 2, 2, 'active', '2026-01-01T10:00:00Z', '2026-01-11T10:00:00Z', '2026-01-01T10:00:00Z'),
        ('00000000-0000-4000-8000-0000000000d2', '00000000-0000-4000-8000-000000000001', 'old-plan', 'USDT', 50, 1, 10,
         0.5, 1, 1, 'closed', '2026-01-01T10:00:00Z', '2026-01-11T10:00:00Z', '2026-01-01T10:00:00Z')`);
    await db.execute(sql`
      insert into accruals (deposit_id, day_index, amount, due_at, created_at) values
        ('00000000-0000-4000-8000-0000000000d1', 1, 1, '2026-01-02T10:00:00Z', '2026-01-02T10:00:00Z'),
        ('00000000-0000-4000-8000-0000000000d1', 2, 1, '2026-01-03T10:00:00Z', '2026-01-03T10:00:00Z'),
        ('00000000-0000-4000-8000-0000000000d2', 1, 0.5, '2026-01-02T10:00:00Z', '2026-01-02T10:00:00Z')`);
    await db.execute(sql`
      insert into operations (user_id, currency, type, amount, meta, created_at) values
        ('00000000-0000-4000-8000-000000000001', 'USDT', 'refill', 300, null, '2026-01-01T09:00:00Z'),
        ('00000000-0000-4000-8000-000000000001', 'USDT', 'withdrawal', -20, '{"withdrawalId":"w1"}', '2026-01-01T11:00:00Z'),
        ('00000000-0000-4000-8000-000000000001', 'USDT', 'withdrawal', 20, '{"withdrawalId":"w1","reversal":true,"status":"cancelled"}', '2026-01-01T11:05:00Z'),
        ('00000000-0000-4000-8000-000000000001', 'USDT', 'withdrawal', -30, '{"withdrawalId":"w2"}', '2026-01-01T12:00:00Z'),
        ('00000000-0000-4000-8000-000000000001', 'USDT', 'referral', 2.5, null, '2026-01-03T23:59:59Z'),
        ('00000000-0000-4000-8000-000000000002', 'USDT', 'withdrawal', -5, '{"withdrawalId":"w3"}', '2026-01-01T12:00:00Z'),
        ('00000000-0000-4000-8000-000000000002', 'USDT', 'withdrawal', 5, '{"withdrawalId":"w3","reversal":true,"status":"rejected"}', '2026-01-01T13:00:00Z')`);

    await migrate(db as never, { migrationsFolder: MIGRATIONS_FOLDER });

    const kinds = resultRows<{ login: string; type: string; amount: string }>(
      await db.execute(sql`
        select u.login, o.type, o.amount::float8::text as amount from operations o join users u on u.id = o.user_id
         where o.type like 'withdrawal%' order by u.login, o.created_at`),
    );
    expect(kinds.map((k) => `${k.login} ${k.type} ${k.amount}`)).toEqual([
      "neighbour withdrawal -5",
      "neighbour withdrawal_return 5",
      "oldtimer withdrawal -20",
      "oldtimer withdrawal_return 20",
      "oldtimer withdrawal -30",
    ]);
    const totals = resultRows<{ login: string; type: string; count: string; credited: string }>(
      await db.execute(sql`
        select u.login, t.type, t.count::text as count, t.credited::float8::text as credited
          from operation_totals t join users u on u.id = t.user_id where t.type like 'withdrawal%'
         order by u.login, t.type`),
    );
    expect(totals.map((t) => `${t.login} ${t.type} ${t.count} ${t.credited}`)).toEqual([
      "neighbour withdrawal 1 0",
      "neighbour withdrawal_return 1 5",
      "oldtimer withdrawal 2 0",
      "oldtimer withdrawal_return 1 20",
    ]);
    const income = resultRows<{ day: string; accruals: string; bonuses: string }>(
      await db.execute(sql`
        select day::text as day, accruals::float8::text as accruals, bonuses::float8::text as bonuses from income_days
         where user_id = '00000000-0000-4000-8000-000000000001' order by day`),
    );
    // The closed deposit's 0.5 on 01-02 is left out: it was forfeited.
    expect(income).toEqual([
      { day: "2026-01-02", accruals: "1", bonuses: "0" },
      { day: "2026-01-03", accruals: "1", bonuses: "2.5" },
    ]);
  });
});
