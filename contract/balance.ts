/**
 * Balances, statistics, the exchange and the operations list (user calls; docs/decisions.md#d3-money).
 * Every amount is a decimal string.
 */
import { z } from "zod";
import { BalanceType, Currency, DEFAULT_BALANCE_TYPE, LedgerOperationType } from "./enums";
import { AMOUNT_MAX_DECIMALS, DECIMAL_PATTERN, Decimal, NonNegativeDecimal } from "./money";
import { DateFilter, PageQuery, pageOf } from "./paging";
import { text } from "./validation";

/**
 * Money entered by the user. Reports `amountNegative` below zero; a value beyond 20 integer digits is
 * `amountAboveMaximum`; more than AMOUNT_MAX_DECIMALS decimals is `tooManyDecimals`, refused rather than cut
 * (the app refuses more than the currency keeps before it sends).
 */
export const AmountInput = z
  .string({ error: "required" })
  .trim()
  .min(1, { error: "required" })
  .regex(DECIMAL_PATTERN, { error: "required" })
  .refine((v) => !v.startsWith("-") || /^-0(\.0+)?$/.test(v), { error: "amountNegative" })
  .refine((v) => /^-?\d{1,20}(\.\d+)?$/.test(v), { error: "amountAboveMaximum" })
  .refine((v) => (v.split(".")[1]?.length ?? 0) <= AMOUNT_MAX_DECIMALS, { error: "tooManyDecimals" });

/** One amount per currency the cabinet keeps. */
export const CurrencyAmounts = z.object({ USDT: Decimal, BTC: Decimal, ETH: Decimal, TON: Decimal });
export type CurrencyAmounts = z.infer<typeof CurrencyAmounts>;

/** `GET /user/balance?type=balance` */
export const BalanceQuery = z.object({ type: BalanceType.default(DEFAULT_BALANCE_TYPE) });
export type BalanceQuery = z.infer<typeof BalanceQuery>;

export const BalanceReply = z.object({
  type: BalanceType,
  /** The currency the cabinet shows first (chosen with `POST /user/balance`; USDT by default). */
  currentCurrency: Currency,
  /** Every currency, "0" when the user never held it. */
  currencies: CurrencyAmounts,
});
export type BalanceReply = z.infer<typeof BalanceReply>;

/** `POST /user/balance`: choose the current currency. */
export const SetCurrentCurrencyBody = z.object({ currency: Currency });
export type SetCurrentCurrencyBody = z.infer<typeof SetCurrentCurrencyBody>;

/** `GET /user/statistics`: the cabinet's balances bar. */
export const StatisticsReply = z.object({
  currentCurrency: Currency,
  /** Income paid to the balance (accrual + referral + matching + bonus operations), per currency. */
  earned: CurrencyAmounts,
  /** Users the caller invited directly (the first line). */
  referrals: z.number().int().nonnegative(),
  activeDeposits: z.number().int().nonnegative(),
  /** Principal of the active deposits, per currency. */
  amountOnDeposit: CurrencyAmounts,
});
export type StatisticsReply = z.infer<typeof StatisticsReply>;

/** `GET /user/exchange-rate` (the `exchangeRates` setting). */
export const ExchangeRateReply = z.object({
  /** What the rates are priced in. */
  base: z.literal("USD"),
  /** USD price of one coin. */
  rates: z.object({ USDT: Decimal, BTC: Decimal, ETH: Decimal, TON: Decimal }),
  /** Percent of the converted value kept as the fee. */
  feePercent: NonNegativeDecimal,
});
export type ExchangeRateReply = z.infer<typeof ExchangeRateReply>;

/** `POST /user/exchange`: `amount` of `from` becomes `to` (contract/exchange-math.ts). */
export const ExchangeBody = z
  .object({ from: Currency, to: Currency, amount: AmountInput })
  .refine((b) => b.from !== b.to, { path: ["to"], error: "required" });
export type ExchangeBody = z.infer<typeof ExchangeBody>;

export const ExchangeReply = z.object({
  from: Currency,
  to: Currency,
  /** Taken from the `from` balance (the amount truncated to its scale). */
  debited: NonNegativeDecimal,
  /** Credited to the `to` balance. */
  received: NonNegativeDecimal,
  /** The rates and fee the exchange used. */
  rates: z.object({ from: Decimal, to: Decimal }),
  feePercent: NonNegativeDecimal,
  /** The balances after the exchange. */
  currencies: CurrencyAmounts,
});
export type ExchangeReply = z.infer<typeof ExchangeReply>;

/** What an operation is about, when it is about something. */
export const OperationDetails = z.object({
  depositId: z.string().optional(),
  refillId: z.string().optional(),
  planId: z.string().optional(),
  caseId: z.string().optional(),
  /** Accrual payout: the days of the plan it pays. */
  days: z.number().int().optional(),
  /** Early close: the held accruals given up. */
  forfeited: NonNegativeDecimal.optional(),
  /** Auto-investment: the deposit the payout went into. */
  reinvestedInto: z.string().optional(),
  /** Withdrawal and its return: the application and its payment system. */
  withdrawalId: z.string().optional(),
  paymentSystemId: z.string().optional(),
  /**
   * Added: a withdrawal's return, why the money came back (the operator rejected it, it failed, the investor
   * cancelled it, its code expired unused).
   */
  withdrawalOutcome: z.enum(["rejected", "error", "cancelled", "expired"]).optional(),
  /** Exchange: the other side. */
  exchange: z
    .object({ from: Currency, to: Currency, debited: NonNegativeDecimal, received: NonNegativeDecimal })
    .optional(),
});
export type OperationDetails = z.infer<typeof OperationDetails>;

/** One ledger entry: a signed change of one balance. */
export const Operation = z.object({
  id: z.string(),
  type: LedgerOperationType,
  currency: Currency,
  /** Signed: credits are positive, debits negative. */
  amount: Decimal,
  /** ISO 8601. */
  createdAt: z.string(),
  details: OperationDetails.optional(),
});
export type Operation = z.infer<typeof Operation>;

/**
 * `GET /user/operations/`: newest first. `from`/`to` are inclusive; a date without a time covers
 * the whole day (UTC).
 */
export const OperationsQuery = PageQuery.extend({
  currency: Currency.optional(),
  type: LedgerOperationType.optional(),
  from: DateFilter.optional(),
  to: DateFilter.optional(),
  /**
   * The previous page's `next`: the page starts after that operation (keyset paging, as fast deep
   * in a long ledger as on page 1). `page` then only numbers the page.
   */
  after: z
    .string()
    .regex(/^\d{1,20}\.\d{1,20}$/)
    .optional(),
});
export type OperationsQuery = z.infer<typeof OperationsQuery>;

export const OperationsReply = pageOf(Operation).extend({
  /** Pass as `after` for the page that follows; null on the last page. */
  next: z.string().nullable().optional(),
});
export type OperationsReply = z.infer<typeof OperationsReply>;

/** `GET /user/case-operations`: operations of deposits opened through a crypto case. */
export const CaseOperationsQuery = PageQuery.extend({
  caseId: text().max(64).optional(),
  currency: Currency.optional(),
});
export type CaseOperationsQuery = z.infer<typeof CaseOperationsQuery>;
