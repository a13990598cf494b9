import type { Operation } from "@contract";
import { useTranslation } from "react-i18next";
import { CopyableValue, Detail, DetailList, DetailsSheet } from "@/components/details-sheet";
import { amountAttributes, useMoneyFormat } from "@/lib/money";

/** Everything the ledger keeps about one operation: kind, signed amount, when, and what it belongs to. */
export function OperationDetails({
  operation,
  caseName,
  onClose,
}: {
  operation: Operation;
  caseName?: string;
  onClose(): void;
}) {
  const { t } = useTranslation(["operations", "enums"]);
  const format = useMoneyFormat();
  const details = operation.details;
  const exchange = details?.exchange;
  return (
    <DetailsSheet
      title={t(`ledgerOperationType.${operation.type}`, { ns: "enums" })}
      onClose={onClose}
      testId="operation-details"
    >
      <DetailList>
        <Detail label={t("details.amount")} testId="operation-details-amount">
          <span {...amountAttributes(operation.amount, operation.currency)}>
            {format.amount(operation.amount, operation.currency, { signed: true, exact: true })}
          </span>
        </Detail>
        <Detail label={t("details.date")}>{format.dateTime(operation.createdAt)}</Detail>
        {exchange ? (
          <>
            <Detail label={t("details.debited")}>
              {format.amount(exchange.debited, exchange.from, { exact: true })}
            </Detail>
            <Detail label={t("details.received")}>
              {format.amount(exchange.received, exchange.to, { exact: true })}
            </Detail>
          </>
        ) : null}
        {details?.days ? <Detail label={t("details.days")}>{details.days}</Detail> : null}
        {details?.forfeited ? (
          <Detail label={t("details.forfeited")}>
            {format.amount(details.forfeited, operation.currency, { exact: true })}
          </Detail>
        ) : null}
        {caseName ? <Detail label={t("details.case")}>{caseName}</Detail> : null}
        {details?.depositId ? (
          <Detail label={t("details.deposit")}>
            <CopyableValue value={details.depositId} />
          </Detail>
        ) : null}
        {details?.refillId ? (
          <Detail label={t("details.refill")}>
            <CopyableValue value={details.refillId} />
          </Detail>
        ) : null}
        {details?.reinvestedInto ? (
          <Detail label={t("details.reinvestedInto")}>
            <CopyableValue value={details.reinvestedInto} />
          </Detail>
        ) : null}
        <Detail label={t("details.id")}>
          <CopyableValue value={operation.id} testId="operation-details-id" />
        </Detail>
      </DetailList>
    </DetailsSheet>
  );
}
