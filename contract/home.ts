/**
 * The investor's home (docs/api-home.md, "Home: statements, overview, income, inbox"): the statement of a
 * period as CSV, the whole picture in USDT, the income by day for the chart, and the block explorer link of a
 * transaction. Every amount is a decimal string.
 */
import * as z from "zod/mini";
import { deferred } from "./deferred";
import { Currency } from "./enums";
import { EXPLORER_TX_PLACEHOLDER } from "./explorer";
import { Decimal, NonNegativeDecimal } from "./money";

/** Each currency's amount (its own decimal string). */
const PerCurrency = deferred(() =>
  z.object({
    USDT: NonNegativeDecimal,
    BTC: NonNegativeDecimal,
    ETH: NonNegativeDecimal,
    TON: NonNegativeDecimal,
  }),
);

/** The longest period a statement covers, in days (both ends counted). */
export const STATEMENT_MAX_DAYS = 366;

/**
 * `GET /user/operations/statement?from=2026-01-01&to=2026-12-31[&currency=USDT]`: the caller's operations of
 * the days `from` … `to` (UTC, both included, at most STATEMENT_MAX_DAYS), oldest first, as a CSV file.
 */
export const StatementQuery = deferred(() =>
  z.object({ from: z.iso.date(), to: z.iso.date(), currency: z.optional(Currency) }).check(
    z.refine((q) => q.from <= q.to, { path: ["to"], error: "periodOrder" }),
    z.refine((q) => Date.parse(q.to) - Date.parse(q.from) < STATEMENT_MAX_DAYS * 86_400_000, {
      path: ["to"],
      error: "periodTooLong",
    }),
  ),
);
export type StatementQuery = z.infer<typeof StatementQuery>;

/** The statement's columns, in order (the file's header row). */
export const STATEMENT_COLUMNS = [
  "date",
  "operation_id",
  "type",
  "description",
  "currency",
  "amount",
  "deposit_id",
  "refill_id",
  "withdrawal_id",
  "tx_hash",
] as const;

/** The reply is a `text/csv; charset=utf-8` attachment, not JSON. */
export const StatementReply = deferred(() => z.string());

/** How long a statement link opens the file, in seconds. */
export const STATEMENT_LINK_SECONDS = 300;

/**
 * `POST /user/operations/statement/link` (the StatementQuery as its body): a link that opens the same file
 * without the session header for STATEMENT_LINK_SECONDS, for a download the app cannot send headers with
 * (Telegram's `downloadFile`). `url` is relative to the API base.
 */
export const StatementLinkReply = deferred(() => z.object({ url: z.string(), expiresAt: z.string() }));
export type StatementLinkReply = z.infer<typeof StatementLinkReply>;

/** `GET /user/operations/statement/file?link=…`: the file of a statement link. */
export const StatementFileQuery = deferred(() =>
  z.object({ link: z.string().check(z.minLength(1), z.maxLength(600)) }),
);

/** The currency the whole picture and the income chart are told in. */
export const HOME_CURRENCY = "USDT" as const;

/** One currency's line of the whole picture. */
export const OverviewLine = deferred(() =>
  z.object({
    currency: Currency,
    /** On the balance, in the currency. */
    balance: NonNegativeDecimal,
    /** Principal of the active deposits, in the currency. */
    onDeposit: NonNegativeDecimal,
    /** balance + onDeposit in USDT at the operator's rates. */
    totalUsdt: NonNegativeDecimal,
  }),
);
export type OverviewLine = z.infer<typeof OverviewLine>;

/**
 * The whole picture told again in the investor's current currency (the balance's `currentCurrency`, set by
 * `POST /user/balance`), at the same rates: each value rounded half-up to that currency's `scale` decimals
 * (CURRENCIES), each line on its own; `total` is the sum of the lines, `balance` and `onDeposit` are rounded
 * once from their exact sums (as the USDT figures are).
 */
export const OverviewCurrent = deferred(() =>
  z.object({
    currency: Currency,
    /** Balance and deposits together. */
    total: NonNegativeDecimal,
    balance: NonNegativeDecimal,
    onDeposit: NonNegativeDecimal,
    /** Each currency's balance + onDeposit in the current currency. */
    lines: PerCurrency,
  }),
);
export type OverviewCurrent = z.infer<typeof OverviewCurrent>;

/**
 * `GET /user/overview`: everything the caller holds, told in USDT at the operator's exchange rates (USD price
 * of each coin ÷ USD price of USDT, no exchange fee), each currency's own line beneath, and the same in the
 * current currency (`current`). USDT values are rounded half-up to 6 decimals, each line on its own; the totals
 * are the sums of the lines.
 */
export const OverviewReply = deferred(() =>
  z.object({
    currency: z.literal(HOME_CURRENCY),
    /** Balance and deposits together. */
    totalUsdt: NonNegativeDecimal,
    balanceUsdt: NonNegativeDecimal,
    onDepositUsdt: NonNegativeDecimal,
    lines: z.array(OverviewLine),
    /** The same totals in the investor's current currency. */
    current: OverviewCurrent,
    /** The rates used: USD price of one coin (the `GET /user/exchange-rate` values). */
    rates: z.object({ USDT: Decimal, BTC: Decimal, ETH: Decimal, TON: Decimal }),
  }),
);
export type OverviewReply = z.infer<typeof OverviewReply>;

export const INCOME_PERIODS = ["7d", "30d", "all"] as const;
export const IncomePeriod = deferred(() => z.enum(INCOME_PERIODS));
export type IncomePeriod = z.infer<typeof IncomePeriod>;

/** `GET /user/income?period=7d|30d|all` (7d by default). */
export const IncomeQuery = deferred(() => z.object({ period: z._default(IncomePeriod, "7d") }));
export type IncomeQuery = z.infer<typeof IncomeQuery>;

export const IncomeDay = deferred(() =>
  z.object({
    /** The UTC day, `YYYY-MM-DD`. */
    day: z.iso.date(),
    /** Daily accruals of the deposits that fell due that day, in USDT. */
    accruals: NonNegativeDecimal,
    /** Partner income (referral, matching, turnover bonuses) paid that day, in USDT. */
    bonuses: NonNegativeDecimal,
  }),
);
export type IncomeDay = z.infer<typeof IncomeDay>;

export const IncomeTotals = deferred(() => z.object({ accruals: NonNegativeDecimal, bonuses: NonNegativeDecimal }));

/**
 * The income chart: one entry per UTC day, oldest first, every day of the period present (zeros included):
 * 7d and 30d end today; `all` runs from the first day with income (an empty list without any). Amounts are in
 * USDT at today's rates (rounded half-up to 6 decimals per day); `byCurrency` gives the period's exact totals
 * in each currency, for the chart's text alternative.
 */
export const IncomeReply = deferred(() =>
  z.object({
    period: IncomePeriod,
    currency: z.literal(HOME_CURRENCY),
    days: z.array(IncomeDay),
    total: IncomeTotals,
    byCurrency: z.object({ USDT: IncomeTotals, BTC: IncomeTotals, ETH: IncomeTotals, TON: IncomeTotals }),
  }),
);
export type IncomeReply = z.infer<typeof IncomeReply>;

/**
 * A block explorer's page of a transaction, as the operator sets it: an https URL with `{tx}` where the
 * hash goes (`https://tronscan.org/#/transaction/{tx}`).
 */
export const ExplorerTemplate = deferred(() =>
  z.string().check(
    z.maxLength(300),
    z.regex(/^https:\/\/[^\s"'<>]+$/, { message: "https URL" }),
    z.refine((v) => v.includes(EXPLORER_TX_PLACEHOLDER), { message: "{tx}" }),
  ),
);

export { EXPLORER_TX_PLACEHOLDER, explorerLink } from "./explorer";
