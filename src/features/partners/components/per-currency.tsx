import { CURRENCY_CODES, type CurrencyAmounts, compareAmounts } from "@contract";
import { amountAttributes, useMoneyFormat } from "@/lib/money";

/** The main currency: the one whose figure carries the test hooks when a map shows several. */
const MAIN_CURRENCY = "USDT" as const;

/**
 * A per-currency map shown per currency, never converted: each currency that is not zero, or the
 * main currency's zero when all are.
 */
export function PerCurrency({ amounts, testId }: { amounts: CurrencyAmounts; testId?: string }) {
  const format = useMoneyFormat();
  const shown = CURRENCY_CODES.filter((code) => compareAmounts(amounts[code], 0) !== 0);
  const codes = shown.length ? shown : [MAIN_CURRENCY];
  return (
    <span className="per-currency" data-testid={testId} {...amountAttributes(amounts[MAIN_CURRENCY], MAIN_CURRENCY)}>
      {codes.map((code) => (
        <span key={code} className="per-currency-item" data-currency-amount={code}>
          {format.amount(amounts[code], code)}
        </span>
      ))}
    </span>
  );
}
