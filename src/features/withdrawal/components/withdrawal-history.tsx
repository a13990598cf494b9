import { CURRENCY_CODES, WITHDRAWAL_STATUSES, type Withdrawal } from "@contract";
import { useInfiniteQuery } from "@tanstack/react-query";
import { Button, Section } from "@telegram-apps/telegram-ui";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useAheadItems } from "@/components/ahead-pages";
import { DateField } from "@/components/date-field";
import { FilterSelect } from "@/components/form/filter-select";
import { PagedList } from "@/components/query-section";
import { amountAttributes, useMoneyFormat } from "@/lib/money";
import { type WithdrawalFilter, withdrawalQueries } from "../api/withdrawal-queries";
import { shortenMiddle } from "../model/withdrawal-math";
import { WithdrawalDetails } from "./withdrawal-details";

/**
 * The user's withdrawals with currency, period and status filters. An application still awaiting its
 * code is marked and opens the code step again. A tap on a row opens its details; `openId` (a deep link
 * to one application) opens that one's once the list holds it.
 */
export function WithdrawalHistory({
  onResume,
  openId,
}: {
  onResume(withdrawal: Withdrawal): void;
  openId?: string | null;
}) {
  const { t } = useTranslation(["withdrawal", "enums", "common"]);
  const [filter, setFilter] = useState<WithdrawalFilter>({});
  // From after To is said under To and not asked of the server: the list keeps the last valid period.
  const rangeInverted = filter.from !== undefined && filter.to !== undefined && filter.from > filter.to;
  const [applied, setApplied] = useState<WithdrawalFilter>({});
  useEffect(() => {
    if (!rangeInverted) setApplied(filter);
  }, [filter, rangeInverted]);
  const filtered = Boolean(applied.currency || applied.status || applied.from || applied.to);
  const { list, items: withdrawals } = useAheadItems(
    useInfiniteQuery(withdrawalQueries.list(applied)),
    JSON.stringify(applied),
  );
  const [openedId, setOpenedId] = useState<string | null>(null);
  const opened = withdrawals.find((w) => w.id === openedId) ?? null;
  const deepLinked = openId ? withdrawals.some((w) => w.id === openId) : false;
  useEffect(() => {
    if (openId && deepLinked) setOpenedId(openId);
  }, [openId, deepLinked]);
  // A deep link to an application not on the first page: the next pages are read until it is found;
  // one the whole list does not hold (no longer listed) is said so.
  const searching = Boolean(openId) && !deepLinked && !filtered && list.isSuccess;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  useEffect(() => {
    if (searching && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [searching, hasNextPage, isFetchingNextPage, fetchNextPage]);
  const notListed = searching && !hasNextPage;
  const set = <K extends keyof WithdrawalFilter>(key: K, value: string) =>
    setFilter((f) => ({ ...f, [key]: (value || undefined) as WithdrawalFilter[K] }));

  return (
    <Section header={t("history.header")}>
      {notListed ? (
        <p className="form-error" role="status" data-testid="withdrawal-not-listed">
          {t("history.notListed")}
        </p>
      ) : null}
      <div className="money-filters withdrawal-filters">
        <FilterSelect
          name="currency"
          label={t("history.currency")}
          allLabel={t("history.all")}
          value={filter.currency}
          options={CURRENCY_CODES}
          onChange={(currency) => set("currency", currency ?? "")}
        />
        <FilterSelect
          name="status"
          label={t("history.status")}
          allLabel={t("history.all")}
          value={filter.status}
          options={WITHDRAWAL_STATUSES}
          optionLabel={(status) => t(`withdrawalStatus.${status}`, { ns: "enums" })}
          onChange={(status) => set("status", status ?? "")}
        />
        <DateField
          name="from"
          label={t("history.from")}
          placeholder={t("history.anyDate")}
          value={filter.from ?? ""}
          max={filter.to}
          onValueChange={(value) => set("from", value)}
        />
        <DateField
          name="to"
          label={t("history.to")}
          placeholder={t("history.anyDate")}
          value={filter.to ?? ""}
          min={filter.from}
          error={rangeInverted ? t("history.fromAfterTo") : null}
          onValueChange={(value) => set("to", value)}
        />
      </div>
      <PagedList
        query={list}
        items={withdrawals}
        empty={t("history.empty")}
        filtered={filtered}
        noMatch={t("history.noMatch")}
        loadMore={t("history.loadMore")}
        renderItem={(withdrawal) => (
          <WithdrawalRow
            key={withdrawal.id}
            withdrawal={withdrawal}
            onResume={() => onResume(withdrawal)}
            onOpen={() => setOpenedId(withdrawal.id)}
          />
        )}
      />
      {opened ? (
        <WithdrawalDetails
          withdrawal={opened}
          onClose={() => setOpenedId(null)}
          onResume={() => {
            setOpenedId(null);
            onResume(opened);
          }}
        />
      ) : null}
    </Section>
  );
}

function WithdrawalRow({ withdrawal, onResume, onOpen }: { withdrawal: Withdrawal; onResume(): void; onOpen(): void }) {
  const { t } = useTranslation(["withdrawal", "enums"]);
  const format = useMoneyFormat();
  const { currency } = withdrawal;
  return (
    <div
      className={withdrawal.awaitingCode ? "money-row withdrawal-row withdrawal-awaiting" : "money-row withdrawal-row"}
      data-testid="withdrawal-row"
      data-withdrawal-id={withdrawal.id}
      data-status={withdrawal.status}
      data-awaiting-code={withdrawal.awaitingCode ? "true" : undefined}
      {...amountAttributes(withdrawal.amount, currency)}
    >
      <button
        type="button"
        className="row-open"
        onClick={onOpen}
        aria-haspopup="dialog"
        aria-label={t("details.open", { amount: format.amount(withdrawal.amount, currency) })}
        data-testid="withdrawal-open"
      />
      <span className="money-row-head">
        <span>{format.amount(withdrawal.amount, currency)}</span>
        {withdrawal.awaitingCode ? (
          <span className="status-badge status-awaiting" data-testid="withdrawal-awaiting">
            {t("withdrawalAwaitingCode", { ns: "enums" })}
          </span>
        ) : (
          <span className={`status-badge status-${withdrawal.status}`}>
            {t(`withdrawalStatus.${withdrawal.status}`, { ns: "enums" })}
          </span>
        )}
      </span>
      <dl className="money-facts">
        <div>
          <dt>{t("history.fee")}</dt>
          <dd data-testid="withdrawal-row-fee" {...amountAttributes(withdrawal.fee, currency)}>
            {format.amount(withdrawal.fee, currency, { exact: true })}
          </dd>
        </div>
        <div>
          <dt>{t("history.toReceive")}</dt>
          <dd {...amountAttributes(withdrawal.amountToReceive, currency)}>
            {format.amount(withdrawal.amountToReceive, currency, { exact: true })}
          </dd>
        </div>
        <div>
          <dt>{t("history.wallet")}</dt>
          <dd className="withdrawal-mono" title={withdrawal.wallet} data-testid="withdrawal-wallet">
            {`${shortenMiddle(withdrawal.wallet)} · ${withdrawal.network}`}
          </dd>
        </div>
        {withdrawal.status === "success" && withdrawal.txHash ? (
          <div>
            <dt>{t("history.txHash")}</dt>
            <dd className="withdrawal-mono" title={withdrawal.txHash} data-testid="withdrawal-tx-hash">
              {shortenMiddle(withdrawal.txHash, 8, 6)}
            </dd>
          </div>
        ) : null}
        <div>
          <dt>{t("history.created")}</dt>
          <dd>{format.dateTime(withdrawal.createdAt)}</dd>
        </div>
        {withdrawal.processedAt ? (
          <div>
            <dt>{t("history.processed")}</dt>
            <dd>{format.dateTime(withdrawal.processedAt)}</dd>
          </div>
        ) : null}
      </dl>
      {withdrawal.awaitingCode ? (
        <Button size="s" mode="bezeled" className="row-action" onClick={onResume} data-testid="resume-withdrawal">
          {t("history.enterCode")}
        </Button>
      ) : null}
    </div>
  );
}
