import type { CryptoCase, Deposit } from "@contract";
import { useTranslation } from "react-i18next";
import { CopyableValue, Detail, DetailList, DetailsSheet } from "@/components/details-sheet";
import { localizedText } from "@/lib/localized";
import { amountAttributes, useMoneyFormat } from "@/lib/money";
import { planName } from "./deposit-form";

/** One deposit in full: plan, status, principal, yield, what it brings, what is held, its dates. */
export function DepositDetails({
  deposit,
  cryptoCase,
  onClose,
}: {
  deposit: Deposit;
  cryptoCase: CryptoCase | undefined;
  onClose(): void;
}) {
  const { t } = useTranslation(["deposits", "enums"]);
  const format = useMoneyFormat();
  const money = (value: string, testId?: string) => (
    <span data-testid={testId} {...amountAttributes(value, deposit.currency)}>
      {format.amount(value, deposit.currency, { exact: true })}
    </span>
  );
  return (
    <DetailsSheet title={planName({ name: deposit.planName }, format.lng)} onClose={onClose} testId="deposit-details">
      <DetailList>
        <Detail label={t("details.status")}>
          <span className={`status-badge status-${deposit.status}`} data-testid="deposit-details-status">
            {t(`depositStatus.${deposit.status}`, { ns: "enums" })}
          </span>
        </Detail>
        {cryptoCase ? <Detail label={t("details.case")}>{localizedText(cryptoCase.name, format.lng)}</Detail> : null}
        <Detail label={t("list.amount")}>{money(deposit.amount, "deposit-details-amount")}</Detail>
        <Detail label={t("details.dailyYield")}>{`${format.decimal(deposit.dailyYieldPercent)} %`}</Detail>
        <Detail label={t("list.dailyIncome")}>{money(deposit.dailyIncome)}</Detail>
        {/* Closed early: the held income was forfeited (said below), so neither the end's total nor 'accrued and held'. */}
        {deposit.status === "closed" ? null : (
          <>
            <Detail label={t("details.totalAtEnd")}>{money(deposit.totalAtEnd, "deposit-details-total")}</Detail>
            <Detail label={deposit.status === "active" ? t("list.accrued") : t("list.accruedPaid")}>
              {money(deposit.accruedHeld, "deposit-details-accrued")}
            </Detail>
          </>
        )}
        <Detail label={t("list.days")}>{`${deposit.daysAccrued} / ${deposit.durationDays}`}</Detail>
        <Detail label={t("details.autoInvest")}>{deposit.autoInvest ? t("details.yes") : t("details.no")}</Detail>
        <Detail label={t("details.startedAt")}>{format.dateTime(deposit.startedAt)}</Detail>
        <Detail label={t("list.endsAt")}>{format.dateTime(deposit.endsAt)}</Detail>
        {deposit.closedAt ? <Detail label={t("list.closedAt")}>{format.dateTime(deposit.closedAt)}</Detail> : null}
        {deposit.returned ? <Detail label={t("details.returned")}>{money(deposit.returned)}</Detail> : null}
        {deposit.forfeited ? <Detail label={t("details.forfeited")}>{money(deposit.forfeited)}</Detail> : null}
        <Detail label={t("details.id")}>
          <CopyableValue value={deposit.id} testId="deposit-details-id" />
        </Detail>
      </DetailList>
    </DetailsSheet>
  );
}
