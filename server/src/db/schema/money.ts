/** Money: crypto cases, balances, refills, deposits, accruals, the operations ledger. */
import {
  CURRENCY_CODES,
  DEPOSIT_STATUSES,
  LEDGER_OPERATION_TYPES,
  type LocalizedText,
  REFILL_STATUSES,
  RISK_LEVELS,
} from "@contract";
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { paymentSystems, plans } from "./catalog";
import { amount, percent, sqlList, timestamptz } from "./columns";

// -------------------------------------------------------------------------------------------------
// Money (docs/decisions.md#d3-money, #d6-funds). Every change of a balance is one row of `operations`, written in the
// same transaction as the change, so a balance always equals the sum of its operations.

/**
 * Curated portfolios: a named bundle of plans with a risk level (server/README.md, "Crypto
 * cases"). A deposit may be opened through one.
 */
export const cryptoCases = pgTable(
  "crypto_cases",
  {
    id: text("id").primaryKey(),
    name: jsonb("name").$type<LocalizedText>().notNull(),
    description: jsonb("description").$type<LocalizedText>().notNull(),
    riskLevel: text("risk_level").notNull(),
    /** Plan ids in display order. */
    planIds: jsonb("plan_ids").$type<string[]>().notNull(),
    active: boolean("active").notNull().default(true),
    sort: integer("sort").notNull().default(0),
  },
  (t) => [check("crypto_cases_risk_level_known", sql`${t.riskLevel} in (${sqlList(RISK_LEVELS)})`)],
);

/**
 * One row per user and currency held. The CHECK is the last line of defence: debits are
 * conditional updates (`… where amount >= $x`), so an overspend never reaches it.
 */
export const balances = pgTable(
  "balances",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    currency: text("currency").notNull(),
    amount: amount("amount").notNull().default("0"),
    updatedAt: timestamptz("updated_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.currency] }),
    check("balances_amount_non_negative", sql`${t.amount} >= 0`),
    check("balances_currency_known", sql`${t.currency} in (${sqlList(CURRENCY_CODES)})`),
  ],
);

/** Refills (docs/decisions.md#d6-refills): waiting until the operator confirms (replenished) or rejects them. */
export const refills = pgTable(
  "refills",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    paymentSystemId: text("payment_system_id")
      .notNull()
      .references(() => paymentSystems.id),
    /** Copied from the payment system when the refill was made (it may change later). */
    currency: text("currency").notNull(),
    network: text("network").notNull(),
    address: text("address").notNull(),
    amountRequested: amount("amount_requested").notNull(),
    amountCredited: amount("amount_credited"),
    txHash: text("tx_hash"),
    status: text("status").notNull().default("waiting"),
    /** The operator's note on a rejection. */
    note: text("note"),
    createdAt: timestamptz("created_at").notNull(),
    processedAt: timestamptz("processed_at"),
  },
  (t) => [
    index("refills_user_idx").on(t.userId, t.createdAt),
    index("refills_status_idx").on(t.status, t.createdAt),
    check("refills_status_known", sql`${t.status} in (${sqlList(REFILL_STATUSES)})`),
    check("refills_amount_requested_positive", sql`${t.amountRequested} > 0`),
    check(
      "refills_credited_when_replenished",
      sql`(${t.status} = 'replenished') = (${t.amountCredited} is not null) and coalesce(${t.amountCredited}, 1) > 0`,
    ),
  ],
);

/**
 * Deposits on a plan. The plan's terms are copied in at opening (a plan may change later). Daily
 * income accrues into `accrued_held` (one `accruals` row per day) and is paid at the end.
 */
export const deposits = pgTable(
  "deposits",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    planId: text("plan_id")
      .notNull()
      .references(() => plans.id),
    caseId: text("case_id").references(() => cryptoCases.id),
    currency: text("currency").notNull(),
    amount: amount("amount").notNull(),
    dailyYieldPercent: percent("daily_yield_percent").notNull(),
    durationDays: integer("duration_days").notNull(),
    dailyIncome: amount("daily_income").notNull(),
    accruedHeld: amount("accrued_held").notNull().default("0"),
    daysAccrued: integer("days_accrued").notNull().default(0),
    autoInvest: boolean("auto_invest").notNull().default(false),
    status: text("status").notNull().default("active"),
    startedAt: timestamptz("started_at").notNull(),
    endsAt: timestamptz("ends_at").notNull(),
    /** When it completed or was closed. */
    closedAt: timestamptz("closed_at"),
    returned: amount("returned"),
    forfeited: amount("forfeited"),
    /** Auto-investment: the deposit principal and accruals went into. */
    reinvestedInto: uuid("reinvested_into").references((): AnyPgColumn => deposits.id),
    createdAt: timestamptz("created_at").notNull(),
  },
  (t) => [
    index("deposits_user_idx").on(t.userId, t.startedAt),
    index("deposits_active_idx").on(t.status, t.startedAt),
    check("deposits_status_known", sql`${t.status} in (${sqlList(DEPOSIT_STATUSES)})`),
    check("deposits_amount_positive", sql`${t.amount} > 0`),
    check("deposits_accrued_non_negative", sql`${t.accruedHeld} >= 0 and ${t.dailyIncome} >= 0`),
    check("deposits_days_in_term", sql`${t.daysAccrued} >= 0 and ${t.daysAccrued} <= ${t.durationDays}`),
    check("deposits_duration_positive", sql`${t.durationDays} > 0`),
  ],
);

/** One row per deposit and plan day: the UNIQUE pair makes a second run (or scheduler) a no-op. */
export const accruals = pgTable(
  "accruals",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    depositId: uuid("deposit_id")
      .notNull()
      .references(() => deposits.id, { onDelete: "cascade" }),
    /** 1 … durationDays. */
    dayIndex: integer("day_index").notNull(),
    amount: amount("amount").notNull(),
    /** When the day was due: started_at + day_index × 24 h. */
    dueAt: timestamptz("due_at").notNull(),
    createdAt: timestamptz("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("accruals_deposit_day_unique").on(t.depositId, t.dayIndex),
    check("accruals_day_positive", sql`${t.dayIndex} >= 1`),
    check("accruals_amount_non_negative", sql`${t.amount} >= 0`),
  ],
);

/** The ledger: a signed change of one balance. Never updated, never deleted. */
export const operations = pgTable(
  "operations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Insertion order: ties of `created_at` (both sides of an exchange) sort by it. */
    seq: bigserial("seq", { mode: "number" }).notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    currency: text("currency").notNull(),
    type: text("type").notNull(),
    amount: amount("amount").notNull(),
    depositId: uuid("deposit_id").references(() => deposits.id),
    refillId: uuid("refill_id").references(() => refills.id),
    createdAt: timestamptz("created_at").notNull(),
    meta: jsonb("meta").$type<Record<string, unknown>>(),
  },
  (t) => [
    index("operations_user_idx").on(t.userId, t.createdAt, t.seq),
    // The pulse's newest operation of a user, and the list's filters by type and by currency.
    index("operations_user_seq_idx").on(t.userId, t.seq),
    index("operations_user_type_idx").on(t.userId, t.type, t.createdAt, t.seq),
    index("operations_user_currency_idx").on(t.userId, t.currency, t.createdAt, t.seq),
    index("operations_deposit_idx").on(t.depositId),
    check("operations_type_known", sql`${t.type} in (${sqlList(LEDGER_OPERATION_TYPES)})`),
    check("operations_currency_known", sql`${t.currency} in (${sqlList(CURRENCY_CODES)})`),
    check("operations_amount_non_zero", sql`${t.amount} <> 0`),
  ],
);
