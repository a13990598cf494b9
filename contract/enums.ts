/** Enumerations shared by the app and the server (docs/decisions.md#d7-names-shown). */
import { z } from "zod";

export const LANGUAGES = ["en", "ru", "de", "kk"] as const;
export const Language = z.enum(LANGUAGES);
export type Language = z.infer<typeof Language>;
/** Russian is the fallback language (docs/cabinet-rules.md#limits). */
export const FALLBACK_LANGUAGE: Language = "ru";

/**
 * Currencies the cabinet keeps balances in. `scale` is how many decimals are kept (and stored),
 * `display` how many the interface shows (docs/decisions.md#d3-money).
 */
export const CURRENCIES = {
  USDT: { scale: 6, display: 2 },
  BTC: { scale: 8, display: 8 },
  ETH: { scale: 8, display: 6 },
  TON: { scale: 9, display: 4 },
} as const;
export const CURRENCY_CODES = Object.keys(CURRENCIES) as (keyof typeof CURRENCIES)[];
export const Currency = z.enum(["USDT", "BTC", "ETH", "TON"]);
export type Currency = z.infer<typeof Currency>;
/** The default currency (docs/cabinet-rules.md#limits). */
export const DEFAULT_CURRENCY: Currency = "USDT";

export const BALANCE_TYPES = ["balance"] as const;
export const BalanceType = z.enum(BALANCE_TYPES);
export const DEFAULT_BALANCE_TYPE = "balance";

/** The cabinet's operation types (docs/cabinet-rules.md#entities); the ledger has more kinds (below). */
export const OPERATION_TYPES = ["accrual", "referral", "matching", "bonus", "plan"] as const;
export const OperationType = z.enum(OPERATION_TYPES);
export type OperationType = z.infer<typeof OperationType>;

/**
 * Every kind of ledger entry (an operation changes one balance): the cabinet's five plus the kinds the
 * money rules need. `plan` debits a deposit's principal, `deposit_return` gives it back (at the end
 * of the plan or on early close), `accrual` pays the held daily income, `refill` credits a confirmed
 * refill, `exchange` is either side of a currency exchange; `withdrawal` and `subscription` belong
 * to later slices.
 */
export const LEDGER_OPERATION_TYPES = [
  ...OPERATION_TYPES,
  "refill",
  "exchange",
  "deposit_return",
  "withdrawal",
  "subscription",
] as const;
export const LedgerOperationType = z.enum(LEDGER_OPERATION_TYPES);
export type LedgerOperationType = z.infer<typeof LedgerOperationType>;
/** Income kinds: what `GET /user/statistics` counts as earned. */
export const EARNING_OPERATION_TYPES = ["accrual", "referral", "matching", "bonus"] as const;

/** A deposit runs (`active`), ran its full term and paid out (`completed`), or was closed early (`closed`). */
export const DEPOSIT_STATUSES = ["active", "completed", "closed"] as const;
export const DepositStatus = z.enum(DEPOSIT_STATUSES);
export type DepositStatus = z.infer<typeof DepositStatus>;

/** Risk level of a crypto case (a curated bundle of plans). */
export const RISK_LEVELS = ["low", "medium", "high"] as const;
export const RiskLevel = z.enum(RISK_LEVELS);
export type RiskLevel = z.infer<typeof RiskLevel>;

export const REFILL_STATUSES = ["waiting", "replenished", "rejected"] as const;
export const RefillStatus = z.enum(REFILL_STATUSES);
export type RefillStatus = z.infer<typeof RefillStatus>;

export const WITHDRAWAL_STATUSES = ["pending", "success", "rejected", "on_inspection", "error"] as const;
export const WithdrawalStatus = z.enum(WITHDRAWAL_STATUSES);
export type WithdrawalStatus = z.infer<typeof WithdrawalStatus>;

export const VERIFICATION_STATUSES = ["in_process", "success", "denied"] as const;
export const VerificationStatus = z.enum(VERIFICATION_STATUSES);
export type VerificationStatus = z.infer<typeof VerificationStatus>;

/** How verification codes reach the user (Settings → security). */
export const CODE_CHANNELS = ["telegram", "email", "sms"] as const;
export const CodeChannel = z.enum(CODE_CHANNELS);
export type CodeChannel = z.infer<typeof CodeChannel>;
