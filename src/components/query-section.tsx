/**
 * The states of remote data, in one place (docs/decisions.md#remote-data-states): a skeleton while loading, the
 * error with Try again when nothing could be loaded, the empty state (with its own text when a filter hides
 * every row), a stale mark when a refresh failed over data already shown, and "load more" for pages.
 * `QuerySection` is for one query; `PagedList` for an infinite (paged) one.
 */
import type { UseInfiniteQueryResult, UseQueryResult } from "@tanstack/react-query";
import { Button, Section, Skeleton } from "@telegram-apps/telegram-ui";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useApiErrorText } from "@/lib/error-text";
import { useMainButton, usePlaceholder } from "@/tma/hooks";
import { useOnline } from "./offline-banner";
import { Placeholder } from "./placeholder";

function LoadingBlock() {
  return (
    <div className="money-skeleton" data-testid="loading">
      <Skeleton visible>
        <div className="skeleton-block" />
      </Skeleton>
    </div>
  );
}

/** A tall block's place while it loads. */
export function TallSkeleton() {
  return (
    <Skeleton visible>
      <div className="skeleton-block skeleton-tall" />
    </Skeleton>
  );
}

/**
 * A form's place while what it offers (payment systems, plans) loads: its section, a tall skeleton. Inside Telegram
 * it holds the form's Main button too, with its loader (the bottom bar and Back the form will have, from the start),
 * and marks the screen as still coming in (`usePlaceholder`): Back does not hide meanwhile.
 */
export function FormSkeleton({ header, action }: { header: string; action: string }) {
  usePlaceholder();
  useMainButton({ text: action, loading: true, onClick: () => {} });
  return (
    <Section header={header}>
      <div className="money-skeleton" data-testid="loading">
        <TallSkeleton />
      </div>
    </Section>
  );
}

function ErrorWithRetry({ error, onRetry }: { error: unknown; onRetry(): void }) {
  const { t } = useTranslation("common");
  const errorText = useApiErrorText();
  return (
    <Placeholder description={errorText(error)} data-testid="query-error">
      <Button size="s" onClick={onRetry}>
        {t("retry")}
      </Button>
    </Placeholder>
  );
}

/** "Could not refresh": the rows shown are the last ones loaded. Offline, the offline banner alone says it. */
function StaleMark() {
  const { t } = useTranslation("money");
  if (!useOnline()) return null;
  return (
    <p className="stale-mark" data-testid="stale" role="status">
      {t("stale")}
    </p>
  );
}

interface EmptyTexts {
  /** Nothing at all yet. */
  empty: string;
  /** A filter is active (the empty state then says that nothing matches it). */
  filtered?: boolean;
  noMatch?: string;
}

function Empty({ empty, filtered = false, noMatch }: EmptyTexts) {
  const matchless = filtered && noMatch !== undefined;
  return (
    <Placeholder description={matchless ? noMatch : empty} data-testid={matchless ? "list-no-match" : "list-empty"} />
  );
}

/** One query's data, or its loading, error and empty states. */
export function QuerySection<T>({
  query,
  isEmpty = (data) => Array.isArray(data) && data.length === 0,
  loading = <LoadingBlock />,
  children,
  ...texts
}: EmptyTexts & {
  query: UseQueryResult<T>;
  isEmpty?: (data: T) => boolean;
  /** What stands in while loading (a form's section: `FormSkeleton`). */
  loading?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return loading;
  if (query.isError && query.data === undefined)
    return <ErrorWithRetry error={query.error} onRetry={() => void query.refetch()} />;
  const data = query.data as T;
  if (isEmpty(data)) return <Empty {...texts} />;
  return (
    <>
      {query.isRefetchError ? <StaleMark /> : null}
      {children(data)}
    </>
  );
}

/**
 * The rows of a paged query, with "load more" while the server has more: each item by `renderItem`, or all of
 * them by `renderItems` (a virtualised list, components/window-list.ts).
 */
export function PagedList<T>({
  query,
  items,
  loadMore,
  renderItem,
  renderItems,
  testId,
  ...texts
}: EmptyTexts & {
  query: UseInfiniteQueryResult<unknown>;
  items: readonly T[];
  loadMore: string;
  testId?: string;
} & (
    | { renderItem: (item: T) => ReactNode; renderItems?: never }
    | { renderItems: (items: readonly T[]) => ReactNode; renderItem?: never }
  )) {
  if (query.isPending) return <LoadingBlock />;
  if (query.isError && items.length === 0)
    return <ErrorWithRetry error={query.error} onRetry={() => void query.refetch()} />;
  if (items.length === 0) return <Empty {...texts} />;
  return (
    <div data-testid={testId}>
      {query.isRefetchError ? <StaleMark /> : null}
      {renderItems ? renderItems(items) : items.map((item) => renderItem?.(item))}
      {query.hasNextPage ? (
        <div className="form-actions">
          <Button
            size="m"
            mode="plain"
            stretched
            loading={query.isFetchingNextPage}
            onClick={() => void query.fetchNextPage()}
            data-testid="load-more"
          >
            {loadMore}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
