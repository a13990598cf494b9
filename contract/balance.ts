/**
 * Balances, statistics, the exchange and the operations list (user calls; docs/decisions.md#d3-money).
 * Every amount is a decimal string.
 */
import * as z from "zod/mini";
import { deferred } from "./deferred";
import { BalanceType, Currency, DEFAULT_BALANCE_TYPE, LedgerOperationType } from "./enums";
import { AMOUNT_MAX_DECIMALS, DECIMAL_PATTERN, Decimal, NonNegativeDecimal } from "./money";
import { DateFilter, PageQuery, pageOf } from "./paging";
import { text } from "./validation";

/**
 * Money entered by the user. Reports `amountNegative` below zero; a value beyond 20 integer digits is
 * `amountAboveMaximum`; more than AMOUNT_MAX_DECIMALS decimals is `tooManyDecimals`, refused rather than cut
 * (the app refuses more than the currency keeps before it sends).
 */
export const AmountInput = deferred(() =>
  z.string({ error: "required" }).check(
    z.trim(),
    z.minLength(1, { error: "required" }),
    z.regex(DECIMAL_PATTERN, { error: "required" }),
    z.refine((v) => !v.startsWith("-") || /^-0(\.0+)?$/.test(v), { error: "amountNegative" }),
    z.refine((v) => /^-?\d{1,20}(\.\d+)?$/.test(v), { error: "amountAboveMaximum" }),
    z.refine((v) => (v.split(".")[1]?.length ?? 0) <= AMOUNT_MAX_DECIMALS, { error: "tooManyDecimals" }),
  ),
);

/** One amount per currency the cabinet keeps. */
export const CurrencyAmounts = deferred(() => z.object({ USDT: Decimal, BTC: Decimal, ETH: Decimal, TON: Decimal }));
export type CurrencyAmounts = z.infer<typeof CurrencyAmounts>;

/** `GET /user/balance?type=balance` */
export const BalanceQuery = deferred(() => z.object({ type: z._default(BalanceType, DEFAULT_BALANCE_TYPE) }));
export type BalanceQuery = z.infer<typeof BalanceQuery>;

export const BalanceReply = deferred(() =>
  z.object({
    type: BalanceType,
    /** The currency the cabinet shows first (chosen with `POST /user/balance`; USDT by default). */
    currentCurrency: Currency,
    /** Every currency, "0" when the user never held it. */
    currencies: CurrencyAmounts,
  }),
);
export type BalanceReply = z.infer<typeof BalanceReply>;

/** `POST /user/balance`: choose the current currency. */
export const SetCurrentCurrencyBody = deferred(() => z.object({ currency: Currency }));
export type SetCurrentCurrencyBody = z.infer<typeof SetCurrentCurrencyBody>;

/** `GET /user/statistics`: the cabinet's balances bar. */
export const StatisticsReply = deferred(() =>
  z.object({
    currentCurrency: Currency,
    /** Income paid to the balance (accrual + referral + matching + bonus operations), per currency. */
    earned: CurrencyAmounts,
    /** Users the caller invited directly (the first line). */
    referrals: z.int().check(z.nonnegative()),
    activeDeposits: z.int().check(z.nonnegative()),
    /** Principal of the active deposits, per currency. */
    amountOnDeposit: CurrencyAmounts,
    /** Whether the caller ever opened a deposit (active, completed or closed): the cabinet's first steps end for good. */
    everDeposited: z.boolean(),
  }),
);
export type StatisticsReply = z.infer<typeof StatisticsReply>;

/** `GET /user/exchange-rate` (the `exchangeRates` setting). */
export const ExchangeRateReply = deferred(() =>
  z.object({
    /** What the rates are priced in. */
    base: z.literal("USD"),
    /** USD price of one coin. */
    rates: z.object({ USDT: Decimal, BTC: Decimal, ETH: Decimal, TON: Decimal }),
    /** Percent of the converted value kept as the fee. */
    feePercent: NonNegativeDecimal,
  }),
);
export type ExchangeRateReply = z.infer<typeof ExchangeRateReply>;

/** `POST /user/exchange`: `amount` of `from` becomes `to` (contract/exchange-math.ts). */
export const ExchangeBody = deferred(() =>
  z
    .object({ from: Currency, to: Currency, amount: AmountInput })
    .check(z.refine((b) => b.from !== b.to, { path: ["to"], error: "required" })),
);
export type ExchangeBody = z.infer<typeof ExchangeBody>;

export const ExchangeReply = deferred(() =>
  z.object({
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
  }),
);
export type ExchangeReply = z.infer<typeof ExchangeReply>;

/** What an operation is about, when it is about something. */
export const OperationDetails = deferred(() =>
  z.object({
    depositId: z.optional(z.string()),
    refillId: z.optional(z.string()),
    planId: z.optional(z.string()),
    caseId: z.optional(z.string()),
    /** Accrual payout: the days of the plan it pays. */
    days: z.optional(z.int()),
    /** Early close: the held accruals given up. */
    forfeited: z.optional(NonNegativeDecimal),
    /** Auto-investment: the deposit the payout went into. */
    reinvestedInto: z.optional(z.string()),
    /** Withdrawal and its return: the application and its payment system. */
    withdrawalId: z.optional(z.string()),
    paymentSystemId: z.optional(z.string()),
    /**
     * Added: a withdrawal's return, why the money came back (the operator rejected it, it failed, the investor
     * cancelled it, its code expired unused).
     */
    withdrawalOutcome: z.optional(z.enum(["rejected", "error", "cancelled", "expired"])),
    /** Exchange: the other side. */
    exchange: z.optional(
      z.object({ from: Currency, to: Currency, debited: NonNegativeDecimal, received: NonNegativeDecimal }),
    ),
  }),
);
export type OperationDetails = z.infer<typeof OperationDetails>;

/** One ledger entry: a signed change of one balance. */
export const Operation = deferred(() =>
  z.object({
    id: z.string(),
    type: LedgerOperationType,
    currency: Currency,
    /** Signed: credits are positive, debits negative. */
    amount: Decimal,
    /** ISO 8601. */
    createdAt: z.string(),
    details: z.optional(OperationDetails),
  }),
);
export type Operation = z.infer<typeof Operation>;

/**
 * `GET /user/operations/`: newest first. `from`/`to` are inclusive; a date without a time covers
 * the whole day (UTC).
 */
export const OperationsQuery = deferred(() =>
  z.extend(PageQuery, {
    currency: z.optional(Currency),
    type: z.optional(LedgerOperationType),
    from: z.optional(DateFilter),
    to: z.optional(DateFilter),
    /**
     * The previous page's `next`: the page starts after that operation (keyset paging, as fast deep
     * in a long ledger as on page 1). `page` then only numbers the page.
     */
    after: z.optional(z.string().check(z.regex(/^\d{1,20}\.\d{1,20}$/))),
  }),
);
export type OperationsQuery = z.infer<typeof OperationsQuery>;

export const OperationsReply = deferred(() =>
  z.extend(pageOf(Operation), {
    /** Pass as `after` for the page that follows; null on the last page. */
    next: z.optional(z.nullable(z.string())),
  }),
);
export type OperationsReply = z.infer<typeof OperationsReply>;

/** `GET /user/case-operations`: operations of deposits opened through a crypto case. */
export const CaseOperationsQuery = deferred(() =>
  z.extend(PageQuery, {
    caseId: z.optional(text().check(z.maxLength(64))),
    currency: z.optional(Currency),
  }),
);
export type CaseOperationsQuery = z.infer<typeof CaseOperationsQuery>;
