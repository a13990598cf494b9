/**
 * Refills (docs/decisions.md#d6-refills): payment systems that accept refills, the user's refills, a new
 * refill and its transaction hash. Keys start with `refills`; mutations name in `meta.invalidates`
 * what they make stale (a refill credits the balance only when the operator confirms it).
 */
import { type Currency, type RefillCreateBody, type RefillStatus, TxHashField } from "@contract";
import { infiniteQueryOptions, mutationOptions, queryOptions } from "@tanstack/react-query";
import { callApi } from "@/lib/api-client";
import { moneyKeys } from "@/lib/query-keys";

const REFILLS_PAGE_LIMIT = 10;
const PAYMENT_SYSTEMS_STALE_MS = 5 * 60_000;

export interface RefillFilter {
  currency?: Currency;
  status?: RefillStatus;
}

export const refillQueries = {
  all: () => moneyKeys.refills,

  paymentSystems: () =>
    queryOptions({
      queryKey: [...moneyKeys.refills, "payment-systems"] as const,
      queryFn: ({ signal }) => callApi("paymentSystems", { signal }),
      select: (systems) => systems.filter((system) => system.refillEnabled),
      staleTime: PAYMENT_SYSTEMS_STALE_MS,
    }),

  list: (filter: RefillFilter = {}) =>
    infiniteQueryOptions({
      queryKey: [...moneyKeys.refills, "list", filter] as const,
      queryFn: ({ pageParam, signal }) =>
        callApi("refills", { query: { ...filter, page: pageParam, limit: REFILLS_PAGE_LIMIT }, signal }),
      initialPageParam: 1,
      getNextPageParam: (last) => (last.page * last.limit < last.total ? last.page + 1 : undefined),
    }),

  /** One refill (`GET /funds/refills/:id`), for a deep link to it. */
  one: (id: string) =>
    queryOptions({
      queryKey: [...moneyKeys.refills, "one", id] as const,
      queryFn: ({ signal }) => callApi("refill", { params: { id }, signal }),
    }),
};

export const refillMutations = {
  create: () =>
    mutationOptions({
      mutationKey: [...moneyKeys.refills, "create"],
      mutationFn: (body: RefillCreateBody) => callApi("createRefill", { body }),
      meta: { invalidates: [moneyKeys.refills] },
    }),

  setTxHash: () =>
    mutationOptions({
      mutationKey: [...moneyKeys.refills, "tx-hash"],
      mutationFn: ({ id, txHash }: { id: string; txHash: string }) =>
        callApi("updateRefill", { params: { id }, body: { txHash } }),
      meta: { invalidates: [moneyKeys.refills] },
    }),
};

/** The contract's transaction hash rule (`TxHashField`), to say so before sending. */
export function isTxHash(value: string): boolean {
  return TxHashField.safeParse(value).success;
}
