import type { CryptoCase, Deposit } from "@contract";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { Button, Progress, Section } from "@telegram-apps/telegram-ui";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useAheadItems } from "@/components/ahead-pages";
import { PagedList } from "@/components/query-section";
import { localizedText } from "@/lib/localized";
import { amountAttributes, useMoneyFormat } from "@/lib/money";
import { depositQueries } from "../api/deposit-queries";
import { DepositCloseDialog } from "./deposit-close-dialog";
import { DepositDetails } from "./deposit-details";
import { planName } from "./deposit-form";

/**
 * The user's deposits, newest first, paged, with progress and a close button on active ones. A tap on
 * a row opens its details; `openId` (a deep link to one deposit) opens that one's once the list holds it.
 */
export function DepositList({ openId }: { openId?: string | null }) {
  const { t } = useTranslation(["deposits", "common"]);
  const { list, items: deposits } = useAheadItems(useInfiniteQuery(depositQueries.list()));
  const cases = useQuery(depositQueries.cryptoCases());
  const [closing, setClosing] = useState<Deposit | null>(null);
  const [openedId, setOpenedId] = useState<string | null>(null);
  const opened = deposits.find((d) => d.id === openedId) ?? null;
  const deepLinked = openId ? deposits.some((d) => d.id === openId) : false;
  useEffect(() => {
    if (openId && deepLinked) setOpenedId(openId);
  }, [openId, deepLinked]);

  return (
    <Section header={t("list.header")} data-testid="deposit-list">
      <PagedList
        query={list}
        items={deposits}
        empty={t("list.empty")}
        loadMore={t("list.loadMore")}
        renderItem={(deposit) => (
          <DepositRow
            key={deposit.id}
            deposit={deposit}
            cryptoCase={cases.data?.find((c) => c.id === deposit.caseId)}
            onClose={() => setClosing(deposit)}
            onOpen={() => setOpenedId(deposit.id)}
          />
        )}
      />
      <DepositCloseDialog deposit={closing} onDone={() => setClosing(null)} />
      {opened ? (
        <DepositDetails
          deposit={opened}
          cryptoCase={cases.data?.find((c) => c.id === opened.caseId)}
          onClose={() => setOpenedId(null)}
        />
      ) : null}
    </Section>
  );
}

function DepositRow({
  deposit,
  cryptoCase,
  onClose,
  onOpen,
}: {
  deposit: Deposit;
  cryptoCase: CryptoCase | undefined;
  onClose(): void;
  onOpen(): void;
}) {
  const { t } = useTranslation(["deposits", "enums"]);
  const format = useMoneyFormat();
  const amount = (testId: string, value: string) => (
    <span data-testid={testId} {...amountAttributes(value, deposit.currency)}>
      {format.amount(value, deposit.currency)}
    </span>
  );
  const percent = Math.round((deposit.daysAccrued / deposit.durationDays) * 100);
  return (
    <div className="deposit-row" data-testid="deposit-row" data-deposit-id={deposit.id} data-status={deposit.status}>
      <button
        type="button"
        className="row-open"
        onClick={onOpen}
        aria-haspopup="dialog"
        aria-label={t("details.open", { plan: planName({ name: deposit.planName }, format.lng) })}
        data-testid="deposit-open"
      />
      <div className="deposit-row-head">
        <span className="deposit-row-name">
          {planName({ name: deposit.planName }, format.lng)}
          {cryptoCase ? (
            <span className="deposit-row-case" data-case-id={cryptoCase.id}>
              {t("cases.caseName", { name: localizedText(cryptoCase.name, format.lng) })}
            </span>
          ) : null}
        </span>
        <span className={`status-badge status-${deposit.status}`}>
          {t(`depositStatus.${deposit.status}`, { ns: "enums" })}
        </span>
      </div>
      <dl className="money-facts">
        <div>
          <dt>{t("list.amount")}</dt>
          <dd>{amount("deposit-amount", deposit.amount)}</dd>
        </div>
        <div>
          <dt>{t("list.dailyIncome")}</dt>
          <dd>{amount("deposit-daily-income", deposit.dailyIncome)}</dd>
        </div>
        {deposit.status === "closed" ? (
          // Closed early: the principal came back and the held income was given up; nothing is held any more.
          <>
            <div>
              <dt>{t("list.returned")}</dt>
              <dd>{amount("deposit-returned", deposit.returned ?? deposit.amount)}</dd>
            </div>
            <div>
              <dt>{t("list.forfeited")}</dt>
              <dd>{amount("deposit-forfeited", deposit.forfeited ?? deposit.accruedHeld)}</dd>
            </div>
          </>
        ) : (
          <div>
            <dt>{deposit.status === "active" ? t("list.accrued") : t("list.accruedPaid")}</dt>
            <dd>{amount("deposit-accrued", deposit.accruedHeld)}</dd>
          </div>
        )}
        <div>
          <dt>{deposit.status === "active" ? t("list.endsAt") : t("list.closedAt")}</dt>
          <dd>{format.date(deposit.closedAt ?? deposit.endsAt)}</dd>
        </div>
      </dl>
      <div className="deposit-progress">
        <Progress
          value={percent}
          aria-label={t("list.progress", { days: deposit.daysAccrued, total: deposit.durationDays })}
        />
        <span data-testid="deposit-days" data-days-accrued={deposit.daysAccrued}>
          {`${deposit.daysAccrued} / ${deposit.durationDays}`}
        </span>
      </div>
      {deposit.status === "active" ? (
        <Button
          size="s"
          mode="bezeled"
          className="deposit-close row-action"
          onClick={onClose}
          data-testid="deposit-close"
        >
          {t("list.closeEarly")}
        </Button>
      ) : null}
    </div>
  );
}
