/**
 * The database schema (Drizzle, PostgreSQL). Every amount is NUMERIC and reaches the code as a
 * decimal string, never a JS number (decision D3). Localized texts are jsonb `{ en, ru, de, kk }`.
 * After a change run `npm run db:generate` and commit the new migration.
 */
import type { LocalizedText } from "@contract";
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

/** Money amounts: up to 20 integer digits and 18 decimals (enough for any coin's smallest unit). */
const amount = (name: string) => numeric(name, { precision: 38, scale: 18 });
/** Percentages and rates. */
const percent = (name: string) => numeric(name, { precision: 20, scale: 8 });
const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

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

/** How verification codes reach a user (contract `CODE_CHANNELS`). */
export const CODE_CHANNEL_VALUES = ["telegram", "email", "sms"] as const;

/**
 * Cabinet accounts. Logins and e-mails are unique regardless of letter case ("Kassa" cannot
 * shadow "kassa"), so look them up with `lower(login) = lower($1)`. `password_hash` is null for
 * accounts that only sign in through Telegram. `inviter_id` is the referral tree (decision D4).
 */
export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    login: text("login").notNull(),
    passwordHash: text("password_hash"),
    fullName: text("full_name"),
    email: text("email"),
    emailConfirmedAt: timestamptz("email_confirmed_at"),
    phone: text("phone").unique(),
    phoneConfirmedAt: timestamptz("phone_confirmed_at"),
    city: text("city"),
    country: text("country"),
    language: text("language").notNull().default("ru"),
    /** The Telegram user id this account signs in with (Telegram ids exceed 2^31). */
    telegramId: bigint("telegram_id", { mode: "number" }).unique(),
    inviterId: uuid("inviter_id").references((): AnyPgColumn => users.id),
    /** Where verification codes go (the user's security setting). */
    codeChannel: text("code_channel").$type<(typeof CODE_CHANNEL_VALUES)[number]>().notNull().default("email"),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("users_login_lower_unique").on(sql`lower(${t.login})`),
    uniqueIndex("users_email_lower_unique").on(sql`lower(${t.email})`),
    index("users_inviter_idx").on(t.inviterId),
    check("users_code_channel_known", sql`${t.codeChannel} in ('telegram', 'email', 'sms')`),
  ],
);

/**
 * Signed-in sessions. The client holds the token (the spec's `refreshToken`); only its SHA-256
 * is stored, so a copy of the database signs nobody in.
 */
export const sessions = pgTable(
  "sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    createdAt: timestamptz("created_at").notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
    revokedAt: timestamptz("revoked_at"),
    lastUsedAt: timestamptz("last_used_at"),
    userAgent: text("user_agent"),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

export const CODE_PURPOSES = ["phone", "password_reset", "withdrawal"] as const;
export type CodePurpose = (typeof CODE_PURPOSES)[number];

/**
 * One-time codes (decision D5). `code_hash` is an HMAC under a server-side key, since six digits
 * are found offline in a moment from a plain hash. Only the newest code of a user and purpose
 * counts; `attempts` counts wrong tries.
 */
export const verificationCodes = pgTable(
  "verification_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose").$type<CodePurpose>().notNull(),
    /** What the code confirms: the phone number, a withdrawal id; null when nothing more. */
    target: text("target"),
    codeHash: text("code_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: timestamptz("expires_at").notNull(),
    consumedAt: timestamptz("consumed_at"),
    createdAt: timestamptz("created_at").notNull(),
  },
  (t) => [
    index("verification_codes_user_purpose_idx").on(t.userId, t.purpose, t.createdAt),
    check("verification_codes_purpose_known", sql`${t.purpose} in ('phone', 'password_reset', 'withdrawal')`),
  ],
);

/** What a validated password-reset code is exchanged for: a short-lived, single-use token (hashed). */
export const passwordResetTokens = pgTable(
  "password_reset_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    createdAt: timestamptz("created_at").notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
    consumedAt: timestamptz("consumed_at"),
  },
  (t) => [index("password_reset_tokens_user_idx").on(t.userId)],
);
