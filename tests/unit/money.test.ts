/** The money module: exact decimals in and out, formatted per language, typed input read strictly. */
import { afterEach, describe, expect, it } from "vitest";
import { formatDate, formatDateTime } from "@/lib/dates";
import {
  addAmounts,
  formatAmount,
  formatPlainDecimal,
  parseAmountInput,
  subtractAmounts,
  truncateForDisplay,
} from "@/lib/money";

describe("money arithmetic", () => {
  it("adds without floats", () => {
    expect(addAmounts("0.1", "0.2")).toBe("0.3");
    expect(subtractAmounts("0.3", "0.1")).toBe("0.2");
    expect(addAmounts("0.000000001", "12345678901234567890")).toBe("12345678901234567890.000000001");
  });
});

describe("formatAmount", () => {
  const amount = "123456789.123456";
  it.each([
    ["en", "123,456,789.12 USDT"],
    ["ru", "123\u00a0456\u00a0789,12 USDT"],
    ["de", "123.456.789,12 USDT"],
    ["kk", "123\u00a0456\u00a0789,12 USDT"],
  ])("formats 123456789.123456 USDT in %s", (lng, expected) => {
    expect(formatAmount(amount, "USDT", lng)).toBe(expected);
  });

  it("truncates to the display precision, never rounds up", () => {
    expect(formatAmount("1.999999", "USDT", "en")).toBe("1.99 USDT");
    expect(formatAmount("0.123456789", "TON", "en")).toBe("0.1234 TON");
    expect(formatAmount("0.12345699", "ETH", "en")).toBe("0.123456 ETH");
    expect(formatAmount("0.00000001", "BTC", "en")).toBe("0.00000001 BTC");
    expect(truncateForDisplay("-2.009", "USDT")).toBe("-2");
  });

  it("keeps digits beyond what a float holds", () => {
    expect(formatAmount("12345678901234567.89", "USDT", "en", { code: false })).toBe("12,345,678,901,234,567.89");
  });

  it("signs ledger entries and shows exact previews", () => {
    expect(formatAmount("12.5", "USDT", "en", { signed: true })).toBe("+12.50 USDT");
    expect(formatAmount("-12.5", "USDT", "en", { signed: true })).toBe("-12.50 USDT");
    expect(formatAmount("1.234567", "USDT", "en", { exact: true })).toBe("1.234567 USDT");
    expect(formatAmount("1.2", "USDT", "en", { exact: true })).toBe("1.20 USDT");
  });

  it("formats plain decimals such as a yield", () => {
    expect(formatPlainDecimal("1.25", "de")).toBe("1,25");
    expect(formatPlainDecimal("3", "en")).toBe("3");
  });
});

describe("formatters kept", () => {
  const NumberFormat = Intl.NumberFormat;
  const DateTime = Intl.DateTimeFormat;
  afterEach(() => {
    Intl.NumberFormat = NumberFormat;
    Intl.DateTimeFormat = DateTime;
  });

  // A first screen formats hundreds of amounts and dates; each new Intl formatter costs milliseconds on a slow
  // phone, so a language and its options build one formatter, whatever the amount.
  it("builds one Intl formatter per language and options, not one per amount or date", () => {
    const built = { number: 0, date: 0 };
    Intl.NumberFormat = class extends NumberFormat {
      constructor(...args: ConstructorParameters<typeof Intl.NumberFormat>) {
        super(...args);
        built.number++;
      }
    } as typeof Intl.NumberFormat;
    Intl.DateTimeFormat = class extends DateTime {
      constructor(...args: ConstructorParameters<typeof Intl.DateTimeFormat>) {
        super(...args);
        built.date++;
      }
    } as typeof Intl.DateTimeFormat;
    const texts = new Set<string>();
    for (const lng of ["en", "ru", "de", "kk"])
      for (let i = 0; i < 100; i++) {
        texts.add(formatAmount(`${i}.5`, "USDT", lng));
        texts.add(formatAmount(`-${i}.25`, "BTC", lng, { signed: true }));
        texts.add(formatDate(`2026-11-${String((i % 28) + 1).padStart(2, "0")}T10:00:00Z`, lng));
        texts.add(formatDateTime(`2026-10-${String((i % 28) + 1).padStart(2, "0")}T10:00:00Z`, lng));
      }
    expect(texts.size).toBeGreaterThan(500);
    expect(built.number).toBeLessThanOrEqual(16);
    expect(built.date).toBeLessThanOrEqual(16);
  });
});

describe("parseAmountInput", () => {
  it("accepts a comma or a point", () => {
    expect(parseAmountInput("12,5", "USDT")).toEqual({ ok: true, value: "12.5" });
    expect(parseAmountInput("12.50", "USDT")).toEqual({ ok: true, value: "12.5" });
    expect(parseAmountInput(" 1 000,25 ", "USDT")).toEqual({ ok: true, value: "1000.25" });
    expect(parseAmountInput(".5", "TON")).toEqual({ ok: true, value: "0.5" });
    expect(parseAmountInput("-3", "USDT")).toEqual({ ok: true, value: "-3" });
  });

  it("refuses more decimals than the currency keeps", () => {
    expect(parseAmountInput("1.1234567", "USDT")).toEqual({ ok: false, issue: "tooManyDecimals" });
    expect(parseAmountInput("1.123456", "USDT")).toEqual({ ok: true, value: "1.123456" });
    expect(parseAmountInput("0.000000001", "BTC")).toEqual({ ok: false, issue: "tooManyDecimals" });
    expect(parseAmountInput("0.000000001", "TON")).toEqual({ ok: true, value: "0.000000001" });
  });

  it("refuses what is not a number", () => {
    expect(parseAmountInput("", "USDT")).toEqual({ ok: false, issue: "required" });
    expect(parseAmountInput("1.2.3", "USDT")).toEqual({ ok: false, issue: "decimal" });
    expect(parseAmountInput("1e5", "USDT")).toEqual({ ok: false, issue: "decimal" });
    expect(parseAmountInput(".", "USDT")).toEqual({ ok: false, issue: "decimal" });
    expect(parseAmountInput("abc", "USDT")).toEqual({ ok: false, issue: "decimal" });
  });
});
