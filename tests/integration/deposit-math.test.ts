/**
 * The contract's money arithmetic (contract/money-math.ts, deposit-math.ts, exchange-math.ts): the
 * numbers the app previews and the server pays. Exact decimals, rounded down to the currency's
 * scale; checked on examples and, with fast-check, on random amounts.
 */
import {
  CURRENCIES,
  CURRENCY_CODES,
  type Currency,
  compareAmounts,
  DAY_MS,
  dailyIncome,
  daysDue,
  depositAmountIssue,
  depositCloseOutcome,
  depositEndsAt,
  depositTerms,
  exchangeAmountIssue,
  exchangeQuote,
  exchangeResult,
  fitsScale,
  money,
  roundDown,
  toDecimalString,
  totalAccrued,
} from "@contract";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const RATES = { rates: { USDT: "1", BTC: "65000", ETH: "3200", TON: "5.5" }, feePercent: "1" } as const;

/** A non-negative decimal string with up to `maxDecimals` decimals. */
const decimalString = (maxInt: bigint, maxDecimals: number) =>
  fc
    .tuple(fc.bigInt({ min: 0n, max: maxInt }), fc.integer({ min: 0, max: maxDecimals }), fc.bigInt({ min: 0n }))
    .map(([int, decimals, frac]) => {
      if (decimals === 0) return int.toString();
      const digits = (frac % 10n ** BigInt(decimals)).toString().padStart(decimals, "0");
      return `${int}.${digits}`;
    });

const currency = fc.constantFrom(...CURRENCY_CODES);

describe("money-math", () => {
  it("rounds down to the currency's scale, never up", () => {
    expect(roundDown("1.2345679", "USDT")).toBe("1.234567");
    expect(roundDown("0.999999999", "USDT")).toBe("0.999999");
    expect(roundDown("0.123456789", "BTC")).toBe("0.12345678");
    expect(roundDown("5.0000000009", "TON")).toBe("5");
    expect(roundDown("10", "ETH")).toBe("10");
    expect(toDecimalString("0.00000001")).toBe("0.00000001");
    expect(toDecimalString("-0")).toBe("0");
    expect(toDecimalString("12345678901234567890.123456789")).toBe("12345678901234567890.123456789");
    expect(fitsScale("1.123456", "USDT")).toBe(true);
    expect(fitsScale("1.1234567", "USDT")).toBe(false);
  });

  it("truncation is at most the value, within one unit of the scale, and idempotent", () => {
    fc.assert(
      fc.property(decimalString(10n ** 15n, 14), currency, (value, c) => {
        const r = roundDown(value, c);
        expect(compareAmounts(r, value)).toBeLessThanOrEqual(0);
        expect(
          money(value)
            .minus(r)
            .lt(money(1).div(money(10).pow(scaleOf(c)))),
        ).toBe(true);
        expect(roundDown(r, c)).toBe(r);
        expect(fitsScale(r, c)).toBe(true);
      }),
    );
  });
});

const scaleOf = (c: Currency) => CURRENCIES[c].scale;

describe("deposit-math", () => {
  it("computes the plan's result as the deposit screen shows it", () => {
    expect(
      depositTerms({
        amount: "1000",
        dailyYieldPercent: "1.5",
        durationDays: 60,
        currency: "USDT",
        startedAt: "2026-05-01T12:00:00.000Z",
      }),
    ).toEqual({
      amount: "1000",
      dailyIncome: "15",
      totalAccrued: "900",
      totalAtEnd: "1900",
      endsAt: "2026-06-30T12:00:00.000Z",
    });
  });

  it("rounds the daily income down and multiplies the rounded figure", () => {
    // 123.456789 × 1 % = 1.23456789 → 1.234567 a day; 30 days → 37.03701.
    expect(depositTerms({ amount: "123.456789", dailyYieldPercent: "1", durationDays: 30, currency: "USDT" })).toEqual({
      amount: "123.456789",
      dailyIncome: "1.234567",
      totalAccrued: "37.03701",
      totalAtEnd: "160.493799",
    });
    // An amount typed with more decimals than USDT keeps is truncated first.
    expect(
      depositTerms({ amount: "100.9999999", dailyYieldPercent: "2", durationDays: 1, currency: "USDT" }).amount,
    ).toBe("100.999999");
    expect(dailyIncome("0.00000099", "1", "BTC")).toBe("0");
    expect(dailyIncome("3", "0.33333333", "TON")).toBe("0.009999999");
  });

  it("keeps totalAtEnd = amount + dailyIncome × days exactly, for any amount and yield", () => {
    fc.assert(
      fc.property(
        decimalString(10n ** 9n, 10),
        decimalString(50n, 8),
        fc.integer({ min: 1, max: 400 }),
        currency,
        (amount, yieldPercent, days, c) => {
          const terms = depositTerms({ amount, dailyYieldPercent: yieldPercent, durationDays: days, currency: c });
          const exactDaily = money(terms.amount).times(yieldPercent).div(100);
          expect(compareAmounts(terms.dailyIncome, exactDaily)).toBeLessThanOrEqual(0);
          expect(fitsScale(terms.dailyIncome, c)).toBe(true);
          expect(terms.totalAccrued).toBe(totalAccrued(terms.dailyIncome, days));
          expect(money(terms.totalAtEnd).eq(money(terms.amount).plus(money(terms.dailyIncome).times(days)))).toBe(true);
        },
      ),
    );
  });

  it("ends 24-hour days after the start and counts the days due", () => {
    const start = new Date("2026-03-28T22:30:00.000Z");
    expect(depositEndsAt(start, 2).toISOString()).toBe("2026-03-30T22:30:00.000Z");
    expect(daysDue(start, new Date(start.getTime() - 1), 30)).toBe(0);
    expect(daysDue(start, new Date(start.getTime() + DAY_MS - 1), 30)).toBe(0);
    expect(daysDue(start, new Date(start.getTime() + DAY_MS), 30)).toBe(1);
    expect(daysDue(start, new Date(start.getTime() + 45 * DAY_MS), 30)).toBe(30);
  });

  it("checks the amount against the plan as the field rules say", () => {
    const plan = { minAmount: "10", maxAmount: "1000", currency: "USDT" as const };
    expect(depositAmountIssue("-1", plan)).toBe("amountNegative");
    expect(depositAmountIssue("0", plan)).toBe("amountBelowMinimum");
    expect(depositAmountIssue("9.9999999", plan)).toBe("amountBelowMinimum");
    expect(depositAmountIssue("10", plan)).toBeNull();
    expect(depositAmountIssue("1000.0000009", plan)).toBeNull();
    expect(depositAmountIssue("1000.000001", plan)).toBe("amountAboveMaximum");
    expect(depositAmountIssue("0.0000001", { ...plan, minAmount: "0" })).toBe("amountBelowMinimum");
  });

  it("states what an early close returns and forfeits", () => {
    expect(depositCloseOutcome({ amount: "500.000000", accruedHeld: "37.500000" })).toEqual({
      returned: "500",
      forfeited: "37.5",
    });
  });
});

describe("exchange-math", () => {
  it("converts at the USD rates less the fee, rounded down to the target's scale", () => {
    // 100 USDT → TON at 1 / 5.5 less 1 %: 18 exactly.
    expect(exchangeQuote({ ...RATES, from: "USDT", to: "TON", amount: "100" })).toEqual({
      debited: "100",
      received: "18",
    });
    // 1 BTC → ETH: 65000 / 3200 × 0.99 = 20.109375.
    expect(exchangeResult({ ...RATES, from: "BTC", to: "ETH", amount: "1" })).toBe("20.109375");
    // 10 USDT → BTC: 10 / 65000 × 0.99 = 0.000152307692… → 0.00015230.
    expect(exchangeResult({ ...RATES, from: "USDT", to: "BTC", amount: "10" })).toBe("0.0001523");
    // The amount is truncated to the source's scale first.
    expect(exchangeQuote({ ...RATES, from: "USDT", to: "TON", amount: "1.0000009" }).debited).toBe("1");
  });

  it("refuses amounts that yield nothing", () => {
    expect(exchangeAmountIssue({ ...RATES, from: "USDT", to: "TON", amount: "-1" })).toBe("amountNegative");
    expect(exchangeAmountIssue({ ...RATES, from: "USDT", to: "TON", amount: "0" })).toBe("amountBelowMinimum");
    expect(exchangeAmountIssue({ ...RATES, from: "USDT", to: "BTC", amount: "0.000001" })).toBe("amountBelowMinimum");
    expect(exchangeAmountIssue({ ...RATES, from: "USDT", to: "BTC", amount: "0.001" })).toBeNull();
  });

  it("never credits more than the exact value, and truncates once (no double rounding)", () => {
    fc.assert(
      fc.property(decimalString(10n ** 7n, 12), currency, currency, decimalString(99n, 3), (amount, from, to, fee) => {
        fc.pre(from !== to);
        const input = { ...RATES, feePercent: fee, from, to, amount };
        const { debited, received } = exchangeQuote(input);
        const exact = money(debited)
          .times(RATES.rates[from])
          .times(money(100).minus(fee))
          .div(money(RATES.rates[to]).times(100));
        expect(compareAmounts(received, exact)).toBeLessThanOrEqual(0);
        // Less than one unit of the target's scale below the exact value.
        const unit = money(1).div(money(10).pow(scaleOf(to)));
        expect(exact.minus(received).lt(unit)).toBe(true);
        expect(fitsScale(received, to)).toBe(true);
      }),
    );
  });
});
