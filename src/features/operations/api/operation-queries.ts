/**
 * The operations list (`GET /user/operations/`): every ledger entry of the user, newest
 * first, filtered by currency and kind. Keys start with `operations`; money mutations make them stale.
 */
import type { Currency, LedgerOperationType } from "@contract";
import { RECENT_OPERATIONS_QUERY } from "@contract/launch-calls";
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { callApi } from "@/lib/api-client";
import { moneyKeys } from "@/lib/query-keys";

const OPERATIONS_PAGE_LIMIT = 20;
const PAYMENT_SYSTEMS_STALE_MS = 5 * 60_000;

export interface OperationFilter {
  currency?: Currency;
  type?: LedgerOperationType;
}

/** Which page of the list to fetch: its number and, past the first, where it starts (`after`). */
interface OperationsPageParam {
  page: number;
  after?: string;
}

export const operationQueries = {
  all: () => moneyKeys.operations,

  list: (filter: OperationFilter = {}) =>
    infiniteQueryOptions({
      queryKey: [...moneyKeys.operations, "list", filter] as const,
      // Keyset paging: each page starts after the previous page's last operation (`next`).
      queryFn: ({ pageParam, signal }) =>
        callApi("operations", {
          query: { ...filter, page: pageParam.page, limit: OPERATIONS_PAGE_LIMIT, after: pageParam.after },
          signal,
        }),
      initialPageParam: { page: 1 } as OperationsPageParam,
      getNextPageParam: (last): OperationsPageParam | undefined => {
        if (last.next !== undefined) return last.next === null ? undefined : { page: last.page + 1, after: last.next };
        return last.page * last.limit < last.total ? { page: last.page + 1 } : undefined;
      },
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
      queryFn: ({ signal }) => callApi("operations", { query: RECENT_OPERATIONS_QUERY, signal }),
      select: (reply) => reply.items,
    }),

  /** Every payment system with its block explorer's template (`explorerUrl`), refills' and withdrawals' alike. */
  paymentSystems: () =>
    queryOptions({
      queryKey: ["payment-systems", "all"] as const,
      queryFn: ({ signal }) => callApi("paymentSystems", { signal }),
      staleTime: PAYMENT_SYSTEMS_STALE_MS,
    }),

  /** The withdrawal an operation belongs to (`GET /funds/payments/:id`): its status and transaction hash. */
  withdrawal: (id: string) =>
    queryOptions({
      queryKey: [...moneyKeys.withdrawals, "one", id] as const,
      queryFn: ({ signal }) => callApi("withdrawal", { params: { id }, signal }),
    }),

  /** The refill an operation belongs to (`GET /funds/refills/:id`), under the refills' own key for one. */
  refill: (id: string) =>
    queryOptions({
      queryKey: [...moneyKeys.refills, "one", id] as const,
      queryFn: ({ signal }) => callApi("refill", { params: { id }, signal }),
    }),
};
