/** Accounts: users, sessions, verification codes and one-time tokens, guess failures. */
import { CURRENCY_CODES } from "@contract";
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { sqlList, timestamptz } from "./columns";

/** How verification codes reach a user (contract `CODE_CHANNELS`). */
export const CODE_CHANNEL_VALUES = ["telegram", "email", "sms"] as const;

/**
 * Cabinet accounts. Logins and e-mails are unique regardless of letter case ("Kassa" cannot
 * shadow "kassa"), so look them up with `lower(login) = lower($1)`. `password_hash` is null for
 * accounts that only sign in through Telegram. `inviter_id` is the referral tree
 * (docs/decisions.md#d4-identity-and-sessions).
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
    /** The currency the cabinet shows first (`POST /user/balance`). */
    currentCurrency: text("current_currency").notNull().default("USDT"),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    /** A new phone waiting for its confirmation code (`POST /user-data/phone/confirm`). */
    pendingPhone: text("pending_phone"),
    /** The avatar's stored file name (128 random bits + extension) under UPLOAD_DIR/avatars. */
    avatarFile: text("avatar_file"),
    /** The paid subscription runs until then; null when never subscribed. */
    subscriptionUntil: timestamptz("subscription_until"),
    /** Notifications also go to the Telegram chat (the user's setting; only for linked accounts). */
    chatNotifications: boolean("chat_notifications").notNull().default(true),
    /** The user blocked the bot (a 403 or a `my_chat_member` "kicked"); chat messages wait until unblocked. */
    botBlockedAt: timestamptz("bot_blocked_at"),
    /**
     * Withdrawals refused until then (repeated voided withdrawal codes,
     * docs/decisions.md#withdrawal-code-guessing).
     */
    withdrawalsLockedUntil: timestamptz("withdrawals_locked_until"),
    /** News by e-mail (code channel e-mail): on until the investor unsubscribes through a news e-mail's link. */
    emailNews: boolean("email_news").notNull().default(true),
  },
  (t) => [
    uniqueIndex("users_login_lower_unique").on(sql`lower(${t.login})`),
    uniqueIndex("users_email_lower_unique").on(sql`lower(${t.email})`),
    index("users_inviter_idx").on(t.inviterId),
    /**
     * The partners table's login search (`like '%…%'`, pg_trgm; migration 0011). New logins go into
     * the index at once, not into a pending list only a vacuum would merge (migration 0019).
     */
    index("users_login_trgm_idx").using("gin", sql`lower(${t.login}) gin_trgm_ops`).with({ fastupdate: false }),
    check("users_code_channel_known", sql`${t.codeChannel} in ('telegram', 'email', 'sms')`),
    check("users_current_currency_known", sql`${t.currentCurrency} in (${sqlList(CURRENCY_CODES)})`),
  ],
);

/**
 * Signed-in sessions. The client holds the token (its `refreshToken`); only its SHA-256
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

/**
 * What a code confirms; `wallet`: a new or changed withdrawal wallet (its message says so); `email`: the
 * investor's e-mail, as a channel for codes (sent to the e-mail only).
 */
export const CODE_PURPOSES = ["phone", "password_reset", "withdrawal", "wallet", "email"] as const;
export type CodePurpose = (typeof CODE_PURPOSES)[number];

/**
 * One-time codes (docs/decisions.md#d5-codes). `code_hash` is an HMAC under a server-side key, since six digits
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
    check("verification_codes_purpose_known", sql`${t.purpose} in (${sqlList(CODE_PURPOSES)})`),
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

/**
 * One-time links that attach Telegram to a password account (Settings → Security): the bot's
 * `/start link_<token>`. Only the token's SHA-256 is stored; it expires and is used once.
 */
export const telegramLinkTokens = pgTable(
  "telegram_link_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    createdAt: timestamptz("created_at").notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
    usedAt: timestamptz("used_at"),
  },
  (t) => [index("telegram_link_tokens_user_idx").on(t.userId)],
);

/** What `guess_failures` counts: wrong password-reset codes in a row (docs/decisions.md#guessing-budgets). */
export const GUESS_KINDS = ["password_reset"] as const;
export type GuessKind = (typeof GUESS_KINDS)[number];

/**
 * Wrong guesses in a row per account and kind, whichever form, identifier or address they came
 * through; a right one (or the owner signing in) clears the row. At the kind's limit it is locked.
 */
export const guessFailures = pgTable(
  "guess_failures",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").$type<GuessKind>().notNull(),
    failures: integer("failures").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.kind] }),
    check("guess_failures_kind_known", sql`${t.kind} in (${sqlList(GUESS_KINDS)})`),
  ],
);
