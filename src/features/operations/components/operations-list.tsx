import { CURRENCY_CODES, LEDGER_OPERATION_TYPES } from "@contract/enum-values";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { Section } from "@telegram-apps/telegram-ui";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { FilterSelect } from "@/components/form/filter-select";
import { PagedList, QuerySection } from "@/components/query-section";
import { useMoneyFormat } from "@/lib/money";
import { type OperationFilter, operationQueries } from "../api/operation-queries";
import { formatDay } from "../model/day-format";
import { groupByDay, type OperationDay, relativeDay } from "../model/day-groups";
import { OperationRow } from "./operation-row";

/** Every operation, newest first, under a heading per day, with currency and kind filters; more load on demand. */
export function OperationsList() {
  const { t } = useTranslation(["operations", "enums", "common"]);
  const [filter, setFilter] = useState<OperationFilter>({});
  const list = useInfiniteQuery(operationQueries.list(filter));
  const operations = list.data?.pages.flatMap((page) => page.items) ?? [];
  const days = groupByDay(operations);
  return (
    <Section>
      <div className="money-filters">
        <FilterSelect
          name="currency"
          label={t("filters.currency")}
          allLabel={t("filters.all")}
          value={filter.currency}
          options={CURRENCY_CODES}
          onChange={(currency) => setFilter((f) => ({ ...f, currency }))}
        />
        <FilterSelect
          name="type"
          label={t("filters.type")}
          allLabel={t("filters.all")}
          value={filter.type}
          options={LEDGER_OPERATION_TYPES}
          optionLabel={(type) => t(`ledgerOperationType.${type}`, { ns: "enums" })}
          onChange={(type) => setFilter((f) => ({ ...f, type }))}
        />
      </div>
      <PagedList
        query={list}
        items={days}
        empty={t("empty")}
        filtered={Boolean(filter.currency || filter.type)}
        noMatch={t("noMatch")}
        loadMore={t("loadMore")}
        testId="operations-list"
        renderItem={(day) => <DayGroup key={day.day} day={day} />}
      />
    </Section>
  );
}

/** One day's operations under its sticky heading: "Today", "Yesterday", else the date in the user's language. */
function DayGroup({ day }: { day: OperationDay }) {
  const { t } = useTranslation("operations");
  const { lng } = useMoneyFormat();
  const relative = relativeDay(day.day);
  // Local noon: the same calendar day whatever the time zone's offset.
  const label = relative ? t(`day.${relative}`) : formatDay(`${day.day}T12:00:00`, lng);
  return (
    <section className="operation-day-group" aria-label={label} data-testid="operation-day" data-day={day.day}>
      <h2 className="operation-day">{label}</h2>
      {day.operations.map((operation) => (
        <OperationRow key={operation.id} operation={operation} timeOnly />
      ))}
    </section>
  );
}

/** The latest five operations, for the cabinet. */
export function RecentOperations({ header, more, empty }: { header: string; more: ReactNode; empty: string }) {
  const recent = useQuery(operationQueries.recent());
  return (
    <Section header={header}>
      <QuerySection query={recent} empty={empty}>
        {(operations) => operations.map((operation) => <OperationRow key={operation.id} operation={operation} />)}
      </QuerySection>
      {more}
    </Section>
  );
}
