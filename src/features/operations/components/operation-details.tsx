import type { Operation } from "@contract";
import { displayRate } from "@contract/exchange-math";
import { explorerLink } from "@contract/explorer";
import { money } from "@contract/money-math";
import { useQuery } from "@tanstack/react-query";
import { Button } from "@telegram-apps/telegram-ui";
import type { MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import { CopyableValue, Detail, DetailList, DetailsSheet } from "@/components/details-sheet";
import { paths } from "@/config/paths";
import type { Translate } from "@/lib/form/messages";
import { amountAttributes, useMoneyFormat } from "@/lib/money";
import { useNavigate } from "@/lib/router";
import { openExternalLink } from "@/tma/links";
import { operationQueries } from "../api/operation-queries";
import { operationTitle } from "../lib/operation-title";

const PARTNER_KINDS = new Set<Operation["type"]>(["referral", "matching", "bonus"]);

/** The rate an exchange gave, as shown: what one coin of `from` became, about six significant digits. */
export function exchangeRateOf(exchange: { debited: string; received: string }): string | null {
  if (money(exchange.debited).eq(0)) return null;
  return displayRate(money(exchange.received).div(exchange.debited).toFixed());
}

/**
 * Everything the ledger keeps about one operation (kind, signed amount, when, what it belongs to) and,
 * for a withdrawal or a refill, its transaction linked to the network's block explorer; its action opens
 * what it belongs to: the deposit, the withdrawal, the refill, the partners.
 */
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
  const navigate = useNavigate();
  const details = operation.details;
  const exchange = details?.exchange;
  const rate = exchange ? exchangeRateOf(exchange) : null;
  // What the operation belongs to adds to the sheet; when it cannot be read (a cancelled application is
  // 404, a server fault) the sheet shows the operation alone, never the route's error screen.
  const withdrawal = useQuery({
    ...operationQueries.withdrawal(details?.withdrawalId ?? ""),
    enabled: Boolean(details?.withdrawalId),
    throwOnError: false,
  });
  const refill = useQuery({
    ...operationQueries.refill(details?.refillId ?? ""),
    enabled: Boolean(details?.refillId),
    throwOnError: false,
  });
  const txHash = withdrawal.data?.txHash ?? refill.data?.txHash ?? null;
  const paymentSystemId = withdrawal.data?.paymentSystemId ?? refill.data?.paymentSystemId ?? details?.paymentSystemId;

  const target: { path: string; label: string } | null = details?.depositId
    ? { path: `${paths.deposits}?deposit=${encodeURIComponent(details.depositId)}`, label: t("open.deposit") }
    : details?.withdrawalId && withdrawal.isSuccess
      ? {
          path: `${paths.withdrawal}?application=${encodeURIComponent(details.withdrawalId)}`,
          label: t("open.withdrawal"),
        }
      : details?.refillId
        ? { path: `${paths.refill}?refill=${encodeURIComponent(details.refillId)}`, label: t("open.refill") }
        : PARTNER_KINDS.has(operation.type)
          ? { path: paths.partners, label: t("open.partners") }
          : null;

  return (
    <DetailsSheet
      title={operationTitle(t as unknown as Translate, operation)}
      onClose={onClose}
      testId="operation-details"
      action={
        target ? (
          <Button
            size="l"
            stretched
            onClick={() => {
              onClose();
              navigate(target.path);
            }}
            data-testid="operation-details-open"
          >
            {target.label}
          </Button>
        ) : null
      }
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
            {rate ? (
              <Detail label={t("details.rate")} testId="operation-details-rate">
                {t("details.rateValue", { from: exchange.from, to: exchange.to, value: format.decimal(rate) })}
              </Detail>
            ) : null}
          </>
        ) : null}
        {details?.days ? <Detail label={t("details.days")}>{details.days}</Detail> : null}
        {details?.forfeited ? (
          <Detail label={t("details.forfeited")}>
            {format.amount(details.forfeited, operation.currency, { exact: true })}
          </Detail>
        ) : null}
        {caseName ? <Detail label={t("details.case")}>{caseName}</Detail> : null}
        {withdrawal.data ? (
          <>
            <Detail label={t("details.status")} testId="operation-details-status">
              {withdrawal.data.awaitingCode
                ? t("withdrawalAwaitingCode", { ns: "enums" })
                : t(`withdrawalStatus.${withdrawal.data.status}`, { ns: "enums" })}
            </Detail>
            <Detail label={t("details.network")}>{withdrawal.data.network}</Detail>
          </>
        ) : null}
        {refill.data ? (
          <Detail label={t("details.status")} testId="operation-details-status">
            {t(`refillStatus.${refill.data.status}`, { ns: "enums" })}
          </Detail>
        ) : null}
        {txHash ? (
          <Detail label={t("details.txHash")}>
            <CopyableValue value={txHash} testId="operation-details-tx-hash" />
            <ExplorerLink paymentSystemId={paymentSystemId} txHash={txHash} />
          </Detail>
        ) : null}
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

/**
 * The transaction on its network's block explorer (the operator's template for the payment system): in
 * Telegram through the client's `openLink`, on the web in a new tab. Nothing without a template.
 */
function ExplorerLink({ paymentSystemId, txHash }: { paymentSystemId: string | undefined; txHash: string }) {
  const { t } = useTranslation("operations");
  const systems = useQuery({
    ...operationQueries.paymentSystems(),
    enabled: Boolean(paymentSystemId),
    throwOnError: false,
  });
  const system = systems.data?.find((s) => s.id === paymentSystemId);
  const href = explorerLink(system?.explorerUrl, txHash);
  if (!href) return null;
  const open = (event: MouseEvent<HTMLAnchorElement>) => {
    if (openExternalLink(href)) event.preventDefault();
  };
  return (
    <a
      className="operation-explorer"
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      onClick={open}
      data-testid="operation-details-explorer"
    >
      {t("details.explorer")}
    </a>
  );
}
