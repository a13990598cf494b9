/** Enumerations shared by the app and the server (decision D7). */
import { z } from "zod";

export const LANGUAGES = ["en", "ru", "de", "kk"] as const;
export const Language = z.enum(LANGUAGES);
export type Language = z.infer<typeof Language>;
/** Spec §9: Russian is the fallback language. */
export const FALLBACK_LANGUAGE: Language = "ru";

/**
 * Currencies the cabinet keeps balances in. `scale` is how many decimals are kept (and stored),
 * `display` how many the interface shows (decision D3).
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
/** Spec §9: the default currency. */
export const DEFAULT_CURRENCY: Currency = "USDT";

export const BALANCE_TYPES = ["balance"] as const;
export const BalanceType = z.enum(BALANCE_TYPES);
export const DEFAULT_BALANCE_TYPE = "balance";

/** Spec §3 operation types; later slices may add ledger kinds (refill, withdrawal, exchange). */
export const OPERATION_TYPES = ["accrual", "referral", "matching", "bonus", "plan"] as const;
export const OperationType = z.enum(OPERATION_TYPES);
export type OperationType = z.infer<typeof OperationType>;

export const REFILL_STATUSES = ["waiting", "replenished", "rejected"] as const;
export const RefillStatus = z.enum(REFILL_STATUSES);
export type RefillStatus = z.infer<typeof RefillStatus>;

export const WITHDRAWAL_STATUSES = ["pending", "success", "rejected", "on_inspection", "error"] as const;
export const WithdrawalStatus = z.enum(WITHDRAWAL_STATUSES);
export type WithdrawalStatus = z.infer<typeof WithdrawalStatus>;

export const VERIFICATION_STATUSES = ["in_process", "success", "denied"] as const;
export const VerificationStatus = z.enum(VERIFICATION_STATUSES);
export type VerificationStatus = z.infer<typeof VerificationStatus>;

/** How verification codes reach the user (spec §2 Settings → security). */
export const CODE_CHANNELS = ["telegram", "email", "sms"] as const;
export const CodeChannel = z.enum(CODE_CHANNELS);
export type CodeChannel = z.infer<typeof CodeChannel>;
