/**
 * The rule of an amount field as typed, for the money forms: what `parseAmountInput` refuses (nothing
 * typed, not a number, more decimals than the currency keeps), then the contract's `AmountInput`
 * (negative, too many digits). A passing amount is the exact decimal string: no JS number ever holds it.
 */
import { AmountInput, type Currency, currencyScale, type ValidationCode } from "@contract";
import { parseAmountInput } from "../money";
import type { FieldErrorText } from "./field-errors";
import { codeOf } from "./rules";

/** The figures an amount's rule texts name (`{{min}}`, `{{max}}`), formatted for the reader. */
export interface AmountFigures {
  min?: string;
  max?: string;
}

export type AmountRule = { ok: true; value: string } | { ok: false; error: FieldErrorText };

/** A validation code of an amount as a field error, with the figures its text names. */
export function amountError(code: ValidationCode, figures: AmountFigures = {}): FieldErrorText {
  return { ns: "validation", key: code, params: { min: figures.min ?? "", max: figures.max ?? "" } };
}

export function amountRule(text: string, currency: Currency, figures: AmountFigures = {}): AmountRule {
  const parsed = parseAmountInput(text, currency);
  if (!parsed.ok) {
    if (parsed.issue === "tooManyDecimals")
      return {
        ok: false,
        error: { ns: "money", key: "tooManyDecimals", params: { scale: String(currencyScale(currency)) } },
      };
    return { ok: false, error: amountError(parsed.issue, figures) };
  }
  const code = codeOf(AmountInput, parsed.value);
  return code ? { ok: false, error: amountError(code, figures) } : { ok: true, value: parsed.value };
}
