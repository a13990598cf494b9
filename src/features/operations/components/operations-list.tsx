import { CURRENCY_CODES, type Currency, LEDGER_OPERATION_TYPES, type LedgerOperationType } from "@contract";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { Button, Section, Select, Skeleton } from "@telegram-apps/telegram-ui";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { Placeholder } from "@/components/placeholder";
import { useApiErrorText } from "@/lib/money";
import { type OperationFilter, operationQueries } from "../api/operation-queries";
import { OperationRow } from "./operation-row";

function Loading() {
  return (
    <div className="money-skeleton">
      <Skeleton visible>
        <div className="skeleton-block" />
      </Skeleton>
    </div>
  );
}

/** Every operation, newest first, with currency and kind filters; more load on demand. */
export function OperationsList() {
  const { t } = useTranslation(["operations", "enums", "common"]);
  const errorText = useApiErrorText();
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
      {list.isPending ? (
        <Loading />
      ) : list.isError && operations.length === 0 ? (
        <Placeholder description={errorText(list.error)}>
          <Button size="s" onClick={() => void list.refetch()}>
            {t("retry", { ns: "common" })}
          </Button>
        </Placeholder>
      ) : operations.length === 0 ? (
        <Placeholder
          description={filter.currency || filter.type ? t("noMatch") : t("empty")}
          data-testid={filter.currency || filter.type ? "list-no-match" : "list-empty"}
        />
      ) : (
        <div data-testid="operations-list">
          {operations.map((operation) => (
            <OperationRow key={operation.id} operation={operation} />
          ))}
          {list.hasNextPage ? (
            <div className="form-actions">
              <Button
                size="m"
                mode="plain"
                stretched
                loading={list.isFetchingNextPage}
                onClick={() => void list.fetchNextPage()}
                data-testid="load-more"
              >
                {t("loadMore")}
              </Button>
            </div>
          ) : null}
        </div>
      )}
    </Section>
  );
}

/** The latest five operations, for the cabinet. */
export function RecentOperations({ header, more, empty }: { header: string; more: ReactNode; empty: string }) {
  const recent = useQuery(operationQueries.recent());
  return (
    <Section header={header}>
      {recent.isPending ? (
        <Loading />
      ) : !recent.data || recent.data.length === 0 ? (
        <Placeholder description={empty} />
      ) : (
        recent.data.map((operation) => <OperationRow key={operation.id} operation={operation} />)
      )}
      {more}
    </Section>
  );
}
