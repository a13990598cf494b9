/**
 * A paged list one page ahead: while the investor reads the pages shown, the next one is fetched, so "Show more"
 * shows it at once instead of waiting for the network (docs/cabinet-rules.md, "Money"). The query stays the one
 * source of the rows; this only holds back its last page until it is asked for.
 */
import type { InfiniteData, UseInfiniteQueryResult } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useState } from "react";

/**
 * `query` as a list shows it: its pages up to those asked for (the first, then one more per "Show more"), with
 * the page after them fetched ahead. `fetchNextPage` shows the page fetched ahead, or fetches it when it has not
 * come (the button spins until it does: `isFetchingNextPage`). `key` names what the list shows (its filter):
 * another key starts again from one page. A failed fetch ahead is not retried until the investor asks.
 */
export function useAheadPages<TData extends InfiniteData<unknown>, TError>(
  query: UseInfiniteQueryResult<TData, TError>,
  key = "",
): UseInfiniteQueryResult<TData, TError> {
  const [asked, setAsked] = useState({ key, pages: 1 });
  const wanted = asked.key === key ? asked.pages : 1;
  const loaded = query.data?.pages.length ?? 0;
  const shown = Math.min(wanted, loaded);
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = query;

  useEffect(() => {
    if (loaded > 0 && loaded <= wanted && hasNextPage && !isFetchingNextPage && !isFetchNextPageError) {
      void fetchNextPage({ cancelRefetch: false });
    }
  }, [loaded, wanted, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage]);

  const data = useMemo(
    () =>
      query.data && shown < loaded
        ? { ...query.data, pages: query.data.pages.slice(0, shown), pageParams: query.data.pageParams.slice(0, shown) }
        : query.data,
    [query.data, shown, loaded],
  );

  const showMore = useCallback(() => {
    setAsked((current) => ({ key, pages: (current.key === key ? current.pages : 1) + 1 }));
    // Not come yet (or its fetch failed): asked for now; a fetch under way is joined, not started again.
    if (loaded <= wanted) return fetchNextPage({ cancelRefetch: false });
    return Promise.resolve(query);
  }, [key, loaded, wanted, fetchNextPage, query]);

  return {
    ...query,
    data,
    hasNextPage: loaded > shown || hasNextPage,
    isFetchingNextPage: wanted > loaded && isFetchingNextPage,
    fetchNextPage: showMore,
  } as UseInfiniteQueryResult<TData, TError>;
}

/**
 * `useAheadPages` for a list whose pages hold `items`: the query as the list shows it, and the items of the pages
 * it shows, in order (the same array while those pages are the same).
 */
export function useAheadItems<TPage extends { items: unknown[] }, TError>(
  query: UseInfiniteQueryResult<InfiniteData<TPage>, TError>,
  key = "",
): { list: UseInfiniteQueryResult<InfiniteData<TPage>, TError>; items: TPage["items"] } {
  const list = useAheadPages(query, key);
  const items = useMemo(() => list.data?.pages.flatMap((page) => page.items) ?? [], [list.data]);
  return { list, items };
}
