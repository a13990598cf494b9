/**
 * Partners (docs/decisions.md#d6-partners, docs/cabinet-rules.md#partners): referral income by line, matching, turnover bonuses, and the caller's
 * referral tree. Rules (server/README.md, "Partners"):
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
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { paidBonuses, referralEarnings, referralTurnover, users } from "../db/schema";
import { normalizeDecimal } from "../decimal";
import { AppError } from "../errors";
import type { DepositRow } from "./deposit-rows";
import { isUuid } from "./deposit-rows";
import { post, zeroAmounts } from "./ledger";
import { getSetting } from "./settings";

/** Rows of `db.execute` from either driver (postgres-js: an array; PGlite: `{ rows }`). */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
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
  return rowsOf<Upline>(result).map((r) => ({ id: r.id, login: r.login, line: Number(r.line) }));
}

const percentOf = (amount: string, percent: string, currency: Currency) =>
  roundDown(money(amount).times(percent).div(100), currency);

export interface ReferralPayout {
  referral: number;
  matching: number;
  bonuses: number;
}

/**
 * Pays the uplines of a just-opened deposit, inside the deposit's transaction `tx` (see the
 * module comment). Upline rows are touched bottom-up, the order every deposit uses, so two
 * deposits in one chain cannot lock each other's rows in opposite orders.
 */
export async function payReferralIncome(tx: Database, deposit: DepositRow, at: Date): Promise<ReferralPayout> {
  const payout: ReferralPayout = { referral: 0, matching: 0, bonuses: 0 };
  const lines = await getSetting(tx, "referralLines");
  if (lines.length === 0) return payout;
  const matchingPercent = await getSetting(tx, "matchingPercent");
  const bonuses = await getSetting(tx, "turnoverBonuses");
  const houseLogin = (await getSetting(tx, "defaultInviter")).toLowerCase();
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

/**
 * The caller's downline within `depth` lines with each member's investments and what they
 * brought the caller, as one SQL fragment (a recursive CTE over `inviter_id`, which is indexed).
 */
function downlineSql(callerId: string, depth: number) {
  const pivot = (column: string) =>
    sql.raw(
      CURRENCY_CODES.map(
        (c) => `coalesce(sum(${column}) filter (where currency = '${c}'), 0)::text as ${c.toLowerCase()}`,
      ).join(", "),
    );
  return sql`
    with recursive down(id, line) as (
      select id, 1 from ${users} where inviter_id = ${callerId}
      union all
      select u.id, down.line + 1 from ${users} u join down on u.inviter_id = down.id where down.line < ${depth}
    ),
    inv as materialized (
      select d.user_id, ${pivot("d.amount")}
        from deposits d join down on down.id = d.user_id group by d.user_id
    ),
    pr as materialized (
      select e.source_user_id as user_id, ${pivot("e.amount")}
        from referral_earnings e where e.beneficiary_id = ${callerId} group by e.source_user_id
    ),
    members as (
      select u.id, u.login, down.line, u.created_at,
             coalesce(inv.usdt, '0') as inv_usdt, coalesce(inv.btc, '0') as inv_btc,
             coalesce(inv.eth, '0') as inv_eth, coalesce(inv.ton, '0') as inv_ton,
             coalesce(pr.usdt, '0') as pr_usdt, coalesce(pr.btc, '0') as pr_btc,
             coalesce(pr.eth, '0') as pr_eth, coalesce(pr.ton, '0') as pr_ton
        from down join ${users} u on u.id = down.id
        left join inv on inv.user_id = down.id
        left join pr on pr.user_id = down.id
    )`;
}

/** USD value of a member's four amounts (for sorting), at the given rates. */
function usdValue(prefix: "inv" | "pr", rates: Record<Currency, string>) {
  return sql.raw(
    CURRENCY_CODES.map((c) => `${prefix}_${c.toLowerCase()}::numeric * ${money(rates[c]).toString()}`).join(" + "),
  );
}

const SORT_COLUMNS = {
  login: sql.raw("lower(login)"),
  line: sql.raw("line"),
  createdAt: sql.raw("created_at"),
};

/** `GET /user/referrals` (see contract/partners.ts). */
export async function listReferrals(db: Database, callerId: string, query: ReferralsQuery): Promise<ReferralsReply> {
  const lines = await getSetting(db, "referralLines");
  const depth = lines.length;
  const totals = await referralTotals(db, callerId, depth);
  const empty = { items: [], total: 0, page: query.page, limit: query.limit, totals };
  if (depth === 0 || (query.line !== undefined && query.line > depth)) return empty;

  const { rates } = await getSetting(db, "exchangeRates");
  const orderBy =
    query.sort === "investments"
      ? usdValue("inv", rates)
      : query.sort === "profit"
        ? usdValue("pr", rates)
        : SORT_COLUMNS[query.sort];
  const dir = sql.raw(query.sortDir === "asc" ? "asc" : "desc");
  const search = query.search ? `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const where = sql`where true
      ${query.line !== undefined ? sql`and line = ${query.line}` : sql``}
      ${search ? sql`and login ilike ${search}` : sql``}`;

  const result = await db.execute(sql`${downlineSql(callerId, depth)}
    select *, count(*) over ()::int as total from members ${where}
    order by ${orderBy} ${dir}, lower(login) asc, id asc
    limit ${query.limit} offset ${(query.page - 1) * query.limit}`);
  const rows = rowsOf<ReferralRow & { total: number }>(result);
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && query.page > 1) {
    const counted = await db.execute(sql`${downlineSql(callerId, depth)}
      select count(*)::int as total from members ${where}`);
    total = rowsOf<{ total: number }>(counted)[0]?.total ?? 0;
  }
  return {
    items: rows.map((r) => ({
      id: r.id,
      login: r.login,
      line: Number(r.line),
      personalInvestments: amountsOf(r as unknown as Record<string, unknown>, "inv"),
      profit: amountsOf(r as unknown as Record<string, unknown>, "pr"),
      registeredAt: iso(r.created_at),
    })),
    total: Number(total),
    page: query.page,
    limit: query.limit,
    totals,
  };
}

async function referralTotals(db: Database, callerId: string, depth: number): Promise<ReferralsReply["totals"]> {
  const byLine = Array.from({ length: depth }, (_, i) => ({ line: i + 1, count: 0, profit: zeroAmounts() }));
  let referrals = 0;
  if (depth > 0) {
    const result = await db.execute(sql`${downlineSql(callerId, depth)}
      select line, count(*)::int as n,
             sum(pr_usdt::numeric)::text as pr_usdt, sum(pr_btc::numeric)::text as pr_btc,
             sum(pr_eth::numeric)::text as pr_eth, sum(pr_ton::numeric)::text as pr_ton
        from members group by line`);
    for (const r of rowsOf<Record<string, unknown> & { line: number; n: number }>(result)) {
      const entry = byLine[Number(r.line) - 1];
      if (!entry) continue;
      entry.count = Number(r.n);
      entry.profit = amountsOf(r, "pr");
      referrals += entry.count;
    }
  }
  const profit = zeroAmounts();
  const earned = await db.execute(sql`
    select currency, sum(amount)::text as total from referral_earnings
     where beneficiary_id = ${callerId} group by currency`);
  for (const r of rowsOf<{ currency: Currency; total: string }>(earned)) profit[r.currency] = normalizeDecimal(r.total);
  return { referrals, byLine, profit, turnover: await turnoverOf(db, callerId) };
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
  const result = await db.execute(sql`${downlineSql(callerId, depth)}
    select m.*, i.login as inviter,
           (select count(*)::int from ${users} c where c.inviter_id = m.id) as invited
      from members m join ${users} u on u.id = m.id left join ${users} i on i.id = u.inviter_id
     where m.id = ${id}`);
  const row = rowsOf<ReferralRow & { inviter: string | null; invited: number }>(result)[0];
  if (!row) throw new AppError("NOT_FOUND");
  return {
    id: row.id,
    login: row.login,
    line: Number(row.line),
    personalInvestments: amountsOf(row as unknown as Record<string, unknown>, "inv"),
    profit: amountsOf(row as unknown as Record<string, unknown>, "pr"),
    registeredAt: iso(row.created_at),
    inviter: row.inviter,
    invited: Number(row.invited),
  };
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
