/**
 * Enumerations shared by the app and the server (docs/decisions.md#d7-names-shown): their values (in
 * `enum-values.ts`, without zod) and their schemas.
 */
import { z } from "zod/mini";
import {
  BALANCE_TYPES,
  CODE_CHANNELS,
  CURRENCY_CODES,
  DEPOSIT_STATUSES,
  LANGUAGES,
  LEDGER_OPERATION_TYPES,
  OPERATION_TYPES,
  REFILL_STATUSES,
  RISK_LEVELS,
  VERIFICATION_STATUSES,
  WITHDRAWAL_STATUSES,
} from "./enum-values";

export * from "./enum-values";

export const Language = z.enum(LANGUAGES);
// The schemas' types, named here too: `export *` does not carry a type that shares its name with a value of this file.
export type Language = z.infer<typeof Language>;

export const Currency = z.enum(CURRENCY_CODES);
export type Currency = z.infer<typeof Currency>;

export const BalanceType = z.enum(BALANCE_TYPES);

export const OperationType = z.enum(OPERATION_TYPES);
export type OperationType = z.infer<typeof OperationType>;

export const LedgerOperationType = z.enum(LEDGER_OPERATION_TYPES);
export type LedgerOperationType = z.infer<typeof LedgerOperationType>;

export const DepositStatus = z.enum(DEPOSIT_STATUSES);
export type DepositStatus = z.infer<typeof DepositStatus>;

export const RiskLevel = z.enum(RISK_LEVELS);
export type RiskLevel = z.infer<typeof RiskLevel>;

export const RefillStatus = z.enum(REFILL_STATUSES);
export type RefillStatus = z.infer<typeof RefillStatus>;

export const WithdrawalStatus = z.enum(WITHDRAWAL_STATUSES);
export type WithdrawalStatus = z.infer<typeof WithdrawalStatus>;

export const VerificationStatus = z.enum(VERIFICATION_STATUSES);
export type VerificationStatus = z.infer<typeof VerificationStatus>;

export const CodeChannel = z.enum(CODE_CHANNELS);
export type CodeChannel = z.infer<typeof CodeChannel>;
