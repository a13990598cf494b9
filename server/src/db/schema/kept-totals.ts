/** Kept totals: tables the migrations' triggers keep in step with their sources. */
import { sql } from "drizzle-orm";
import { bigint, date, index, integer, numeric, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { amount, timestamptz } from "./columns";

// -------------------------------------------------------------------------------------------------
// Kept totals (the server at scale). Triggers of the migration that made these tables keep them as
// their sources change (docs/database.md, "Kept totals"); no code writes them.

/**
 * The referral tree as closure rows: one per member and each inviter above it, up to
 * MAX_REFERRAL_LINES lines, with the member's login and registration (never changed after) and what
 * the member invested (Σ principal of the member's deposits, any status) and brought the ancestor
 * (referral and matching income), per currency. The partners table reads one page of these.
 */
export const referralLinks = pgTable(
  "referral_links",
  {
    ancestorId: uuid("ancestor_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    memberId: uuid("member_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    line: integer("line").notNull(),
    login: text("login").notNull(),
    registeredAt: timestamptz("registered_at").notNull(),
    invUsdt: amount("inv_usdt").notNull().default("0"),
    invBtc: amount("inv_btc").notNull().default("0"),
    invEth: amount("inv_eth").notNull().default("0"),
    invTon: amount("inv_ton").notNull().default("0"),
    prUsdt: amount("pr_usdt").notNull().default("0"),
    prBtc: amount("pr_btc").notNull().default("0"),
    prEth: amount("pr_eth").notNull().default("0"),
    prTon: amount("pr_ton").notNull().default("0"),
    /**
     * The USD value of the four `inv_*` and of the four `pr_*` at the `exchangeRates` setting's rates,
     * kept by the same triggers and again when the rates change: the money sorts walk an index.
     */
    invUsd: numeric("inv_usd").notNull().default("0"),
    prUsd: numeric("pr_usd").notNull().default("0"),
  },
  (t) => [
    primaryKey({ columns: [t.ancestorId, t.memberId] }),
    index("referral_links_member_idx").on(t.memberId),
    // One index per order of the list, each within one ancestor's line (docs/database.md, "Kept totals").
    index("referral_links_line_idx").on(t.ancestorId, t.line, sql`lower(${t.login})`),
    index("referral_links_line_registered_idx").on(t.ancestorId, t.line, t.registeredAt, sql`lower(${t.login})`),
    index("referral_links_line_inv_idx").on(t.ancestorId, t.line, t.invUsd, sql`lower(${t.login})`),
    index("referral_links_line_inv_desc_idx").on(t.ancestorId, t.line, sql`(-${t.invUsd})`, sql`lower(${t.login})`),
    index("referral_links_line_pr_idx").on(t.ancestorId, t.line, t.prUsd, sql`lower(${t.login})`),
    index("referral_links_line_pr_desc_idx").on(t.ancestorId, t.line, sql`(-${t.prUsd})`, sql`lower(${t.login})`),
  ],
);

/**
 * Per user and line of its downline: how many members, and what they brought (referral and
 * matching income by the depositor's line; matching may come from one line below the last).
 */
export const referralLineTotals = pgTable(
  "referral_line_totals",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    line: integer("line").notNull(),
    members: integer("members").notNull().default(0),
    prUsdt: amount("pr_usdt").notNull().default("0"),
    prBtc: amount("pr_btc").notNull().default("0"),
    prEth: amount("pr_eth").notNull().default("0"),
    prTon: amount("pr_ton").notNull().default("0"),
  },
  (t) => [primaryKey({ columns: [t.userId, t.line] })],
);

/** Per user, currency and type: how many operations and their sum (the lists' totals, statistics). */
export const operationTotals = pgTable(
  "operation_totals",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    currency: text("currency").notNull(),
    type: text("type").notNull(),
    count: bigint("count", { mode: "number" }).notNull().default(0),
    /** Σ of the positive amounts only (what statistics calls earned). */
    credited: amount("credited").notNull().default("0"),
  },
  (t) => [primaryKey({ columns: [t.userId, t.currency, t.type] })],
);

/**
 * Income by day (`GET /user/income`; docs/api-home.md, "Home: statements, overview, income, inbox"): per user,
 * UTC day and currency, the daily accruals that fell due (a deposit closed early takes its days back) and the
 * partner income paid (referral, matching, turnover bonuses). Kept by triggers (migration 0015_home).
 */
export const incomeDays = pgTable(
  "income_days",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    currency: text("currency").notNull(),
    accruals: amount("accruals").notNull().default("0"),
    bonuses: amount("bonuses").notNull().default("0"),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day, t.currency] })],
);
