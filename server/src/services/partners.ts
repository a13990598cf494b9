/**
 * Partners (docs/decisions.md#d6-partners, docs/cabinet-rules.md#partners): referral income by line, matching,
 * turnover bonuses, and the caller's referral tree. Rules (docs/api-money.md, "Partners"):
 *
 * - An investor's inviter is line 1, the inviter's inviter line 2, … up to the number of entries
 *   of `referralLines` (percent strings). When a deposit is **opened by its owner** (not when
 *   auto-investment reopens one), each upline within the lines earns its line's percent of the
 *   principal, rounded down to the currency's scale, as a `referral` operation in the deposit's
 *   currency, in the deposit's transaction.
 * - `matching`: the inviter of each upline that earned referral income gets `matchingPercent` of
 *   that income (rounded down), posted with it: one's matching comes from one's direct invitees'
 *   referral income only.
 * - Turnover: Σ principal of the deposits the downline within the lines opened, per currency,
 *   counted into `referral_turnover` at opening. A `turnoverBonuses` entry is paid once, as a
 *   `bonus` operation in its currency, when the turnover in that currency reaches its target; the
 *   (user, bonus) primary key of `paid_bonuses` makes "once" hold under concurrent deposits.
 * - The house account (the `defaultInviter` setting) earns nothing: it is the platform, not a
 *   partner, and paying it would only move the platform's own money. It is skipped everywhere
 *   (its place in a chain still counts as a line).
 */
import {
  type BonusReply,
  CURRENCY_CODES,
  type Currency,
  type CurrencyAmounts,
  compareAmounts,
  money,
  type ReferralDetail,
  type ReferralsQuery,
  type ReferralsReply,
  roundDown,
  toDecimalString,
} from "@contract";
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { Clock } from "../clock";
import type { Database } from "../db/client";
import { resultRows } from "../db/rows";
import { paidBonuses, referralEarnings, referralTurnover, users } from "../db/schema";
import { normalizeDecimal } from "../decimal";
import { AppError } from "../errors";
import type { DepositRow } from "./deposit-rows";
import { isUuid } from "./deposit-rows";
import { post, zeroAmounts } from "./ledger";
import type { SettingValue } from "./setting-defs";
import { getSetting } from "./settings";

/**
 * The house account (the `defaultInviter` setting): who invites an investor that comes without a referral
 * link, so registration works on a new database. It has no password (nobody signs in as it) and earns
 * nothing. Made at every start when missing (two instances starting at once make one).
 */
export async function ensureHouseAccount(db: Database, clock: Clock): Promise<void> {
  const login = await getSetting(db, "defaultInviter");
  await db
    .insert(users)
    .values({ login, fullName: "Kassa", language: "ru", createdAt: clock.now() })
    .onConflictDoNothing();
}

interface Upline {
  id: string;
  login: string;
  line: number;
}

/** The inviters above `userId`, line 1 first, at most `depth` of them. */
async function uplines(db: Database, userId: string, depth: number): Promise<Upline[]> {
  const result = await db.execute(sql`
    with recursive up(id, inviter_id, login, line) as (
      select u.id, u.inviter_id, u.login, 1
        from ${users} u where u.id = (select inviter_id from ${users} where id = ${userId})
      union all
      select u.id, u.inviter_id, u.login, up.line + 1
        from ${users} u join up on u.id = up.inviter_id
       where up.line < ${depth}
    )
    select id, login, line from up order by line`);
  return resultRows<Upline>(result).map((r) => ({ id: r.id, login: r.login, line: Number(r.line) }));
}

const percentOf = (amount: string, percent: string, currency: Currency) =>
  roundDown(money(amount).times(percent).div(100), currency);

export interface ReferralPayout {
  referral: number;
  matching: number;
  bonuses: number;
}

/** The partner programme's terms a deposit pays by (the operator's settings). */
export interface ReferralTerms {
  lines: readonly string[];
  matchingPercent: string;
  bonuses: SettingValue<"turnoverBonuses">;
  houseLogin: string;
}

/** The terms as the settings say now: read before the deposit's transaction, from memory (`getSetting`). */
export async function referralTerms(db: Database): Promise<ReferralTerms> {
  const [lines, matchingPercent, bonuses, houseLogin] = await Promise.all([
    getSetting(db, "referralLines"),
    getSetting(db, "matchingPercent"),
    getSetting(db, "turnoverBonuses"),
    getSetting(db, "defaultInviter"),
  ]);
  return { lines, matchingPercent, bonuses, houseLogin };
}

/**
 * Pays the uplines of a just-opened deposit, inside the deposit's transaction `tx` (see the
 * module comment). Upline rows are touched bottom-up, the order every deposit uses, so two
 * deposits in one chain cannot lock each other's rows in opposite orders.
 */
export async function payReferralIncome(
  tx: Database,
  deposit: DepositRow,
  at: Date,
  terms: ReferralTerms,
): Promise<ReferralPayout> {
  const payout: ReferralPayout = { referral: 0, matching: 0, bonuses: 0 };
  const { lines, matchingPercent, bonuses } = terms;
  if (lines.length === 0) return payout;
  const houseLogin = terms.houseLogin.toLowerCase();
  const currency = deposit.currency as Currency;
  const principal = normalizeDecimal(deposit.amount);
  // One more than the lines: the inviter of the last line's upline earns matching.
  const chain = await uplines(tx, deposit.userId, lines.length + 1);
  const isHouse = (u: Upline) => u.login.toLowerCase() === houseLogin;

  for (const upline of chain) {
    if (upline.line > lines.length) break;
    if (isHouse(upline)) continue;
    const percent = lines[upline.line - 1] ?? "0";
    const income = percentOf(principal, percent, currency);
    if (compareAmounts(income, 0) > 0) {
      const posted = await post(tx, {
        userId: upline.id,
        currency,
        type: "referral",
        amount: income,
        depositId: deposit.id,
        meta: { fromUserId: deposit.userId, line: upline.line, percent },
        at,
      });
      await tx.insert(referralEarnings).values({
        beneficiaryId: upline.id,
        sourceUserId: deposit.userId,
        depositId: deposit.id,
        kind: "referral",
        line: upline.line,
        currency,
        amount: income,
        operationId: posted.operationId,
        createdAt: at,
      });
      payout.referral += 1;

      const inviter = chain.find((u) => u.line === upline.line + 1);
      const matched = percentOf(income, matchingPercent, currency);
      if (inviter && !isHouse(inviter) && compareAmounts(matched, 0) > 0) {
        const matchedOp = await post(tx, {
          userId: inviter.id,
          currency,
          type: "matching",
          amount: matched,
          depositId: deposit.id,
          meta: { fromUserId: upline.id, depositorId: deposit.userId, percent: matchingPercent },
          at,
        });
        await tx.insert(referralEarnings).values({
          beneficiaryId: inviter.id,
          sourceUserId: deposit.userId,
          depositId: deposit.id,
          kind: "matching",
          line: inviter.line,
          currency,
          amount: matched,
          operationId: matchedOp.operationId,
          createdAt: at,
        });
        payout.matching += 1;
      }
    }

    const [turnover] = await tx
      .insert(referralTurnover)
      .values({ userId: upline.id, currency, amount: principal, updatedAt: at })
      .onConflictDoUpdate({
        target: [referralTurnover.userId, referralTurnover.currency],
        set: { amount: sql`${referralTurnover.amount} + excluded.amount`, updatedAt: at },
      })
      .returning({ amount: referralTurnover.amount });
    const reached = turnover?.amount ?? "0";
    for (const [i, bonus] of bonuses.entries()) {
      if (bonus.currency !== currency || compareAmounts(reached, bonus.turnover) < 0) continue;
      // The primary key claims the bonus; a concurrent claim waits for this one and does nothing.
      const [claimed] = await tx
        .insert(paidBonuses)
        .values({
          userId: upline.id,
          bonusIndex: i + 1,
          currency,
          award: bonus.award,
          turnover: bonus.turnover,
          paidAt: at,
        })
        .onConflictDoNothing()
        .returning({ userId: paidBonuses.userId });
      if (!claimed) continue;
      const award = roundDown(bonus.award, currency);
      const posted = await post(tx, {
        userId: upline.id,
        currency,
        type: "bonus",
        amount: award,
        meta: { bonus: i + 1, turnover: bonus.turnover },
        at,
      });
      await tx
        .update(paidBonuses)
        .set({ operationId: posted.operationId })
        .where(and(eq(paidBonuses.userId, upline.id), eq(paidBonuses.bonusIndex, i + 1)));
      payout.bonuses += 1;
    }
  }
  return payout;
}

// ---------------------------------------------------------------------------------------------
// The caller's tree

interface ReferralRow {
  id: string;
  login: string;
  line: number;
  created_at: string | Date;
  inv_usdt: string;
  inv_btc: string;
  inv_eth: string;
  inv_ton: string;
  pr_usdt: string;
  pr_btc: string;
  pr_eth: string;
  pr_ton: string;
}

const amountsOf = (r: Record<string, unknown>, prefix: string): CurrencyAmounts => ({
  USDT: normalizeDecimal(String(r[`${prefix}_usdt`] ?? "0")),
  BTC: normalizeDecimal(String(r[`${prefix}_btc`] ?? "0")),
  ETH: normalizeDecimal(String(r[`${prefix}_eth`] ?? "0")),
  TON: normalizeDecimal(String(r[`${prefix}_ton`] ?? "0")),
});

const iso = (v: string | Date) => (v instanceof Date ? v : new Date(v)).toISOString();

/** The columns of a closure row a reply reads (see `referral_links` in db/schema.ts). */
const LINK_COLUMNS = sql.raw(
  "l.member_id as id, l.login, l.line, l.registered_at as created_at, " +
    CURRENCY_CODES.map((c) => `l.inv_${c.toLowerCase()}::text as inv_${c.toLowerCase()}`).join(", ") +
    ", " +
    CURRENCY_CODES.map((c) => `l.pr_${c.toLowerCase()}::text as pr_${c.toLowerCase()}`).join(", "),
);

const toReferral = (r: ReferralRow) => ({
  id: r.id,
  login: r.login,
  line: Number(r.line),
  personalInvestments: amountsOf(r as unknown as Record<string, unknown>, "inv"),
  profit: amountsOf(r as unknown as Record<string, unknown>, "pr"),
  registeredAt: iso(r.created_at),
});

/** The member a keyset page starts after (`after`): its place in every order. */
interface Cursor {
  line: number;
  /** `registered_at` as the database prints it (microseconds kept). */
  at: string;
  login: string;
  inv: string;
  pr: string;
}

/**
 * One order of the list: what each line's index range is read by (`inner`, the columns of one of
 * the `referral_links_line_*` indexes after ancestor and line), how the lines' rows merge
 * (`outer`, over the selected `s1`, `s2`), and the rows after a cursor within one line (null: the
 * whole line; false: none of it).
 */
interface Order {
  keys: SQL;
  inner: SQL;
  outer: SQL;
  after(c: Cursor, line: number | null): SQL | null | false;
}

function orderOf(sort: ReferralsQuery["sort"], desc: boolean): Order {
  const dir = sql.raw(desc ? "desc" : "asc");
  const cmp = sql.raw(desc ? "<" : ">");
  switch (sort) {
    case "login":
      return {
        keys: sql`null::int as s1, lower(l.login) as s2`,
        inner: sql`lower(l.login) ${dir}`,
        outer: sql`s2 ${dir}`,
        after: (c) => sql`lower(l.login) ${cmp} ${c.login}`,
      };
    case "line":
      // Lines in the sort's direction, each by login A to Z.
      return {
        keys: sql`l.line as s1, lower(l.login) as s2`,
        inner: sql`lower(l.login) asc`,
        outer: sql`s1 ${dir}, s2 asc`,
        after: (c, line) => {
          if (line === null)
            return sql`(l.line ${cmp} ${c.line} or (l.line = ${c.line} and lower(l.login) > ${c.login}))`;
          if (line === c.line) return sql`lower(l.login) > ${c.login}`;
          return (desc ? line < c.line : line > c.line) ? null : false;
        },
      };
    case "createdAt":
      return {
        keys: sql`l.registered_at as s1, lower(l.login) as s2`,
        inner: sql`l.registered_at ${dir}, lower(l.login) ${dir}`,
        outer: sql`s1 ${dir}, s2 ${dir}`,
        after: (c) => sql`(l.registered_at, lower(l.login)) ${cmp} (${c.at}::timestamptz, ${c.login})`,
      };
    case "investments":
    case "profit": {
      // Largest first reads the negated value upwards, so ties still go A to Z by login.
      const column = sql.raw(sort === "investments" ? "l.inv_usd" : "l.pr_usd");
      const key = desc ? sql`(-${column})` : column;
      return {
        keys: sql`${key} as s1, lower(l.login) as s2`,
        inner: sql`${key} asc, lower(l.login) asc`,
        outer: sql`s1 asc, s2 asc`,
        after: (c) => {
          const value = sort === "investments" ? c.inv : c.pr;
          const bound = desc ? sql`(-(${value}::numeric))` : sql`${value}::numeric`;
          return sql`(${key}, lower(l.login)) > (${bound}, ${c.login})`;
        },
      };
    }
  }
}

/** A login search as a LIKE pattern: the text anywhere, any letter case, `%`, `_` and `\\` literal. */
const likePattern = (search: string) => `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * `GET /user/referrals` (see contract/partners.ts). The caller's kept closure rows (`referral_links`)
 * and kept totals; nothing is aggregated over the downline, whatever its size. Without a search,
 * each line is one range of the index of the asked order, read only as far as the page needs, and
 * the lines' ranges are merged; a search starts from the trigram index of the logins and reads
 * only the matching members' rows. `after` (a member) starts the page after it: keyset paging.
 */
export async function listReferrals(db: Database, callerId: string, query: ReferralsQuery): Promise<ReferralsReply> {
  const lines = await getSetting(db, "referralLines");
  const depth = lines.length;
  const lineTotals = await keptLineTotals(db, callerId);
  const totals = await referralTotals(db, callerId, depth, lineTotals);
  const empty = { items: [], total: 0, page: query.page, limit: query.limit, totals, next: null };
  if (depth === 0 || (query.line !== undefined && query.line > depth)) return empty;

  const cursor = query.after ? await cursorOf(db, callerId, query.after, depth) : null;
  const order = orderOf(query.sort, query.sortDir === "desc");
  // One row more than the page tells whether another page follows.
  const take = query.limit + 1;
  const skip = cursor ? 0 : (query.page - 1) * query.limit;
  const select = sql`select ${LINK_COLUMNS}, ${order.keys} from referral_links l`;

  let rows: ReferralRow[];
  let total: number;
  if (query.search) {
    const lineCondition = query.line !== undefined ? sql`l.line = ${query.line}` : sql`l.line <= ${depth}`;
    const matching = await searchRows(db, callerId, query.search, lineCondition);
    const after = cursor ? order.after(cursor, null) : null;
    // Every match is counted (the window) before the page is cut at the cursor; only the page's
    // rows are then read whole.
    const result = await db.execute(sql`
      with page as (
        select * from (select l.member_id, ${order.keys}, count(*) over () as total, ${after ?? sql`true`} as past
                         from ${matching}) p
         where p.past order by ${order.outer} limit ${take} offset ${skip})
      select ${LINK_COLUMNS}, page.s1, page.s2, page.total
        from page join referral_links l on l.ancestor_id = ${callerId} and l.member_id = page.member_id
       order by ${order.outer}`);
    rows = resultRows<ReferralRow & { total: number }>(result);
    const first = rows[0] as (ReferralRow & { total: number }) | undefined;
    if (first) total = Number(first.total);
    else {
      const counted = await db.execute(sql`select count(*)::int as total from ${matching}`);
      total = Number(resultRows<{ total: number }>(counted)[0]?.total ?? 0);
    }
  } else {
    const parts: SQL[] = [];
    for (const line of query.line !== undefined ? [query.line] : Array.from({ length: depth }, (_, i) => i + 1)) {
      const after = cursor ? order.after(cursor, line) : null;
      if (after === false) continue;
      parts.push(sql`(${select} where l.ancestor_id = ${callerId} and l.line = ${line}
          ${after ? sql`and ${after}` : sql``} order by ${order.inner} limit ${skip + take})`);
    }
    if (parts.length === 0) rows = [];
    else {
      const result = await db.execute(sql`
        select * from (${sql.join(parts, sql` union all `)}) p order by ${order.outer} limit ${take} offset ${skip}`);
      rows = resultRows<ReferralRow>(result);
    }
    total =
      query.line !== undefined
        ? (totals.byLine[query.line - 1]?.count ?? 0)
        : totals.byLine.reduce((n, line) => n + line.count, 0);
  }
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    items: page.map(toReferral),
    total,
    page: query.page,
    limit: query.limit,
    totals,
    next: rows.length > query.limit && last ? last.id : null,
  };
}

/** Up to this many logins matching a search are read from the caller's rows by key. */
const SEARCH_LOOKUPS = 2000;

/**
 * The caller's closure rows whose login contains `search`, as a FROM item named `l`. The trigram
 * index finds the matching users of the whole database (it keeps no list of pending entries,
 * migration 0019, so the planner takes it). Up to SEARCH_LOOKUPS of them are read from the
 * caller's range of the primary key in the same statement (`member_id = any(array(…))`, no ids
 * sent back and forth); more (a text of one or two letters, or a common one) reads the caller's
 * rows of the lines and filters them.
 */
async function searchRows(db: Database, callerId: string, search: string, lineCondition: SQL): Promise<SQL> {
  const like = likePattern(search);
  const matches = sql`select u.id from ${users} u where lower(u.login) like ${like}`;
  const [counted] = resultRows<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from (${matches} limit ${SEARCH_LOOKUPS + 1}) m`),
  );
  if (Number(counted?.n ?? 0) > SEARCH_LOOKUPS)
    return sql`(select * from referral_links l
                 where l.ancestor_id = ${callerId} and ${lineCondition} and lower(l.login) like ${like}) l`;
  return sql`(select * from referral_links l
               where l.ancestor_id = ${callerId} and l.member_id = any(array(${matches})) and ${lineCondition}) l`;
}

/** The caller's member `after` where every order places it; a member not in the caller's lines is refused. */
async function cursorOf(db: Database, callerId: string, memberId: string, depth: number): Promise<Cursor> {
  const result = await db.execute(sql`
    select line, registered_at::text as at, lower(login) as login, inv_usd::text as inv, pr_usd::text as pr
      from referral_links where ancestor_id = ${callerId} and member_id = ${memberId} and line <= ${depth}`);
  const row = resultRows<Cursor>(result)[0];
  if (!row) throw new AppError("VALIDATION_FAILED", { fields: { after: "required" } });
  return { ...row, line: Number(row.line) };
}

interface LineTotalRow {
  line: number;
  members: number;
  pr_usdt: string;
  pr_btc: string;
  pr_eth: string;
  pr_ton: string;
}

async function keptLineTotals(db: Database, userId: string): Promise<LineTotalRow[]> {
  const result = await db.execute(sql`
    select line, members, pr_usdt::text as pr_usdt, pr_btc::text as pr_btc, pr_eth::text as pr_eth,
           pr_ton::text as pr_ton
      from referral_line_totals where user_id = ${userId}`);
  return resultRows<LineTotalRow>(result);
}

async function referralTotals(
  db: Database,
  callerId: string,
  depth: number,
  kept: LineTotalRow[],
): Promise<ReferralsReply["totals"]> {
  const byLine = Array.from({ length: depth }, (_, i) => ({ line: i + 1, count: 0, profit: zeroAmounts() }));
  let referrals = 0;
  const profit = money("0");
  const sums: Record<Currency, ReturnType<typeof money>> = { USDT: profit, BTC: profit, ETH: profit, TON: profit };
  for (const r of kept) {
    for (const c of CURRENCY_CODES)
      sums[c] = sums[c].plus(money(String(r[`pr_${c.toLowerCase()}` as keyof LineTotalRow])));
    const entry = byLine[Number(r.line) - 1];
    if (!entry) continue;
    entry.count = Number(r.members);
    entry.profit = amountsOf(r as unknown as Record<string, unknown>, "pr");
    referrals += entry.count;
  }
  const total = zeroAmounts();
  for (const c of CURRENCY_CODES) total[c] = normalizeDecimal(sums[c].toFixed());
  return { referrals, byLine, profit: total, turnover: await turnoverOf(db, callerId) };
}

async function turnoverOf(db: Database, userId: string): Promise<CurrencyAmounts> {
  const turnover = zeroAmounts();
  const rows = await db
    .select({ currency: referralTurnover.currency, amount: referralTurnover.amount })
    .from(referralTurnover)
    .where(eq(referralTurnover.userId, userId));
  for (const r of rows) turnover[r.currency as Currency] = normalizeDecimal(r.amount);
  return turnover;
}

/** `GET /user/referral/:id`: a member of the caller's downline within the lines; else 404. */
export async function getReferral(db: Database, callerId: string, id: string): Promise<ReferralDetail> {
  if (!isUuid(id)) throw new AppError("NOT_FOUND");
  const depth = (await getSetting(db, "referralLines")).length;
  if (depth === 0) throw new AppError("NOT_FOUND");
  const result = await db.execute(sql`
    select ${LINK_COLUMNS}, i.login as inviter,
           coalesce((select t.members from referral_line_totals t where t.user_id = l.member_id and t.line = 1), 0)
             as invited
      from referral_links l join ${users} u on u.id = l.member_id left join ${users} i on i.id = u.inviter_id
     where l.ancestor_id = ${callerId} and l.member_id = ${id} and l.line <= ${depth}`);
  const row = resultRows<ReferralRow & { inviter: string | null; invited: number }>(result)[0];
  if (!row) throw new AppError("NOT_FOUND");
  return { ...toReferral(row), inviter: row.inviter, invited: Number(row.invited) };
}

/** `GET /user/bonus`: the four bonuses with the caller's turnover in each one's currency. */
export async function getBonuses(db: Database, userId: string): Promise<BonusReply> {
  const bonuses = await getSetting(db, "turnoverBonuses");
  const turnover = await turnoverOf(db, userId);
  const paid = await db.select().from(paidBonuses).where(eq(paidBonuses.userId, userId));
  return bonuses.map((b, i) => {
    const row = paid.find((p) => p.bonusIndex === i + 1);
    const progress = turnover[b.currency];
    return {
      index: i + 1,
      currency: b.currency,
      turnover: toDecimalString(b.turnover),
      award: toDecimalString(b.award),
      progress,
      reached: compareAmounts(progress, b.turnover) >= 0,
      paid: row !== undefined,
      paidAt: row ? row.paidAt.toISOString() : null,
    };
  });
}
