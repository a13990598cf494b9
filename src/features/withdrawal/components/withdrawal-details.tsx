import type { Withdrawal } from "@contract";
import { Button } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import { CopyableValue, Detail, DetailList, DetailsSheet } from "@/components/details-sheet";
import { amountAttributes, useMoneyFormat } from "@/lib/money";

/**
 * One withdrawal in full: status, for a rejected or failed one that the amount is back on the balance and the
 * operator's note, amount, fee, what arrives, the whole address, the transaction, dates; one still awaiting its
 * code offers "Enter the code" (the code step).
 */
export function WithdrawalDetails({
  withdrawal,
  onClose,
  onResume,
}: {
  withdrawal: Withdrawal;
  onClose(): void;
  onResume(): void;
}) {
  const { t } = useTranslation(["withdrawal", "enums"]);
  const format = useMoneyFormat();
  const { currency } = withdrawal;
  // Rejected by the operator or failed: the amount came back to the balance.
  const returned = withdrawal.status === "rejected" || withdrawal.status === "error";
  const money = (value: string, testId: string) => (
    <span data-testid={testId} {...amountAttributes(value, currency)}>
      {format.amount(value, currency, { exact: true })}
    </span>
  );
  return (
    <DetailsSheet
      title={t("details.title")}
      onClose={onClose}
      testId="withdrawal-details"
      action={
        withdrawal.awaitingCode ? (
          <Button size="l" stretched onClick={onResume} data-testid="withdrawal-details-resume">
            {t("history.enterCode")}
          </Button>
        ) : null
      }
    >
      <DetailList>
        <Detail label={t("history.status")}>
          {withdrawal.awaitingCode ? (
            <span className="status-badge status-awaiting">{t("withdrawalAwaitingCode", { ns: "enums" })}</span>
          ) : (
            <span className={`status-badge status-${withdrawal.status}`} data-testid="withdrawal-details-status">
              {t(`withdrawalStatus.${withdrawal.status}`, { ns: "enums" })}
            </span>
          )}
        </Detail>
        {returned ? (
          <Detail label={t("details.outcome")}>
            <span data-testid="withdrawal-details-outcome">
              {t("details.returned", { amount: format.amount(withdrawal.amount, currency, { exact: true }) })}
            </span>
          </Detail>
        ) : null}
        {withdrawal.note ? (
          <Detail label={t("details.note")}>
            <span data-testid="withdrawal-details-note">{withdrawal.note}</span>
          </Detail>
        ) : null}
        <Detail label={t("history.amount")}>{money(withdrawal.amount, "withdrawal-details-amount")}</Detail>
        <Detail label={t("history.fee")}>{money(withdrawal.fee, "withdrawal-details-fee")}</Detail>
        <Detail label={t("history.toReceive")}>
          {money(withdrawal.amountToReceive, "withdrawal-details-receive")}
        </Detail>
        <Detail label={t("details.network")}>{withdrawal.network}</Detail>
        <Detail label={t("history.wallet")}>
          <CopyableValue value={withdrawal.wallet} testId="withdrawal-details-wallet" />
        </Detail>
        {withdrawal.txHash ? (
          <Detail label={t("history.txHash")}>
            <CopyableValue value={withdrawal.txHash} testId="withdrawal-details-tx-hash" />
          </Detail>
        ) : null}
        <Detail label={t("history.created")}>{format.dateTime(withdrawal.createdAt)}</Detail>
        {withdrawal.processedAt ? (
          <Detail label={t("history.processed")}>{format.dateTime(withdrawal.processedAt)}</Detail>
        ) : null}
      </DetailList>
    </DetailsSheet>
  );
}
