/**
 * The amount field of every money form (refill, withdrawal, deposit, exchange): a text field, since an amount is a
 * decimal string end to end, with the decimal keypad and the currency's code inside its box.
 */
import { TextField, type TextFieldProps } from "./text-field";

type AmountFieldProps = Omit<TextFieldProps, "after" | "inputMode" | "autoComplete"> & { currency: string };

export function AmountField({ currency, ...field }: AmountFieldProps) {
  return (
    <TextField
      inputMode="decimal"
      autoComplete="off"
      after={<span className="amount-currency">{currency}</span>}
      {...field}
    />
  );
}
