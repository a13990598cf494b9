/** The money forms' amount rule: exact decimal strings out, the contract's codes and the scale's limit as errors. */
import { describe, expect, it } from "vitest";
import { amountRule } from "@/lib/form/amount-rule";
import { type Translate, textOfMessage } from "@/lib/form/messages";

describe("amountRule", () => {
  it("passes the exact decimal string, read with a comma or a point, never through a float", () => {
    expect(amountRule("0012,50", "USDT")).toEqual({ ok: true, value: "12.5" });
    expect(amountRule("0.1", "BTC")).toEqual({ ok: true, value: "0.1" });
    expect(amountRule("12345678901234567890.12345678", "BTC")).toEqual({
      ok: true,
      value: "12345678901234567890.12345678",
    });
  });

  it("refuses nothing typed, a non-number and more decimals than the currency keeps", () => {
    expect(amountRule(" ", "USDT")).toMatchObject({ ok: false, error: { ns: "validation", key: "required" } });
    expect(amountRule("1e3", "USDT")).toMatchObject({ ok: false, error: { ns: "validation", key: "decimal" } });
    expect(amountRule("0.123456789", "BTC")).toEqual({
      ok: false,
      error: { ns: "money", key: "tooManyDecimals", params: { scale: "8" } },
    });
  });

  it("takes the contract's AmountInput codes: negative, too many digits", () => {
    expect(amountRule("-5", "USDT", { min: "10 USDT" })).toEqual({
      ok: false,
      error: { ns: "validation", key: "amountNegative", params: { min: "10 USDT", max: "" } },
    });
    expect(amountRule("123456789012345678901", "USDT")).toMatchObject({
      ok: false,
      error: { key: "amountAboveMaximum" },
    });
  });

  it("says a rule's figures in its text", () => {
    const t = ((key: string, options: Record<string, unknown>) =>
      `${options.ns}:${key}:${JSON.stringify({ ...options, ns: undefined, defaultValue: undefined })}`) as Translate;
    const decimals = amountRule("0.123456789", "BTC");
    if (decimals.ok) throw new Error("expected a refusal");
    expect(textOfMessage(t, decimals.error)).toBe('money:tooManyDecimals:{"scale":"8"}');
    const negative = amountRule("-1", "USDT", { min: "1 USDT", max: "9 USDT" });
    if (negative.ok) throw new Error("expected a refusal");
    expect(textOfMessage(t, negative.error)).toBe('validation:amountNegative:{"min":"1 USDT","max":"9 USDT"}');
  });
});
