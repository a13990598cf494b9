import type { Currency, DepositTerms } from "@contract";
import { Cell, Section } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import { amountAttributes, useMoneyFormat } from "@/lib/money";

/**
 * The computed result of the deposit form: what the plan pays for the typed amount, exactly as the
 * server will (the contract's `depositTerms`), shown with every kept decimal so nothing is hidden.
 */
export function DepositPreview({ terms, currency }: { terms: DepositTerms | null; currency: Currency }) {
  const { t } = useTranslation("deposits");
  const format = useMoneyFormat();
  const amount = (testId: string, value: string | undefined) => (
    <span data-testid={testId} {...(value === undefined ? {} : amountAttributes(value, currency))}>
      {value === undefined ? "—" : format.amount(value, currency, { exact: true })}
    </span>
  );
  return (
    <Section header={t("preview.header")} footer={t("preview.hint")} aria-live="polite">
      <Cell className="static-cell" after={amount("preview-daily-income", terms?.dailyIncome)}>
        {t("preview.dailyIncome")}
      </Cell>
      <Cell className="static-cell" after={amount("preview-total-accrued", terms?.totalAccrued)}>
        {t("preview.totalAccrued")}
      </Cell>
      <Cell className="static-cell" after={amount("preview-total-at-end", terms?.totalAtEnd)}>
        {t("preview.totalAtEnd")}
      </Cell>
      <Cell
        className="static-cell"
        after={
          <span data-testid="preview-ends-at" {...(terms?.endsAt ? { "data-date": terms.endsAt } : {})}>
            {terms?.endsAt ? format.date(terms.endsAt) : "—"}
          </span>
        }
      >
        {t("preview.endsAt")}
      </Cell>
    </Section>
  );
}
