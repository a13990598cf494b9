/**
 * Kept totals and keyset paging: the operations list's totals, statistics' `earned` and
 * `referrals` and the partners table's rows and totals come from tables the database keeps as
 * operations, deposits, earnings and users are written. Here they are compared with the same
 * figures counted from the ledger after writes of every kind, and keyset pages (`after`) with the
 * numbered pages they replace.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "../../server/src/clock";
import { resultRows } from "../../server/src/db/rows";
import * as schema from "../../server/src/db/schema";
import { callRoute, createTestServer, type TestServer } from "./helpers";
import { fund, type Investor, newInvestor } from "./money";

describe("kept totals", () => {
  const clock = fixedClock("2026-05-01T09:00:00Z");
  let server: TestServer;
  let alice: Investor;

  beforeAll(async () => {
    server = await createTestServer({ clock });
    alice = await newInvestor(server.handle.db, clock);
    await fund(server.handle.db, clock, alice.id, "USDT", "500");
    await fund(server.handle.db, clock, alice.id, "BTC", "0.5");
    // 45 more operations of alice at the same instant and later (ties sort by sequence).
    const db = server.handle.db;
    const at = clock.now();
    await db.insert(schema.operations).values(
      Array.from({ length: 45 }, (_, i) => ({
        userId: alice.id,
        currency: i % 3 === 0 ? "BTC" : "USDT",
        type: i % 5 === 0 ? "refill" : "accrual",
        amount: i % 3 === 0 ? "0.001" : "1.5",
        createdAt: new Date(at.getTime() + Math.floor(i / 4) * 1000),
      })),
    );
    await db.execute(sql`
      update ${schema.balances} b set amount = s.total
        from (select user_id, currency, sum(amount) as total from ${schema.operations}
               where user_id = ${alice.id} group by user_id, currency) s
       where b.user_id = s.user_id and b.currency = s.currency`);
  });

  afterAll(async () => {
    await server?.close();
  });

  it("keeps each user's operation counts and credited sums equal to the ledger's", async () => {
    const db = server.handle.db;
    const mismatches = await db.execute(sql`
      with ledger as (
        select user_id, currency, type, count(*)::bigint as n,
               coalesce(sum(amount) filter (where amount > 0), 0) as credited
          from ${schema.operations} group by user_id, currency, type)
      select * from ledger l full join ${schema.operationTotals} t using (user_id, currency, type)
       where l.n is distinct from t.count or l.credited is distinct from t.credited`);
    expect(resultRows(mismatches)).toEqual([]);
  });

  it("counts the list's totals from the kept counts, per filter", async () => {
    const all = await callRoute(server, "operations", { token: alice.token, query: { limit: 10 } });
    const btc = await callRoute(server, "operations", { token: alice.token, query: { currency: "BTC", limit: 10 } });
    const refills = await callRoute(server, "operations", {
      token: alice.token,
      query: { type: "refill", currency: "USDT", limit: 10 },
    });
    expect(all.total).toBe(47);
    expect(btc.total).toBe(1 + 15);
    expect(refills.total).toBe(1 + 6);
  });

  it("pages by `after` exactly as by page numbers, to the last page", async () => {
    const numbered = [];
    for (let page = 1; page <= 5; page++) {
      const reply = await callRoute(server, "operations", { token: alice.token, query: { page, limit: 10 } });
      numbered.push(...reply.items.map((o) => o.id));
    }
    const keyed = [];
    let after: string | undefined;
    let pages = 0;
    do {
      const reply = await callRoute(server, "operations", { token: alice.token, query: { limit: 10, after } });
      keyed.push(...reply.items.map((o) => o.id));
      after = reply.next ?? undefined;
      pages += 1;
    } while (after && pages < 10);
    expect(pages).toBe(5);
    expect(keyed).toEqual(numbered);
    expect(new Set(keyed).size).toBe(47);
  });

  it("sums statistics' earned from the kept totals: income only, debits left out", async () => {
    const stats = await callRoute(server, "statistics", { token: alice.token });
    // 36 accruals: 24 of 1.5 USDT, 12 of 0.001 BTC (refills are not income).
    const accruals = Array.from({ length: 45 }, (_, i) => i).filter((i) => i % 5 !== 0);
    const usdt = accruals.filter((i) => i % 3 !== 0).length * 1.5;
    const btc = accruals.filter((i) => i % 3 === 0).length;
    expect(stats.earned.USDT).toBe(String(usdt));
    expect(stats.earned.BTC).toBe(`0.0${String(btc).padStart(2, "0")}`);
  });

  it("keeps the referral tree's closure rows and line totals equal to the tree", async () => {
    const db = server.handle.db;
    // A small tree under alice: 2 direct, 3 below them, 1 below those.
    const user = async (login: string, inviterId: string) => {
      const [row] = await db
        .insert(schema.users)
        .values({ login, language: "en", inviterId, createdAt: clock.now() })
        .returning({ id: schema.users.id });
      if (!row) throw new Error("no user");
      return row.id;
    };
    const a = await user(`kt_a_${alice.login}`, alice.id);
    const b = await user(`kt_b_${alice.login}`, alice.id);
    const c = await user(`kt_c_${alice.login}`, a);
    await user(`kt_d_${alice.login}`, a);
    await user(`kt_e_${alice.login}`, b);
    await user(`kt_f_${alice.login}`, c);
    const tree = await db.execute(sql`
      with recursive down(id, line) as (
        select id, 1 from ${schema.users} where inviter_id = ${alice.id}
        union all select u.id, down.line + 1 from ${schema.users} u join down on u.inviter_id = down.id)
      select line, count(*)::int as n from down group by line order by line`);
    const kept = await db.execute(sql`
      select line, members as n from ${schema.referralLineTotals} where user_id = ${alice.id} order by line`);
    expect(resultRows(kept)).toEqual(resultRows(tree));
    expect(resultRows(tree)).toEqual([
      { line: 1, n: 2 },
      { line: 2, n: 3 },
      { line: 3, n: 1 },
    ]);
    const stats = await callRoute(server, "statistics", { token: alice.token });
    expect(stats.referrals).toBe(2);
    const referrals = await callRoute(server, "referrals", {
      token: alice.token,
      query: { sort: "login", sortDir: "asc" },
    });
    expect(referrals.total).toBe(6);
    expect(referrals.items.map((r) => [r.login.slice(0, 4), r.line])).toEqual([
      ["kt_a", 1],
      ["kt_b", 1],
      ["kt_c", 2],
      ["kt_d", 2],
      ["kt_e", 2],
      ["kt_f", 3],
    ]);
  });
});
