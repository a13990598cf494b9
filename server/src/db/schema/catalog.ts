/** The catalogue: settings, plans, payment systems, news, subscription options. */
import type { LocalizedText } from "@contract";
import { sql } from "drizzle-orm";
import { boolean, check, integer, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { amount, percent, timestamptz } from "./columns";

/** Key/value settings; `is_public` ones are served by `GET /settings/{key}`. */
export const settings = pgTable("settings", {
  key: text("key").primaryKey(),
  value: jsonb("value").$type<unknown>().notNull(),
  isPublic: boolean("is_public").notNull().default(false),
  updatedAt: timestamptz("updated_at").notNull().defaultNow(),
});

/** Tariff plans a deposit is opened on. */
export const plans = pgTable(
  "plans",
  {
    id: text("id").primaryKey(),
    name: jsonb("name").$type<LocalizedText>().notNull(),
    currency: text("currency").notNull(),
    dailyYieldPercent: percent("daily_yield_percent").notNull(),
    durationDays: integer("duration_days").notNull(),
    minAmount: amount("min_amount").notNull(),
    maxAmount: amount("max_amount").notNull(),
    active: boolean("active").notNull().default(true),
    sort: integer("sort").notNull().default(0),
  },
  (t) => [
    check("plans_amounts_ordered", sql`${t.minAmount} >= 0 and ${t.maxAmount} >= ${t.minAmount}`),
    check("plans_duration_positive", sql`${t.durationDays} > 0`),
    check("plans_yield_non_negative", sql`${t.dailyYieldPercent} >= 0`),
  ],
);

/** Coins and networks users refill with and withdraw to. */
export const paymentSystems = pgTable(
  "payment_systems",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    currency: text("currency").notNull(),
    network: text("network").notNull(),
    refillEnabled: boolean("refill_enabled").notNull().default(true),
    withdrawalEnabled: boolean("withdrawal_enabled").notNull().default(true),
    minWithdrawal: amount("min_withdrawal").notNull(),
    maxWithdrawal: amount("max_withdrawal").notNull(),
    withdrawalFeePercent: percent("withdrawal_fee_percent").notNull().default("0"),
    /** The deposit address a refill shows the user. */
    address: text("address").notNull(),
    /** A regular expression a user's withdrawal wallet on this network must match. */
    addressPattern: text("address_pattern").notNull(),
    sort: integer("sort").notNull().default(0),
  },
  (t) => [
    check(
      "payment_systems_withdrawal_ordered",
      sql`${t.minWithdrawal} >= 0 and ${t.maxWithdrawal} >= ${t.minWithdrawal}`,
    ),
    check("payment_systems_fee_range", sql`${t.withdrawalFeePercent} >= 0 and ${t.withdrawalFeePercent} < 100`),
  ],
);

export const news = pgTable("news", {
  id: uuid("id").primaryKey().defaultRandom(),
  title: jsonb("title").$type<LocalizedText>().notNull(),
  body: jsonb("body").$type<LocalizedText>().notNull(),
  publishedAt: timestamptz("published_at").notNull().defaultNow(),
});

export const subscriptionOptions = pgTable(
  "subscription_options",
  {
    id: text("id").primaryKey(),
    title: jsonb("title").$type<LocalizedText>().notNull(),
    price: amount("price").notNull(),
    currency: text("currency").notNull(),
    durationDays: integer("duration_days").notNull(),
    sort: integer("sort").notNull().default(0),
  },
  (t) => [
    check("subscription_options_price_non_negative", sql`${t.price} >= 0`),
    check("subscription_options_duration_positive", sql`${t.durationDays} > 0`),
  ],
);
