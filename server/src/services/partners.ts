/**
 * Partners (docs/decisions.md#d6-partners, docs/cabinet-rules.md#partners): referral income by line, matching,
 * turnover bonuses, and the caller's referral tree. Rules (server/README.md, "Partners"):
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

/** The columns of a closure row a reply reads (see `referral_links` in db/schema.ts). */
const LINK_COLUMNS = sql.raw(
  "l.member_id as id, l.login, l.line, l.registered_at as created_at, " +
    CURRENCY_CODES.map((c) => `l.inv_${c.toLowerCase()}::text as inv_${c.toLowerCase()}`).join(", ") +
    ", " +
    CURRENCY_CODES.map((c) => `l.pr_${c.toLowerCase()}::text as pr_${c.toLowerCase()}`).join(", "),
);

/** USD value of a member's four kept amounts (for sorting), at the given rates. */
function usdValue(prefix: "inv" | "pr", rates: Record<Currency, string>) {
  return sql.raw(
    CURRENCY_CODES.map((c) => `l.${prefix}_${c.toLowerCase()} * ${money(rates[c]).toString()}`).join(" + "),
  );
}

const SORT_COLUMNS = {
  login: sql.raw("lower(l.login)"),
  line: sql.raw("l.line"),
  createdAt: sql.raw("l.registered_at"),
};

const toReferral = (r: ReferralRow) => ({
  id: r.id,
  login: r.login,
  line: Number(r.line),
  personalInvestments: amountsOf(r as unknown as Record<string, unknown>, "inv"),
  profit: amountsOf(r as unknown as Record<string, unknown>, "pr"),
  registeredAt: iso(r.created_at),
});

/**
 * `GET /user/referrals` (see contract/partners.ts). One page of the caller's kept closure rows
 * (`referral_links`, through an index for every sort but the two money ones) and the kept totals:
 * nothing is aggregated over the downline, whatever its size.
 */
export async function listReferrals(db: Database, callerId: string, query: ReferralsQuery): Promise<ReferralsReply> {
  const lines = await getSetting(db, "referralLines");
  const depth = lines.length;
  const lineTotals = await keptLineTotals(db, callerId);
  const totals = await referralTotals(db, callerId, depth, lineTotals);
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
  const search = query.search ? `%${query.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const lineCondition = query.line !== undefined ? sql`l.line = ${query.line}` : sql`l.line <= ${depth}`;
  const where = sql`l.ancestor_id = ${callerId} and ${lineCondition}
      ${search ? sql`and lower(l.login) like ${search}` : sql``}`;

  const result = await db.execute(sql`
    select ${LINK_COLUMNS} from referral_links l where ${where}
    order by ${orderBy} ${dir}, lower(l.login) asc, l.member_id asc
    limit ${query.limit} offset ${(query.page - 1) * query.limit}`);
  const rows = rowsOf<ReferralRow>(result);
  let total: number;
  if (search) {
    const counted = await db.execute(sql`select count(*)::int as total from referral_links l where ${where}`);
    total = Number(rowsOf<{ total: number }>(counted)[0]?.total ?? 0);
  } else {
    total =
      query.line !== undefined
        ? (totals.byLine[query.line - 1]?.count ?? 0)
        : totals.byLine.reduce((n, line) => n + line.count, 0);
  }
  return { items: rows.map(toReferral), total, page: query.page, limit: query.limit, totals };
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
  return rowsOf<LineTotalRow>(result);
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
  const row = rowsOf<ReferralRow & { inviter: string | null; invited: number }>(result)[0];
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
