/**
 * The operations list (`GET /user/operations/`): every ledger entry of the user, newest
 * first, filtered by currency and kind. Keys start with `operations`; money mutations make them stale.
 */
import type { Currency, LedgerOperationType } from "@contract";
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { callApi } from "@/lib/api-client";
import { moneyKeys } from "@/lib/query-keys";

export const OPERATIONS_PAGE_LIMIT = 20;
export const RECENT_OPERATIONS_LIMIT = 5;

export interface OperationFilter {
  currency?: Currency;
  type?: LedgerOperationType;
}

export const operationQueries = {
  all: () => moneyKeys.operations,

  list: (filter: OperationFilter = {}) =>
    infiniteQueryOptions({
      queryKey: [...moneyKeys.operations, "list", filter] as const,
      queryFn: ({ pageParam, signal }) =>
        callApi("operations", { query: { ...filter, page: pageParam, limit: OPERATIONS_PAGE_LIMIT }, signal }),
      initialPageParam: 1,
      getNextPageParam: (last) => (last.page * last.limit < last.total ? last.page + 1 : undefined),
    }),

  /** Operations of the deposits opened through a crypto case (`GET /user/case-operations`). */
  caseList: (filter: { caseId?: string } = {}) =>
    infiniteQueryOptions({
      queryKey: [...moneyKeys.operations, "cases", filter] as const,
      queryFn: ({ pageParam, signal }) =>
        callApi("caseOperations", {
          query: { ...filter, page: pageParam, limit: OPERATIONS_PAGE_LIMIT },
          signal,
        }),
      initialPageParam: 1,
      getNextPageParam: (last) => (last.page * last.limit < last.total ? last.page + 1 : undefined),
    }),

  recent: () =>
    queryOptions({
      queryKey: [...moneyKeys.operations, "recent"] as const,
      queryFn: ({ signal }) => callApi("operations", { query: { page: 1, limit: RECENT_OPERATIONS_LIMIT }, signal }),
      select: (reply) => reply.items,
    }),
};
