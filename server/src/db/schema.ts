/**
 * The database schema (Drizzle, PostgreSQL). Every amount is NUMERIC and reaches the code as a
 * decimal string, never a JS number (docs/decisions.md#d3-money). Localized texts are jsonb `{ en, ru, de, kk }`.
 * After a change run `npm run db:generate` and commit the new migration.
 */
import {
  CURRENCY_CODES,
  DEPOSIT_STATUSES,
  FAMILY_STATUSES,
  LANGUAGES,
  type Language,
  LEDGER_OPERATION_TYPES,
  type LocalizedText,
  NOTIFICATION_KINDS,
  type NotificationKind,
  REFILL_STATUSES,
  RISK_LEVELS,
  VERIFICATION_STATUSES,
  type VerificationStatus,
} from "@contract";
import { WITHDRAWAL_ROW_STATUSES, type WithdrawalRowStatus } from "@contract/operator";
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
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
/** `'a', 'b'` for a CHECK … IN (…) over a fixed list of the contract. */
const sqlList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(", "));

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

// -------------------------------------------------------------------------------------------------
// Partners and withdrawals (docs/decisions.md#d6-partners, #d6-withdrawals).

/**
 * Referral and matching income, one row per beneficiary, deposit and kind, written with its
 * operation when a referral's deposit opens: what each referral "brought" the caller
 * (`GET /user/referrals` profit) without reading the ledger's jsonb. The UNIQUE triple makes a
 * deposit pay each upline once.
 */
export const referralEarnings = pgTable(
  "referral_earnings",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    beneficiaryId: uuid("beneficiary_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The referral whose deposit paid it (for matching too: the depositor, not the direct invitee). */
    sourceUserId: uuid("source_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    depositId: uuid("deposit_id")
      .notNull()
      .references(() => deposits.id, { onDelete: "cascade" }),
    kind: text("kind").$type<"referral" | "matching">().notNull(),
    /** The depositor's line as seen from the beneficiary (1 = invited directly). */
    line: integer("line").notNull(),
    currency: text("currency").notNull(),
    amount: amount("amount").notNull(),
    operationId: uuid("operation_id")
      .notNull()
      .references(() => operations.id),
    createdAt: timestamptz("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("referral_earnings_once").on(t.depositId, t.beneficiaryId, t.kind),
    index("referral_earnings_beneficiary_idx").on(t.beneficiaryId, t.sourceUserId),
    check("referral_earnings_kind_known", sql`${t.kind} in ('referral', 'matching')`),
    check("referral_earnings_amount_positive", sql`${t.amount} > 0`),
  ],
);

/**
 * Turnover of a user's downline within the referral lines, per currency: Σ principal of the
 * deposits its members opened. Incremented in the deposit's transaction (`amount = amount + x
 * returning amount`), so concurrent deposits see each other's increments.
 */
export const referralTurnover = pgTable(
  "referral_turnover",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    currency: text("currency").notNull(),
    amount: amount("amount").notNull().default("0"),
    updatedAt: timestamptz("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.currency] })],
);

/** Turnover bonuses paid: the UNIQUE (user, bonus) pair pays each bonus once, whatever races. */
export const paidBonuses = pgTable(
  "paid_bonuses",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Position in the `turnoverBonuses` setting, 1-based. */
    bonusIndex: integer("bonus_index").notNull(),
    currency: text("currency").notNull(),
    award: amount("award").notNull(),
    turnover: amount("turnover").notNull(),
    /** The `bonus` operation; written just after the row claims the bonus (same transaction). */
    operationId: uuid("operation_id").references(() => operations.id),
    paidAt: timestamptz("paid_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.bonusIndex] })],
);

/** A user's withdrawal address per payment system (`PATCH /user-data/wallets/update`). */
export const wallets = pgTable(
  "wallets",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    paymentSystemId: text("payment_system_id")
      .notNull()
      .references(() => paymentSystems.id),
    address: text("address").notNull(),
    updatedAt: timestamptz("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.paymentSystemId] })],
);

/** Internal statuses: the five the user sees plus `awaiting_code` (before the code) and `cancelled`. */
export { WITHDRAWAL_ROW_STATUSES, type WithdrawalRowStatus };

/**
 * Withdrawal applications (docs/decisions.md#d6-withdrawals). The amount leaves the balance (a `withdrawal`
 * operation) when the application is made; cancelled, rejected and error give it back with a
 * `withdrawal_return` operation.
 */
export const withdrawals = pgTable(
  "withdrawals",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    paymentSystemId: text("payment_system_id")
      .notNull()
      .references(() => paymentSystems.id),
    /** Copied when the application was made. */
    currency: text("currency").notNull(),
    network: text("network").notNull(),
    wallet: text("wallet").notNull(),
    amount: amount("amount").notNull(),
    fee: amount("fee").notNull(),
    amountToReceive: amount("amount_to_receive").notNull(),
    status: text("status").$type<WithdrawalRowStatus>().notNull(),
    txHash: text("tx_hash"),
    note: text("note"),
    createdAt: timestamptz("created_at").notNull(),
    confirmedAt: timestamptz("confirmed_at"),
    processedAt: timestamptz("processed_at"),
  },
  (t) => [
    index("withdrawals_user_idx").on(t.userId, t.createdAt),
    index("withdrawals_status_idx").on(t.status, t.createdAt),
    check("withdrawals_status_known", sql`${t.status} in (${sqlList(WITHDRAWAL_ROW_STATUSES)})`),
    check(
      "withdrawals_amounts",
      sql`${t.amount} > 0 and ${t.fee} >= 0 and ${t.amountToReceive} = ${t.amount} - ${t.fee}`,
    ),
    check("withdrawals_success_has_hash", sql`${t.status} <> 'success' or ${t.txHash} is not null`),
  ],
);

// -------------------------------------------------------------------------------------------------
// Settings, notifications and verification.

/**
 * Notifications of the dialog (docs/cabinet-rules.md#screens): what happened (`kind`) and its values (`params`); the
 * title and body are written from server-side templates in the user's language when read.
 */
export const notifications = pgTable(
  "notifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").$type<NotificationKind>().notNull(),
    params: jsonb("params").$type<Record<string, string>>().notNull(),
    createdAt: timestamptz("created_at").notNull(),
    readAt: timestamptz("read_at"),
  },
  (t) => [
    index("notifications_user_idx").on(t.userId, t.createdAt),
    check("notifications_kind_known", sql`${t.kind} in (${sqlList(NOTIFICATION_KINDS)})`),
  ],
);

/**
 * Verification requests (docs/cabinet-rules.md#entities, #statuses-and-flows): one row per request, the newest
 * counts. The photos are stored file names under UPLOAD_DIR/verification, never served.
 */
export const verificationRequests = pgTable(
  "verification_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    fullName: text("full_name").notNull(),
    dateOfBirth: text("date_of_birth").notNull(),
    familyStatus: text("family_status").notNull(),
    documentNumber: text("document_number").notNull(),
    documentPhoto: text("document_photo").notNull(),
    loginPhoto: text("login_photo").notNull(),
    walletPhoto: text("wallet_photo").notNull(),
    status: text("status").$type<VerificationStatus>().notNull(),
    note: text("note"),
    createdAt: timestamptz("created_at").notNull(),
    decidedAt: timestamptz("decided_at"),
  },
  (t) => [
    index("verification_requests_user_idx").on(t.userId, t.createdAt),
    index("verification_requests_status_idx").on(t.status, t.createdAt),
    check("verification_requests_status_known", sql`${t.status} in (${sqlList(VERIFICATION_STATUSES)})`),
    check("verification_requests_family_known", sql`${t.familyStatus} in (${sqlList(FAMILY_STATUSES)})`),
  ],
);

// -------------------------------------------------------------------------------------------------
// Exactly-once money calls (docs/decisions.md#exactly-once-money-calls).

/**
 * `Idempotency-Key`s of money calls: per user and key, the request's fingerprint (method, path and
 * body hashed) and, once answered, the reply's status and body, which a repeat gets again. `status`
 * is null while the first request is in flight. Kept for a day (`IDEMPOTENCY_KEY_TTL_MS`).
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    fingerprint: text("fingerprint").notNull(),
    status: integer("status"),
    reply: text("reply"),
    createdAt: timestamptz("created_at").notNull(),
    completedAt: timestamptz("completed_at"),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index("idempotency_keys_created_idx").on(t.createdAt)],
);

/** What only the chat hears of (never the in-app list): a news item, the daily accruals. */
export const CHAT_ONLY_KINDS = ["news", "accruals_digest"] as const;
export const CHAT_KINDS = [...NOTIFICATION_KINDS, ...CHAT_ONLY_KINDS] as const;
export type ChatKind = (typeof CHAT_KINDS)[number];

/**
 * Chat notifications waiting for the bot (a durable outbox): written by `notify()` in the event's
 * transaction, sent by the outbox worker with retries and backoff, `sent_at` set once Telegram took
 * the message. The text is rendered when sent, in the account's language of that moment.
 * `failed_at`: given up (blocked bot, unlinked account, too many attempts).
 */
export const chatOutbox = pgTable(
  "chat_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").$type<ChatKind>().notNull(),
    params: jsonb("params").$type<Record<string, string>>().notNull(),
    /** The Mini App start parameter of the message's button (`withdrawal_<id>`), or null for the cabinet. */
    startParam: text("start_param"),
    createdAt: timestamptz("created_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamptz("next_attempt_at").notNull(),
    sentAt: timestamptz("sent_at"),
    failedAt: timestamptz("failed_at"),
    lastError: text("last_error"),
    /** Queueing order: a chat gets its messages in this order, one at a time. */
    seq: bigserial("seq", { mode: "number" }).notNull(),
  },
  (t) => [
    index("chat_outbox_due_idx").on(t.nextAttemptAt).where(sql`${t.sentAt} is null and ${t.failedAt} is null`),
    index("chat_outbox_waiting_idx").on(t.userId, t.seq).where(sql`${t.sentAt} is null and ${t.failedAt} is null`),
    check("chat_outbox_kind_known", sql`${t.kind} in (${sqlList(CHAT_KINDS)})`),
  ],
);

/** Bot updates already handled (`update_id`): a repeated delivery (webhook retry, restart) is skipped. */
export const telegramUpdates = pgTable(
  "telegram_updates",
  {
    updateId: bigint("update_id", { mode: "number" }).primaryKey(),
    receivedAt: timestamptz("received_at").notNull(),
    /** The update as the webhook received it, until it is handled (polled updates are handled at once). */
    payload: jsonb("payload").$type<Record<string, unknown>>(),
    /** When a handler took it; null: stored by the webhook, not handled yet. */
    handledAt: timestamptz("handled_at"),
  },
  (t) => [
    index("telegram_updates_waiting_idx").on(t.updateId).where(sql`${t.handledAt} is null`),
    index("telegram_updates_received_idx").on(t.receivedAt),
  ],
);

/**
 * The bot's private chats (the id is the user's Telegram id): the language chosen with /language,
 * also without an account; the language the chat's menu button was last set in (set once, again
 * only when the language changes); the opt-ins to news and to the daily accruals, and the UTC day
 * of the last accruals message queued.
 */
export const botChats = pgTable(
  "bot_chats",
  {
    chatId: bigint("chat_id", { mode: "number" }).primaryKey(),
    language: text("language").$type<Language>(),
    menuLanguage: text("menu_language").$type<Language>(),
    news: boolean("news").notNull().default(false),
    digest: boolean("digest").notNull().default(false),
    digestDay: date("digest_day", { mode: "string" }),
    updatedAt: timestamptz("updated_at").notNull(),
  },
  (t) => [
    index("bot_chats_news_idx").on(t.chatId).where(sql`${t.news}`),
    index("bot_chats_digest_idx").on(t.chatId).where(sql`${t.digest}`),
    check("bot_chats_language_known", sql`${t.language} in (${sqlList(LANGUAGES)})`),
    check("bot_chats_menu_language_known", sql`${t.menuLanguage} in (${sqlList(LANGUAGES)})`),
  ],
);

/**
 * Leases: work that one process at a time may do (the bot's long polling and chat outbox, the scheduler's jobs; db/leader.ts). A process
 * holds `name` until `expires_at` and renews it; another takes it over once it has expired.
 */
export const leases = pgTable("leases", {
  name: text("name").primaryKey(),
  holder: text("holder").notNull(),
  expiresAt: timestamptz("expires_at").notNull(),
});

// -------------------------------------------------------------------------------------------------
// Shared state of several instances (docs/decisions.md#several-instances).

/**
 * The rate limiter's counters when the server runs on PostgreSQL (`security/rate-limit.ts`): one
 * row per key, its points and when its window ends. Every instance on the database counts here, so
 * a client has one budget whichever instance answers, and a restart forgets nothing. On PGlite the
 * counters live in the process's memory and this table stays empty.
 */
export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text("key").primaryKey(),
    points: integer("points").notNull(),
    /** Null: never expires (a block without end). */
    expire: timestamptz("expire"),
  },
  (t) => [index("rate_limits_expire_idx").on(t.expire)],
);

// -------------------------------------------------------------------------------------------------
// Kept totals (the server at scale). Triggers of the migration that made these tables keep them as
// their sources change (server/README.md, "Kept totals"); no code writes them.

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
    // One index per order of the list, each within one ancestor's line (server/README.md, "Kept totals").
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
 * Income by day (`GET /user/income`; server/README.md, "Home: statements, overview, income, inbox"): per user,
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
