/**
 * Enumerations shared by the app and the server (docs/decisions.md#d7-names-shown): their values and their
 * schemas. Code that only shows or counts the values (money formatting, the balance card) imports them from here
 * too: the schemas are deferred (`deferred` is marked free of side effects), so a bundle that uses no schema keeps
 * none of zod.
 */
import * as z from "zod/mini";
// With its extension: the build's config loads this module itself (build/launch-preload.ts).
import { deferred } from "./deferred.ts";

export const LANGUAGES = ["en", "ru", "de", "kk"] as const;
export type Language = (typeof LANGUAGES)[number];
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
export type Currency = keyof typeof CURRENCIES;
export const CURRENCY_CODES = Object.keys(CURRENCIES) as Currency[];
/** The default currency (docs/cabinet-rules.md#limits). */
export const DEFAULT_CURRENCY: Currency = "USDT";

export const BALANCE_TYPES = ["balance"] as const;
export const DEFAULT_BALANCE_TYPE = "balance";

/** The cabinet's operation types (docs/cabinet-rules.md#entities); the ledger has more kinds (below). */
export const OPERATION_TYPES = ["accrual", "referral", "matching", "bonus", "plan"] as const;

/**
 * Every kind of ledger entry (an operation changes one balance): the cabinet's five plus the kinds the
 * money rules need. `plan` debits a deposit's principal, `deposit_return` gives it back (at the end
 * of the plan or on early close), `accrual` pays the held daily income, `refill` credits a confirmed
 * refill, `exchange` is either side of a currency exchange, `withdrawal` reserves an application's
 * amount and `withdrawal_return` gives it back (the application cancelled, rejected or failed),
 * `subscription` pays a subscription.
 */
export const LEDGER_OPERATION_TYPES = [
  ...OPERATION_TYPES,
  "refill",
  "exchange",
  "deposit_return",
  "withdrawal",
  "withdrawal_return",
  "subscription",
] as const;
/** Income kinds: what `GET /user/statistics` counts as earned. */
export const EARNING_OPERATION_TYPES = ["accrual", "referral", "matching", "bonus"] as const;

/** A deposit runs (`active`), ran its full term and paid out (`completed`), or was closed early (`closed`). */
export const DEPOSIT_STATUSES = ["active", "completed", "closed"] as const;

/** Risk level of a crypto case (a curated bundle of plans). */
export const RISK_LEVELS = ["low", "medium", "high"] as const;

export const REFILL_STATUSES = ["waiting", "replenished", "rejected"] as const;

export const WITHDRAWAL_STATUSES = ["pending", "success", "rejected", "on_inspection", "error"] as const;

export const VERIFICATION_STATUSES = ["in_process", "success", "denied"] as const;

/** How verification codes reach the user (Settings → security). */
export const CODE_CHANNELS = ["telegram", "email", "sms"] as const;

export const Language = deferred(() => z.enum(LANGUAGES));

export const Currency = deferred(() => z.enum(CURRENCY_CODES));

export const BalanceType = deferred(() => z.enum(BALANCE_TYPES));

export const OperationType = deferred(() => z.enum(OPERATION_TYPES));
export type OperationType = z.infer<typeof OperationType>;

export const LedgerOperationType = deferred(() => z.enum(LEDGER_OPERATION_TYPES));
export type LedgerOperationType = z.infer<typeof LedgerOperationType>;

export const DepositStatus = deferred(() => z.enum(DEPOSIT_STATUSES));
export type DepositStatus = z.infer<typeof DepositStatus>;

export const RiskLevel = deferred(() => z.enum(RISK_LEVELS));
export type RiskLevel = z.infer<typeof RiskLevel>;

export const RefillStatus = deferred(() => z.enum(REFILL_STATUSES));
export type RefillStatus = z.infer<typeof RefillStatus>;

export const WithdrawalStatus = deferred(() => z.enum(WITHDRAWAL_STATUSES));
export type WithdrawalStatus = z.infer<typeof WithdrawalStatus>;

export const VerificationStatus = deferred(() => z.enum(VERIFICATION_STATUSES));
export type VerificationStatus = z.infer<typeof VerificationStatus>;

export const CodeChannel = deferred(() => z.enum(CODE_CHANNELS));
export type CodeChannel = z.infer<typeof CodeChannel>;
