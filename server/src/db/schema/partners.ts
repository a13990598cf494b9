/** Partners and withdrawals: referral earnings and turnover, bonuses, wallets, withdrawals. */
import { WITHDRAWAL_ROW_STATUSES, type WithdrawalRowStatus } from "@contract/operator";
import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { paymentSystems } from "./catalog";
import { amount, sqlList, timestamptz } from "./columns";
import { deposits, operations } from "./money";

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
