/**
 * The partners table's kept per-member figures (`referral_links`: investments and profit per
 * currency and their USD values at the current rates) and line totals, compared with the same
 * figures counted from deposits, referral earnings and the rates after deposits, a close, turnover
 * bonuses and a change of rates; and every order of `GET /user/referrals` paged by `after` equal to
 * the order counted here and to the numbered pages. On PGlite and, when there is one, PostgreSQL.
 */
import { CURRENCY_CODES, type ReferralsQuery, type ReferralsReply, routes } from "@contract";
import Big from "big.js";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemClock } from "../../server/src/clock";
import { resultRows } from "../../server/src/db/rows";
import * as schema from "../../server/src/db/schema";
import { getSetting, setSetting } from "../../server/src/services/settings";
import { callRoute, createTestServer, injectRoute, TEST_CODE_SECRET, type TestServer } from "./helpers";
import { addPlan, expectLedgerConsistent, freshPostgres, fund, type Investor, TEST_DATABASE_URL } from "./money";
import { newPartner } from "./partners-helpers";

const clock = systemClock;
const databases = [
  { name: "PGlite", url: async () => null },
  ...(TEST_DATABASE_URL ? [{ name: "PostgreSQL", url: async () => freshPostgres("partner_totals") }] : []),
];

describe.each(databases)("kept partner figures on $name", ({ url }) => {
  let server: TestServer;
  let drop: (() => Promise<void>) | undefined;
  let leader: Investor;
  const members: Investor[] = [];

  /** What the kept rows should hold, counted from deposits, earnings and the rates setting. */
  async function mismatches() {
    const db = server.handle.db;
    const { rates } = await getSetting(db, "exchangeRates");
    const usd = (prefix: string) =>
      sql.raw(CURRENCY_CODES.map((c) => `${prefix}_${c.toLowerCase()} * ${rates[c]}`).join(" + "));
    const sums = (table: string, who: string) =>
      sql.raw(
        `${CURRENCY_CODES.map(
          (c) => `coalesce(sum(amount) filter (where currency = '${c}'), 0) as ${who}_${c.toLowerCase()}`,
        ).join(", ")} from ${table}`,
      );
    const result = await db.execute(sql`
      with inv as (select user_id, ${sums("deposits", "inv")} group by user_id),
           pr as (select beneficiary_id, source_user_id, ${sums("referral_earnings", "pr")}
                    group by beneficiary_id, source_user_id),
           counted as (
             select l.ancestor_id, l.member_id,
                    coalesce(inv.inv_usdt, 0) as inv_usdt, coalesce(inv.inv_btc, 0) as inv_btc,
                    coalesce(inv.inv_eth, 0) as inv_eth, coalesce(inv.inv_ton, 0) as inv_ton,
                    coalesce(pr.pr_usdt, 0) as pr_usdt, coalesce(pr.pr_btc, 0) as pr_btc,
                    coalesce(pr.pr_eth, 0) as pr_eth, coalesce(pr.pr_ton, 0) as pr_ton
               from ${schema.referralLinks} l
               left join inv on inv.user_id = l.member_id
               left join pr on pr.beneficiary_id = l.ancestor_id and pr.source_user_id = l.member_id)
      select c.member_id from counted c join ${schema.referralLinks} l using (ancestor_id, member_id)
       where (l.inv_usdt, l.inv_btc, l.inv_eth, l.inv_ton, l.pr_usdt, l.pr_btc, l.pr_eth, l.pr_ton)
             is distinct from (c.inv_usdt, c.inv_btc, c.inv_eth, c.inv_ton, c.pr_usdt, c.pr_btc, c.pr_eth, c.pr_ton)
          or l.inv_usd <> (${usd("c.inv")}) or l.pr_usd <> (${usd("c.pr")})`);
    const lines = await db.execute(sql`
      with counted as (
        select l.ancestor_id as user_id, l.line, count(*)::int as members from ${schema.referralLinks} l
         group by l.ancestor_id, l.line),
           earned as (select beneficiary_id as user_id, line, ${sums("referral_earnings", "pr")}
                        group by beneficiary_id, line)
      select coalesce(c.user_id, e.user_id) as user_id from counted c full join earned e using (user_id, line)
        full join ${schema.referralLineTotals} t using (user_id, line)
       where coalesce(c.members, 0) <> coalesce(t.members, 0)
          or (coalesce(e.pr_usdt, 0), coalesce(e.pr_btc, 0), coalesce(e.pr_eth, 0), coalesce(e.pr_ton, 0))
             is distinct from (coalesce(t.pr_usdt, 0), coalesce(t.pr_btc, 0), coalesce(t.pr_eth, 0), coalesce(t.pr_ton, 0))`);
    return { rows: resultRows(result), lines: resultRows(lines) };
  }

  async function open(investor: Investor, currency: "USDT" | "BTC" | "ETH", amount: string) {
    await fund(server.handle.db, clock, investor.id, currency, amount);
    const planId = currency === "USDT" ? "start" : `kt-${currency.toLowerCase()}`;
    const res = await injectRoute(server, routes.createDeposit, {
      token: investor.token,
      body: { planId, currency, amount },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { id: string };
  }

  beforeAll(async () => {
    const database = await url();
    drop = database?.drop;
    server = await createTestServer(
      database ? { env: { DATABASE_URL: database.url, CODE_SECRET: TEST_CODE_SECRET } } : {},
    );
    const db = server.handle.db;
    for (const currency of ["BTC", "ETH"] as const)
      await addPlan(db, {
        id: `kt-${currency.toLowerCase()}`,
        currency,
        dailyYieldPercent: "1",
        durationDays: 30,
        minAmount: "0.001",
        maxAmount: "100",
      });
    const [house] = await db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.login, "kassa"));
    leader = await newPartner(db, clock, house?.id ?? null, "lead");
    // Users outside the team whose logins hold an "x", as every member's does (partners-helpers.ts).
    const crowd = Array.from({ length: 2001 }, (_, i) => ({
      login: `crowdx${i}`,
      language: "en",
      createdAt: new Date(),
    }));
    for (let i = 0; i < crowd.length; i += 500) await db.insert(schema.users).values(crowd.slice(i, i + 500));
    // Three lines under the leader: 3 direct, 2 under each, 1 under each of those (15 members).
    for (let i = 0; i < 3; i++) {
      const first = await newPartner(db, clock, leader.id, `one${i}`);
      members.push(first);
      for (let j = 0; j < 2; j++) {
        const second = await newPartner(db, clock, first.id, `two${i}${j}`);
        members.push(second);
        members.push(await newPartner(db, clock, second.id, `three${i}${j}`));
      }
    }
  });

  afterAll(async () => {
    await server?.close();
    await drop?.();
  });

  it("keeps every member's figures and every line's equal to the recounted ones", async () => {
    expect(await mismatches()).toEqual({ rows: [], lines: [] });
    // Deposits in three currencies, of different sizes (some members none).
    const opened: { id: string }[] = [];
    for (const [i, member] of members.entries()) {
      if (i % 4 === 3) continue;
      opened.push(await open(member, "USDT", String(100 + i * 37)));
      if (i % 3 === 0) opened.push(await open(member, "BTC", `0.0${i + 1}`));
      if (i % 5 === 1) opened.push(await open(member, "ETH", `0.${i + 2}`));
    }
    expect(await mismatches()).toEqual({ rows: [], lines: [] });
    // The leader's turnover passed the first bonus: paid, and the figures stay.
    const bonuses = await callRoute(server, "bonus", { token: leader.token });
    expect(bonuses[0]?.paid).toBe(true);
    // A close gives the principal back; what the member invested stays counted.
    const first = opened[0];
    if (!first) throw new Error("no deposit");
    const closed = await injectRoute(server, routes.closeDeposit, {
      token: members[0]?.token,
      params: { id: first.id },
    });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(await mismatches()).toEqual({ rows: [], lines: [] });
    // New rates: every USD value follows.
    const rates = await getSetting(server.handle.db, "exchangeRates");
    await setSetting(server.handle.db, clock, "exchangeRates", {
      ...rates,
      rates: { ...rates.rates, BTC: "91000.5", ETH: "1234.25" },
    });
    expect(await mismatches()).toEqual({ rows: [], lines: [] });
    await expectLedgerConsistent(server.handle.db);
  });

  it("pages every order by `after` as counted here and as by page numbers", async () => {
    const all = await callRoute(server, "referrals", { token: leader.token, query: { limit: 100 } });
    expect(all.items).toHaveLength(15);
    const { rates } = await getSetting(server.handle.db, "exchangeRates");
    const usd = (a: Record<string, string>) =>
      CURRENCY_CODES.reduce((s, c) => s.plus(Big(a[c] ?? "0").times(rates[c])), Big(0));
    type Item = ReferralsReply["items"][number];
    const byLogin = (a: Item, b: Item) => (a.login.toLowerCase() < b.login.toLowerCase() ? -1 : 1);
    const expected: Record<string, (a: Item, b: Item) => number> = {
      "login asc": byLogin,
      "login desc": (a, b) => byLogin(b, a),
      "line asc": (a, b) => a.line - b.line || byLogin(a, b),
      "line desc": (a, b) => b.line - a.line || byLogin(a, b),
      "createdAt asc": (a, b) => a.registeredAt.localeCompare(b.registeredAt) || byLogin(a, b),
      "createdAt desc": (a, b) => b.registeredAt.localeCompare(a.registeredAt) || byLogin(b, a),
      "investments asc": (a, b) => usd(a.personalInvestments).cmp(usd(b.personalInvestments)) || byLogin(a, b),
      "investments desc": (a, b) => usd(b.personalInvestments).cmp(usd(a.personalInvestments)) || byLogin(a, b),
      "profit asc": (a, b) => usd(a.profit).cmp(usd(b.profit)) || byLogin(a, b),
      "profit desc": (a, b) => usd(b.profit).cmp(usd(a.profit)) || byLogin(a, b),
    };
    for (const [order, compare] of Object.entries(expected)) {
      const [sort, sortDir] = order.split(" ") as [ReferralsQuery["sort"], ReferralsQuery["sortDir"]];
      // "TWO": a few matching logins, looked up one by one; "X": more than 2,000 (the crowd), so the
      // caller's rows are read and filtered.
      for (const filter of [
        {},
        { line: 2 },
        { search: "TWO" },
        { search: "X", line: 3 },
      ] as Partial<ReferralsQuery>[]) {
        const want = all.items
          .filter((i) => (filter.line ? i.line === filter.line : true))
          .filter((i) => (filter.search ? i.login.toLowerCase().includes(filter.search.toLowerCase()) : true))
          .sort(compare)
          .map((i) => i.login);
        const keyed: string[] = [];
        const numbered: string[] = [];
        let after: string | undefined;
        for (let page = 1; page <= 10; page++) {
          const query = { sort, sortDir, limit: 4, ...filter };
          const byKey = await callRoute(server, "referrals", { token: leader.token, query: { ...query, after } });
          const byPage = await callRoute(server, "referrals", { token: leader.token, query: { ...query, page } });
          expect(byKey.total, `${order} ${JSON.stringify(filter)}`).toBe(want.length);
          keyed.push(...byKey.items.map((i) => i.login));
          numbered.push(...byPage.items.map((i) => i.login));
          after = byKey.next ?? undefined;
          if (!after) break;
        }
        expect(keyed, `${order} ${JSON.stringify(filter)} by after`).toEqual(want);
        expect(numbered, `${order} ${JSON.stringify(filter)} by page`).toEqual(want);
      }
    }
  });

  it("refuses an `after` outside the caller's lines", async () => {
    const stranger = await newPartner(server.handle.db, clock, null, "stranger");
    const res = await injectRoute(server, routes.referrals, {
      token: leader.token,
      query: { after: stranger.id },
    });
    expect(res.status).toBe(400);
  });
});
