import { CURRENCY_CODES, type Currency, LEDGER_OPERATION_TYPES, type LedgerOperationType } from "@contract";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { Section } from "@telegram-apps/telegram-ui";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { Select } from "@/components/form/select";
import { PagedList, QuerySection } from "@/components/query-section";
import { type OperationFilter, operationQueries } from "../api/operation-queries";
import { OperationRow } from "./operation-row";

/** Every operation, newest first, with currency and kind filters; more load on demand. */
export function OperationsList() {
  const { t } = useTranslation(["operations", "enums", "common"]);
  const [filter, setFilter] = useState<OperationFilter>({});
  const list = useInfiniteQuery(operationQueries.list(filter));
  const operations = list.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <Section>
      <div className="money-filters">
        <Select
          header={t("filters.currency")}
          aria-label={t("filters.currency")}
          name="currency"
          value={filter.currency ?? ""}
          onChange={(e) =>
            setFilter((f) => ({ ...f, currency: (e.target.value || undefined) as Currency | undefined }))
          }
        >
          <option value="">{t("filters.all")}</option>
          {CURRENCY_CODES.map((code) => (
            <option key={code} value={code}>
              {code}
            </option>
          ))}
        </Select>
        <Select
          header={t("filters.type")}
          aria-label={t("filters.type")}
          name="type"
          value={filter.type ?? ""}
          onChange={(e) =>
            setFilter((f) => ({ ...f, type: (e.target.value || undefined) as LedgerOperationType | undefined }))
          }
        >
          <option value="">{t("filters.all")}</option>
          {LEDGER_OPERATION_TYPES.map((type) => (
            <option key={type} value={type}>
              {t(`ledgerOperationType.${type}`, { ns: "enums" })}
            </option>
          ))}
        </Select>
      </div>
      <PagedList
        query={list}
        items={operations}
        empty={t("empty")}
        filtered={Boolean(filter.currency || filter.type)}
        noMatch={t("noMatch")}
        loadMore={t("loadMore")}
        testId="operations-list"
        renderItem={(operation) => <OperationRow key={operation.id} operation={operation} />}
      />
    </Section>
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
