import { CURRENCY_CODES, REFILL_STATUSES, type Refill } from "@contract";
import { useInfiniteQuery } from "@tanstack/react-query";
import { Section } from "@telegram-apps/telegram-ui";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useAheadItems } from "@/components/ahead-pages";
import { FilterSelect } from "@/components/form/filter-select";
import { PagedList } from "@/components/query-section";
import { amountAttributes, useMoneyFormat } from "@/lib/money";
import { type RefillFilter, refillQueries } from "../api/refill-queries";

/** The user's refills with a currency and a status filter; a row opens the wallet dialog again. */
export function RefillHistory({ onOpen }: { onOpen(refill: Refill): void }) {
  const { t } = useTranslation(["refill", "enums", "common"]);
  const [filter, setFilter] = useState<RefillFilter>({});
  const { list, items: refills } = useAheadItems(useInfiniteQuery(refillQueries.list(filter)), JSON.stringify(filter));

  return (
    <Section header={t("history.header")}>
      <div className="money-filters">
        <FilterSelect
          name="currency"
          label={t("history.currency")}
          allLabel={t("history.all")}
          value={filter.currency}
          options={CURRENCY_CODES}
          onChange={(currency) => setFilter((f) => ({ ...f, currency }))}
        />
        <FilterSelect
          name="status"
          label={t("history.status")}
          allLabel={t("history.all")}
          value={filter.status}
          options={REFILL_STATUSES}
          optionLabel={(status) => t(`refillStatus.${status}`, { ns: "enums" })}
          onChange={(status) => setFilter((f) => ({ ...f, status }))}
        />
      </div>
      <PagedList
        query={list}
        items={refills}
        empty={t("history.empty")}
        filtered={Boolean(filter.currency || filter.status)}
        noMatch={t("history.noMatch")}
        loadMore={t("history.loadMore")}
        renderItem={(refill) => <RefillRow key={refill.id} refill={refill} onOpen={() => onOpen(refill)} />}
      />
    </Section>
  );
}

function RefillRow({ refill, onOpen }: { refill: Refill; onOpen(): void }) {
  const { t } = useTranslation(["refill", "enums"]);
  const format = useMoneyFormat();
  return (
    <button
      type="button"
      className="money-row"
      onClick={onOpen}
      data-testid="refill-row"
      data-refill-id={refill.id}
      data-status={refill.status}
    >
      <span className="money-row-head">
        <span>{`${refill.currency} · ${refill.network}`}</span>
        <span className={`status-badge status-${refill.status}`}>
          {t(`refillStatus.${refill.status}`, { ns: "enums" })}
        </span>
      </span>
      <span className="money-row-sub">
        <span data-testid="refill-requested" {...amountAttributes(refill.amountRequested, refill.currency)}>
          {t("history.requested", { amount: format.amount(refill.amountRequested, refill.currency) })}
        </span>
        {refill.amountCredited !== null ? (
          <span data-testid="refill-credited" {...amountAttributes(refill.amountCredited, refill.currency)}>
            {t("history.credited", { amount: format.amount(refill.amountCredited, refill.currency) })}
          </span>
        ) : null}
      </span>
      <span className="money-row-sub">
        <span>{format.dateTime(refill.createdAt)}</span>
      </span>
    </button>
  );
}
