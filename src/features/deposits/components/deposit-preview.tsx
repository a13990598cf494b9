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

/**
 * What the investor agrees to before anything is debited: the plan, the amount taken from the balance, the
 * daily income, the income over the whole term, what comes back at the end and the end date, computed by
 * the contract's `depositTerms` as the server opens it (the end date counted from now).
 */
export function DepositConfirmation({
  terms,
  currency,
  plan,
  autoInvest,
}: {
  terms: DepositTerms;
  currency: Currency;
  plan: string;
  autoInvest: boolean;
}) {
  const { t } = useTranslation("deposits");
  const format = useMoneyFormat();
  const amount = (testId: string, value: string) => (
    <span data-testid={testId} {...amountAttributes(value, currency)}>
      {format.amount(value, currency, { exact: true })}
    </span>
  );
  return (
    <Section
      header={t("confirm.title")}
      footer={t(autoInvest ? "confirm.noteAutoInvest" : "confirm.note", {
        amount: format.amount(terms.amount, currency, { exact: true }),
        currency,
      })}
    >
      <Cell className="static-cell" multiline after={plan}>
        {t("form.plan")}
      </Cell>
      <Cell className="static-cell" multiline after={amount("confirm-amount", terms.amount)}>
        {t("confirm.amount")}
      </Cell>
      <Cell className="static-cell" multiline after={amount("confirm-daily-income", terms.dailyIncome)}>
        {t("preview.dailyIncome")}
      </Cell>
      <Cell className="static-cell" multiline after={amount("confirm-total-income", terms.totalAccrued)}>
        {t("confirm.totalIncome")}
      </Cell>
      <Cell className="static-cell" multiline after={amount("confirm-total-at-end", terms.totalAtEnd)}>
        {t("preview.totalAtEnd")}
      </Cell>
      <Cell
        className="static-cell"
        multiline
        after={
          <span data-testid="confirm-ends-at" data-date={terms.endsAt}>
            {terms.endsAt ? format.date(terms.endsAt) : "—"}
          </span>
        }
      >
        {t("preview.endsAt")}
      </Cell>
    </Section>
  );
}
