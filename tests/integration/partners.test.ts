/**
 * Partners: referral income by line, matching and turnover bonuses paid with the deposit
 * (docs/api-money.md, "Partners"), the referrals list (paging, sort, search, line filter, totals,
 * own downline only, 5 000 referrals timed) and the bonuses. In-memory PGlite.
 */
import { performance } from "node:perf_hooks";
import { ReferralDetail, routes } from "@contract";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemClock } from "../../server/src/clock";
import { resultRows } from "../../server/src/db/rows";
import * as schema from "../../server/src/db/schema";
import { setSetting } from "../../server/src/services/settings";
import { call, callRoute, createTestServer, injectRoute, type RouteRequest, type TestServer } from "./helpers";
import { balanceOf, expectLedgerConsistent, fund, type Investor } from "./money";
import { newPartner } from "./partners-helpers";

const clock = systemClock;
let server: TestServer;
let houseId: string;

beforeAll(async () => {
  server = await createTestServer();
  const [house] = await server.handle.db
    .select({ id: schema.users.id })
    .from(schema.users)
    .where(eq(schema.users.login, "kassa"));
  houseId = house?.id ?? "";
});
afterAll(async () => {
  await server.close();
});

async function deposit(investor: Investor, amount: string, planId = "start") {
  await fund(server.handle.db, clock, investor.id, "USDT", amount);
  const res = await callRoute(server, "createDeposit", {
    token: investor.token,
    body: { planId, currency: "USDT", amount },
  });
  return res;
}

async function opsOf(userId: string, type: string) {
  return server.handle.db
    .select({ amount: schema.operations.amount })
    .from(schema.operations)
    .where(and(eq(schema.operations.userId, userId), eq(schema.operations.type, type)));
}

/** house ← top ← a ← b ← c ← bottom: bottom's lines are c (1), b (2), a (3); top is line 4. */
async function chain() {
  const db = server.handle.db;
  const top = await newPartner(db, clock, houseId, "top");
  const a = await newPartner(db, clock, top.id, "a");
  const b = await newPartner(db, clock, a.id, "b");
  const c = await newPartner(db, clock, b.id, "c");
  const bottom = await newPartner(db, clock, c.id, "bottom");
  return { top, a, b, c, bottom };
}

describe("referral income on a deposit", () => {
  it("pays each of three lines exactly its percentage, and matching to each earner's inviter", async () => {
    const { top, a, b, c, bottom } = await chain();
    await deposit(bottom, "1000");
    // Lines 5 %, 3 %, 1 % of 1000; matching 10 % of the invitee's referral income.
    expect((await opsOf(c.id, "referral")).map((o) => Number(o.amount))).toEqual([50]);
    expect((await opsOf(b.id, "referral")).map((o) => Number(o.amount))).toEqual([30]);
    expect((await opsOf(a.id, "referral")).map((o) => Number(o.amount))).toEqual([10]);
    expect(await opsOf(top.id, "referral")).toEqual([]);
    expect((await opsOf(b.id, "matching")).map((o) => Number(o.amount))).toEqual([5]); // of c's 50
    expect((await opsOf(a.id, "matching")).map((o) => Number(o.amount))).toEqual([3]); // of b's 30
    expect((await opsOf(top.id, "matching")).map((o) => Number(o.amount))).toEqual([1]); // of a's 10
    expect(await opsOf(c.id, "matching")).toEqual([]);
    expect(await opsOf(houseId, "referral")).toEqual([]);
    // 1000 of turnover reaches the first bonus (10 USDT) of each upline within the lines.
    for (const upline of [a, b, c])
      expect((await opsOf(upline.id, "bonus")).map((o) => Number(o.amount))).toEqual([10]);
    expect(await opsOf(top.id, "bonus")).toEqual([]);
    expect((await balanceOf(server, c)).USDT).toBe("60");
    expect((await balanceOf(server, b)).USDT).toBe("45");
    expect((await balanceOf(server, a)).USDT).toBe("23");
    expect((await balanceOf(server, top)).USDT).toBe("1");
    await expectLedgerConsistent(server.handle.db);
  });

  it("rounds each income down to the currency's scale", async () => {
    const { b, c, bottom } = await chain();
    await deposit(bottom, "10.000001");
    expect((await opsOf(c.id, "referral")).map((o) => Number(o.amount))).toEqual([0.5]); // 0.50000005 → 0.5
    expect((await opsOf(b.id, "referral")).map((o) => Number(o.amount))).toEqual([0.3]);
    await expectLedgerConsistent(server.handle.db);
  });

  it("pays a turnover bonus once, also when two deposits cross the turnover at once", async () => {
    const db = server.handle.db;
    const leader = await newPartner(db, clock, houseId, "lead");
    const x = await newPartner(db, clock, leader.id, "x");
    const y = await newPartner(db, clock, leader.id, "y");
    await fund(db, clock, x.id, "USDT", "600");
    await fund(db, clock, y.id, "USDT", "600");
    const both = await Promise.all(
      [x, y].map((i) =>
        injectRoute(server, routes.createDeposit, {
          token: i.token,
          body: { planId: "start", currency: "USDT", amount: "600" },
        }),
      ),
    );
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect((await opsOf(leader.id, "bonus")).map((o) => Number(o.amount))).toEqual([10]);
    await deposit(x, "100");
    expect(await opsOf(leader.id, "bonus")).toHaveLength(1);
    const bonuses = await callRoute(server, "bonus", { token: leader.token });
    expect(bonuses).toHaveLength(4);
    expect(bonuses[0]).toMatchObject({
      index: 1,
      turnover: "1000",
      award: "10",
      progress: "1300",
      reached: true,
      paid: true,
    });
    expect(bonuses[1]).toMatchObject({ turnover: "5000", progress: "1300", reached: false, paid: false, paidAt: null });
    await expectLedgerConsistent(db);
  });
});

describe("GET /user/referrals", () => {
  let top: Investor;
  let ids: Record<"alpha" | "beta" | "gamma" | "delta" | "beyond", string>;

  beforeAll(async () => {
    const db = server.handle.db;
    top = await newPartner(db, clock, houseId, "root");
    const alpha = await newPartner(db, clock, top.id, "Alpha");
    const beta = await newPartner(db, clock, top.id, "beta");
    const gamma = await newPartner(db, clock, alpha.id, "gamma");
    const delta = await newPartner(db, clock, gamma.id, "delta");
    const beyond = await newPartner(db, clock, delta.id, "beyond"); // line 4: outside the lines
    await deposit(alpha, "100");
    await deposit(beta, "400");
    await deposit(gamma, "200");
    await deposit(delta, "1000");
    await deposit(beyond, "500");
    ids = { alpha: alpha.id, beta: beta.id, gamma: gamma.id, delta: delta.id, beyond: beyond.id };
  });

  const list = (query: RouteRequest<typeof routes.referrals>["query"] = {}, token = top.token) =>
    callRoute(server, "referrals", { token, query });

  it("lists the three lines with investments, profit and totals", async () => {
    const page = await list({ sort: "line", sortDir: "asc", limit: 10 });
    expect(page.total).toBe(4);
    expect(page.items.map((i) => [i.line, i.id])).toEqual([
      [1, ids.alpha],
      [1, ids.beta],
      [2, ids.gamma],
      [3, ids.delta],
    ]);
    const byId = Object.fromEntries(page.items.map((i) => [i.id, i]));
    expect(byId[ids.delta]?.personalInvestments.USDT).toBe("1000");
    // alpha: 5 % of 100; beta: 5 % of 400; gamma: 3 % of 200 + matching (10 %) of alpha's 5 % of 200;
    // delta: 1 % of 1000 + matching of alpha's 3 % of 1000.
    expect(byId[ids.alpha]?.profit.USDT).toBe("5");
    expect(byId[ids.beta]?.profit.USDT).toBe("20");
    expect(byId[ids.gamma]?.profit.USDT).toBe("7");
    expect(byId[ids.delta]?.profit.USDT).toBe("13");
    expect(page.totals.referrals).toBe(4);
    expect(page.totals.byLine.map((l) => [l.line, l.count, l.profit.USDT])).toEqual([
      [1, 2, "25"],
      [2, 1, "7"],
      [3, 1, "13"],
    ]);
    // Everything the root earned: the four above plus matching of alpha's 1 % of beyond's 500.
    expect(page.totals.profit.USDT).toBe("45.5");
    expect(page.totals.turnover.USDT).toBe("1700");
  });

  it("pages, sorts, searches any case and filters by line", async () => {
    const first = await list({ sort: "investments", sortDir: "desc", limit: 2, page: 1 });
    expect(first.items.map((i) => i.id)).toEqual([ids.delta, ids.beta]);
    const second = await list({ sort: "investments", sortDir: "desc", limit: 2, page: 2 });
    expect(second.items.map((i) => i.id)).toEqual([ids.gamma, ids.alpha]);
    expect(second.total).toBe(4);
    expect((await list({ sort: "login", sortDir: "asc" })).items.map((i) => i.login.slice(0, 4))).toEqual([
      "Alph",
      "beta",
      "delt",
      "gamm",
    ]);
    expect((await list({ sort: "profit", sortDir: "asc" })).items[0]?.id).toBe(ids.alpha);
    const search = await list({ search: "ALPHA" });
    expect(search.items.map((i) => i.id)).toEqual([ids.alpha]);
    expect(search.total).toBe(1);
    expect(search.totals.referrals).toBe(4);
    const line2 = await list({ line: 2 });
    expect(line2.items.map((i) => i.id)).toEqual([ids.gamma]);
    expect((await list({ line: 3, search: "zzz" })).total).toBe(0);
    const bad = await call(server, "GET", "/user/referrals?sort=balance", undefined, { token: top.token });
    expect(bad.status).toBe(400);
  });

  it("matches `%`, `_` and `\\` in a search as themselves", async () => {
    const db = server.handle.db;
    const root = await newPartner(db, clock, houseId, "lit");
    const tag = root.id.slice(0, 6);
    // Sign-up logins are letters and digits; older or imported ones may hold any character.
    const logins = [`lit_${tag}`, `litx${tag}`, `lit%${tag}`, `lit\\${tag}`];
    await db
      .insert(schema.users)
      .values(logins.map((login) => ({ login, language: "en", inviterId: root.id, createdAt: new Date() })));
    const found = async (search: string) =>
      (await list({ search, sort: "login", sortDir: "asc" }, root.token)).items.map((i) => i.login);
    expect(await found(`t_${tag}`)).toEqual([`lit_${tag}`]);
    expect(await found(`t%${tag}`)).toEqual([`lit%${tag}`]);
    expect(await found(`t\\${tag}`)).toEqual([`lit\\${tag}`]);
    expect(await found("_")).toEqual([`lit_${tag}`]);
    expect(await found("%")).toEqual([`lit%${tag}`]);
  });

  it("opens one referral of the caller's own downline only", async () => {
    const res = await callRoute(server, "referral", { token: top.token, params: { id: ids.gamma } });
    expect(ReferralDetail.parse(res)).toMatchObject({ id: ids.gamma, line: 2, invited: 1 });
    // Outside the lines, someone else's, an upline, a malformed id: 404.
    for (const id of [ids.beyond, houseId, "not-a-uuid"]) {
      const other = await injectRoute(server, routes.referral, { token: top.token, params: { id } });
      expect(other.status).toBe(404);
    }
    const stranger = await newPartner(server.handle.db, clock, houseId);
    const foreign = await injectRoute(server, routes.referral, { token: stranger.token, params: { id: ids.gamma } });
    expect(foreign.status).toBe(404);
    expect((await list({}, stranger.token)).total).toBe(0);
  });

  it("stays fast with 5 000 referrals (printed)", async () => {
    const db = server.handle.db;
    const root = await newPartner(db, clock, houseId, "big");
    // 50 on line 1, 950 on line 2, 4 000 on line 3; a deposit row for every second one.
    const insertLine = async (parents: string[], n: number, line: number) => {
      const values = Array.from({ length: n }, (_, i) => ({
        login: `big${line}x${i}x${root.id.slice(0, 6)}`,
        language: "en",
        inviterId: parents[i % parents.length] ?? root.id,
        createdAt: new Date(Date.now() - i * 1000),
      }));
      const rows = [];
      for (let i = 0; i < values.length; i += 500) {
        rows.push(
          ...(await db
            .insert(schema.users)
            .values(values.slice(i, i + 500))
            .returning({ id: schema.users.id })),
        );
      }
      return rows.map((r) => r.id);
    };
    const l1 = await insertLine([root.id], 50, 1);
    const l2 = await insertLine(l1, 950, 2);
    const l3 = await insertLine(l2, 4000, 3);
    const members = [...l1, ...l2, ...l3];
    const now = new Date();
    const deposits = members
      .filter((_, i) => i % 2 === 0)
      .map((userId, i) => ({
        userId,
        planId: "start",
        currency: "USDT",
        amount: String(10 + (i % 900)),
        dailyYieldPercent: "1",
        durationDays: 30,
        dailyIncome: "0.1",
        status: "active",
        startedAt: now,
        endsAt: new Date(now.getTime() + 30 * 86_400_000),
        createdAt: now,
      }));
    for (let i = 0; i < deposits.length; i += 500) await db.insert(schema.deposits).values(deposits.slice(i, i + 500));

    const timings: Record<string, number> = {};
    const queries: [string, RouteRequest<typeof routes.referrals>["query"]][] = [
      ["default", {}],
      ["?sort=investments&sortDir=desc", { sort: "investments", sortDir: "desc" }],
      ["?search=x1&line=3", { search: "x1", line: 3 }],
      ["?page=40&limit=100&sort=login", { page: 40, limit: 100, sort: "login" }],
    ];
    for (const [label, query] of queries) {
      const started = performance.now();
      const page = await list(query, root.token);
      timings[label] = Math.round(performance.now() - started);
      expect(page.totals.referrals).toBe(5000);
      expect(page.totals.byLine.map((l) => l.count)).toEqual([50, 950, 4000]);
    }
    const sorted = await list({ sort: "investments", sortDir: "desc", limit: 5 }, root.token);
    expect(sorted.items[0]?.personalInvestments.USDT).toBe("909");
    console.log(`[kassa] referrals of a 5 000-member tree on PGlite (ms per call): ${JSON.stringify(timings)}`);
    const [n] = await db.select({ n: sql<number>`count(*)::int` }).from(schema.users);
    expect(n?.n).toBeGreaterThan(5000);
    // A search finds its logins through the trigram index, not by reading every user: the index
    // takes the 5 000 new logins in at once (a list of pending ones, merged only by a vacuum, PGlite
    // never runs, made the planner scan the table instead).
    await db.execute(sql`analyze users`);
    const plan = resultRows<{ "QUERY PLAN": string }>(
      await db.execute(sql`explain select id from users where lower(login) like ${`%big3x12x${root.id.slice(0, 6)}%`}`),
    ).map((r) => r["QUERY PLAN"]);
    expect(plan.join("\n")).toContain("users_login_trgm_idx");
  });
});

describe("settings", () => {
  it("reads the lines from referralLines: none pays nothing", async () => {
    await setSetting(server.handle.db, clock, "referralLines", []);
    try {
      const { c, bottom } = await chain();
      await deposit(bottom, "100");
      expect(await opsOf(c.id, "referral")).toEqual([]);
      expect((await injectRoute(server, routes.referrals, { token: c.token })).body).toMatchObject({
        total: 0,
      });
    } finally {
      await setSetting(server.handle.db, clock, "referralLines", ["5", "3", "1"]);
    }
  });
});
