/**
 * The whole picture and the income chart (`GET /user/overview`, `GET /user/income`; contract/home.ts).
 *
 * Values in USDT use the operator's exchange rates (the `exchangeRates` setting: the USD price of each coin),
 * amount × rate(currency) ÷ rate(USDT), without the exchange fee (it is a valuation, not an exchange),
 * rounded half-up to USDT's 6 decimals. The chart reads the kept daily sums of `income_days` (migration
 * 0015_home: kept by triggers on accruals, operations and deposits), one primary-key range per call, so it
 * costs the same for an investor with 150,000 operations as for a new one.
 */
import {
  addAmounts,
  CURRENCY_CODES,
  type Currency,
  type CurrencyAmounts,
  currencyScale,
  DAY_MS,
  type ExchangeRateReply,
  HOME_CURRENCY,
  type IncomePeriod,
  type IncomeReply,
  type MoneySource,
  money,
  type OverviewReply,
  toDecimalString,
} from "@contract";
import Big from "big.js";
import { and, asc, eq, gte, sql } from "drizzle-orm";
import type { Clock } from "../clock";
import type { Database } from "../db/client";
import { deposits, incomeDays } from "../db/schema";
import { normalizeDecimal } from "../decimal";
import { getBalance } from "./balance";
import { getExchangeRates } from "./exchange";
import { zeroAmounts } from "./ledger";

type Rates = ExchangeRateReply["rates"];

/** The exact value of `amount` of `currency` in `into` (USDT unless said; not yet rounded). */
function usdtValue(amount: MoneySource, currency: Currency, rates: Rates, into: Currency = HOME_CURRENCY): Big {
  return currency === into ? money(amount) : money(amount).times(rates[currency]).div(rates[into]);
}

/** Rounded half-up to `currency`'s decimals (its `scale`: USDT 6), as a decimal string. */
const rounded = (value: Big, currency: Currency) =>
  toDecimalString(value.round(currencyScale(currency), Big.roundHalfUp));
const usdt = (value: Big) => rounded(value, HOME_CURRENCY);

/** Principal of the caller's active deposits, per currency. */
async function onDeposit(db: Database, userId: string): Promise<CurrencyAmounts> {
  const rows = await db
    .select({ currency: deposits.currency, total: sql<string>`sum(${deposits.amount})::text` })
    .from(deposits)
    .where(and(eq(deposits.userId, userId), eq(deposits.status, "active")))
    .groupBy(deposits.currency);
  const result = zeroAmounts();
  for (const row of rows) result[row.currency as Currency] = normalizeDecimal(row.total);
  return result;
}

/**
 * `GET /user/overview`: balance and deposits per currency, and the totals in USDT and in the current currency
 * (the balance's `currentCurrency`).
 */
export async function getOverview(db: Database, userId: string): Promise<OverviewReply> {
  const [{ rates }, { currencies: balance, currentCurrency }, held] = await Promise.all([
    getExchangeRates(db),
    getBalance(db, userId),
    onDeposit(db, userId),
  ]);
  const into = currentCurrency;
  const value = (amount: MoneySource, currency: Currency) => usdtValue(amount, currency, rates, into);
  const currentLines = Object.fromEntries(
    CURRENCY_CODES.map((c) => [c, rounded(value(addAmounts(balance[c], held[c]), c), into)]),
  ) as Record<Currency, string>;
  const lines = CURRENCY_CODES.map((currency) => {
    const totalUsdt = usdt(usdtValue(addAmounts(balance[currency], held[currency]), currency, rates));
    return { currency, balance: balance[currency], onDeposit: held[currency], totalUsdt };
  });
  return {
    currency: HOME_CURRENCY,
    totalUsdt: addAmounts(...lines.map((l) => l.totalUsdt)),
    balanceUsdt: usdt(CURRENCY_CODES.reduce((sum, c) => sum.plus(usdtValue(balance[c], c, rates)), money(0))),
    onDepositUsdt: usdt(CURRENCY_CODES.reduce((sum, c) => sum.plus(usdtValue(held[c], c, rates)), money(0))),
    lines,
    current: {
      currency: into,
      total: addAmounts(...CURRENCY_CODES.map((c) => currentLines[c])),
      balance: rounded(
        CURRENCY_CODES.reduce((sum, c) => sum.plus(value(balance[c], c)), money(0)),
        into,
      ),
      onDeposit: rounded(
        CURRENCY_CODES.reduce((sum, c) => sum.plus(value(held[c], c)), money(0)),
        into,
      ),
      lines: currentLines,
    },
    rates,
  };
}

/** `YYYY-MM-DD` of a UTC day. */
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const PERIOD_DAYS: Record<Exclude<IncomePeriod, "all">, number> = { "7d": 7, "30d": 30 };

/** `GET /user/income`: the period's days, oldest first, in USDT; exact totals per currency. */
export async function getIncome(
  db: Database,
  clock: Clock,
  userId: string,
  period: IncomePeriod,
): Promise<IncomeReply> {
  const todayMs = Date.parse(`${dayOf(clock.now().getTime())}T00:00:00.000Z`);
  const firstMs = period === "all" ? null : todayMs - (PERIOD_DAYS[period] - 1) * DAY_MS;
  const [{ rates }, rows] = await Promise.all([
    getExchangeRates(db),
    db
      .select({
        day: sql<string>`${incomeDays.day}::text`,
        currency: incomeDays.currency,
        accruals: incomeDays.accruals,
        bonuses: incomeDays.bonuses,
      })
      .from(incomeDays)
      .where(and(eq(incomeDays.userId, userId), firstMs === null ? undefined : gte(incomeDays.day, dayOf(firstMs))))
      .orderBy(asc(incomeDays.day)),
  ]);
  const byDay = new Map<string, { accruals: Big; bonuses: Big }>();
  const byCurrency = Object.fromEntries(
    CURRENCY_CODES.map((c) => [c, { accruals: money(0), bonuses: money(0) }]),
  ) as Record<Currency, { accruals: Big; bonuses: Big }>;
  for (const row of rows) {
    // A day after today cannot hold income yet; a clock moved back would show it, so it is left out.
    if (Date.parse(`${row.day}T00:00:00.000Z`) > todayMs) continue;
    const currency = row.currency as Currency;
    const day = byDay.get(row.day) ?? { accruals: money(0), bonuses: money(0) };
    day.accruals = day.accruals.plus(usdtValue(row.accruals, currency, rates));
    day.bonuses = day.bonuses.plus(usdtValue(row.bonuses, currency, rates));
    byDay.set(row.day, day);
    byCurrency[currency].accruals = byCurrency[currency].accruals.plus(row.accruals);
    byCurrency[currency].bonuses = byCurrency[currency].bonuses.plus(row.bonuses);
  }
  const startMs = firstMs ?? (rows[0] ? Date.parse(`${rows[0].day}T00:00:00.000Z`) : null);
  const days: IncomeReply["days"] = [];
  if (startMs !== null) {
    for (let ms = startMs; ms <= todayMs; ms += DAY_MS) {
      const day = dayOf(ms);
      const sums = byDay.get(day);
      days.push({ day, accruals: sums ? usdt(sums.accruals) : "0", bonuses: sums ? usdt(sums.bonuses) : "0" });
    }
  }
  return {
    period,
    currency: HOME_CURRENCY,
    days,
    total: {
      accruals: addAmounts("0", ...days.map((d) => d.accruals)),
      bonuses: addAmounts("0", ...days.map((d) => d.bonuses)),
    },
    byCurrency: Object.fromEntries(
      CURRENCY_CODES.map((c) => [
        c,
        { accruals: toDecimalString(byCurrency[c].accruals), bonuses: toDecimalString(byCurrency[c].bonuses) },
      ]),
    ) as IncomeReply["byCurrency"],
  };
}
