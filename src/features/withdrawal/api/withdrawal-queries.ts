/**
 * Withdrawals (docs/decisions.md#d6-withdrawals, #d5-codes): the payment systems open for withdrawals, the
 * user's applications, and the steps of one (request → code → validated; resend, cancel). Keys start
 * with `withdrawals`; each money step names in `meta.invalidates` what it makes stale: a request
 * reserves the amount at once, a cancel returns it.
 */
import type { Currency, WithdrawalRequestBody, WithdrawalStatus } from "@contract";
import { infiniteQueryOptions, mutationOptions, queryOptions } from "@tanstack/react-query";
import { callApi } from "@/lib/api-client";
import { moneyKeys } from "@/lib/query-keys";

const WITHDRAWALS_PAGE_LIMIT = 10;
const PAYMENT_SYSTEMS_STALE_MS = 5 * 60_000;

export const withdrawalKeys = { all: moneyKeys.withdrawals } as const;

/** Everything a withdrawal step changes: the balance, the statistics, the operations and this history. */
const WITHDRAWAL_INVALIDATES = [
  moneyKeys.balance,
  moneyKeys.statistics,
  moneyKeys.operations,
  withdrawalKeys.all,
] as const;

export interface WithdrawalFilter {
  currency?: Currency;
  status?: WithdrawalStatus;
  /** `YYYY-MM-DD`, inclusive. */
  from?: string;
  /** `YYYY-MM-DD`, inclusive. */
  to?: string;
}

export const withdrawalQueries = {
  all: () => withdrawalKeys.all,

  paymentSystems: () =>
    queryOptions({
      queryKey: [...withdrawalKeys.all, "payment-systems"] as const,
      queryFn: ({ signal }) => callApi("paymentSystems", { signal }),
      select: (systems) => systems.filter((system) => system.withdrawalEnabled),
      staleTime: PAYMENT_SYSTEMS_STALE_MS,
    }),

  list: (filter: WithdrawalFilter = {}) =>
    infiniteQueryOptions({
      queryKey: [...withdrawalKeys.all, "list", filter] as const,
      queryFn: ({ pageParam, signal }) =>
        callApi("withdrawals", { query: { ...filter, page: pageParam, limit: WITHDRAWALS_PAGE_LIMIT }, signal }),
      initialPageParam: 1,
      getNextPageParam: (last) => (last.page * last.limit < last.total ? last.page + 1 : undefined),
    }),
};

export const withdrawalMutations = {
  request: () =>
    mutationOptions({
      mutationKey: [...withdrawalKeys.all, "request"],
      mutationFn: (body: WithdrawalRequestBody) => callApi("requestWithdrawal", { body }),
      meta: { invalidates: WITHDRAWAL_INVALIDATES },
    }),

  /** The code of one application (the form kit's `CodeStep` sends the code alone). */
  validate: (withdrawalId: string) =>
    mutationOptions({
      mutationKey: [...withdrawalKeys.all, "validate"],
      mutationFn: (code: string) => callApi("validateWithdrawal", { body: { withdrawalId, code } }),
      meta: { invalidates: WITHDRAWAL_INVALIDATES },
    }),

  resend: (id: string) =>
    mutationOptions({
      mutationKey: [...withdrawalKeys.all, "resend"],
      mutationFn: () => callApi("resendWithdrawalCode", { params: { id } }),
    }),

  cancel: () =>
    mutationOptions({
      mutationKey: [...withdrawalKeys.all, "cancel"],
      mutationFn: (id: string) => callApi("cancelWithdrawal", { params: { id } }),
      meta: { invalidates: WITHDRAWAL_INVALIDATES },
    }),
};
