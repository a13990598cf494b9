import type { Operation } from "@contract";
import { memo, Suspense, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { lazyScreen } from "@/components/lazy-screen";
import { compareAmounts, useMoneyFormat } from "@/lib/money";
import { warmUp } from "@/lib/warm-up";
import { formatTime } from "../model/day-format";
import { OperationIcon } from "./operation-icon";
import "../operations.css";
import type { Translate } from "@/lib/form/messages";
import { operationTitle } from "../lib/operation-title";

// The details sheet (and telegram-ui's sheet library) is not needed to show the list: its code comes after.
const loadDetails = () => import("./operation-details");
const OperationDetails = lazyScreen(() => loadDetails().then((m) => ({ default: m.OperationDetails })));

/**
 * One ledger entry: its kind's icon and name, when, and the signed amount (credits green, debits red);
 * the crypto case if named. Under a day's heading (`timeOnly`) it shows the time alone. A tap opens its
 * details, and from there what it belongs to. Memoised: a long list's new page does not render again the rows
 * already shown (their operation is the same object).
 */
export const OperationRow = memo(function OperationRow({
  operation,
  caseName,
  timeOnly = false,
}: {
  operation: Operation;
  caseName?: string;
  timeOnly?: boolean;
}) {
  const { t } = useTranslation(["operations", "enums"]);
  const format = useMoneyFormat();
  const [open, setOpen] = useState(false);
  const sign = compareAmounts(operation.amount, 0);
  const exchange = operation.details?.exchange;
  // Once a row shows, the sheet's code comes too, so a tap opens it at once (offline as well).
  useEffect(() => warmUp(loadDetails, "details"), []);
  return (
    <>
      <button
        type="button"
        className="money-row operation-row"
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
        data-testid="operation-row"
        data-operation-id={operation.id}
        data-type={operation.type}
        data-currency={operation.currency}
        data-amount={operation.amount}
      >
        <OperationIcon type={operation.type} />
        <span className="operation-row-body">
          <span className="money-row-head">
            <span>{operationTitle(t as unknown as Translate, operation)}</span>
            <span className={sign > 0 ? "amount-positive" : sign < 0 ? "amount-negative" : undefined}>
              {format.amount(operation.amount, operation.currency, { signed: true })}
            </span>
          </span>
          {caseName ? (
            <span className="operation-case" data-testid="operation-case" data-case-id={operation.details?.caseId}>
              {caseName}
            </span>
          ) : null}
          <span className="money-row-sub">
            <time dateTime={operation.createdAt}>
              {timeOnly ? formatTime(operation.createdAt, format.lng) : format.dateTime(operation.createdAt)}
            </time>
            {exchange ? <span>{t("exchangeDetail", { from: exchange.from, to: exchange.to })}</span> : null}
            {operation.details?.days ? <span>{t("days", { days: operation.details.days })}</span> : null}
          </span>
        </span>
      </button>
      {open ? (
        <Suspense fallback={null}>
          <OperationDetails operation={operation} caseName={caseName} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
});
