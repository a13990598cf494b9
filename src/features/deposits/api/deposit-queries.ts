/**
 * Deposits (docs/decisions.md#d6-deposits): the plans on offer, the user's deposits, opening and closing
 * one. Keys start with `deposits` (and `plans`); the money mutations say in `meta.invalidates` what
 * they make stale, and the MutationCache acts on it.
 */
import type { DepositCloseBody, DepositCreateBody, DepositStatus } from "@contract";
import { infiniteQueryOptions, mutationOptions, queryOptions } from "@tanstack/react-query";
import { callApi } from "@/lib/api-client";
import { moneyKeys } from "@/lib/query-keys";

const DEPOSITS_PAGE_LIMIT = 10;
/** Plans and crypto cases change rarely: fresh for 5 minutes. */
const PLANS_STALE_MS = 5 * 60_000;

export const depositQueries = {
  all: () => moneyKeys.deposits,

  plans: () =>
    queryOptions({
      queryKey: [...moneyKeys.deposits, "plans"] as const,
      queryFn: ({ signal }) => callApi("plansAvailable", { signal }),
      staleTime: PLANS_STALE_MS,
    }),

  /** The active crypto cases: curated bundles of plans with a risk level (`GET /crypto-cases/all`). */
  cryptoCases: () =>
    queryOptions({
      queryKey: [...moneyKeys.deposits, "cryptoCases"] as const,
      queryFn: ({ signal }) => callApi("cryptoCases", { signal }),
      staleTime: PLANS_STALE_MS,
    }),

  list: (filter: { status?: DepositStatus } = {}) =>
    infiniteQueryOptions({
      queryKey: [...moneyKeys.deposits, "list", filter] as const,
      queryFn: ({ pageParam, signal }) =>
        callApi("deposits", { query: { ...filter, page: pageParam, limit: DEPOSITS_PAGE_LIMIT }, signal }),
      initialPageParam: 1,
      getNextPageParam: (last) => (last.page * last.limit < last.total ? last.page + 1 : undefined),
    }),
};

/** What a deposit changes: the paying balance, the figures of the cabinet, the ledger and the list. */
const DEPOSIT_INVALIDATES = [
  moneyKeys.balance,
  moneyKeys.statistics,
  moneyKeys.operations,
  moneyKeys.deposits,
] as const;

export const depositMutations = {
  create: () =>
    mutationOptions({
      mutationKey: [...moneyKeys.deposits, "create"],
      mutationFn: (body: DepositCreateBody) => callApi("createDeposit", { body }),
      meta: { invalidates: DEPOSIT_INVALIDATES },
    }),

  close: () =>
    mutationOptions({
      mutationKey: [...moneyKeys.deposits, "close"],
      /** `agreed`: the amounts the investor was shown; the server closes at them or refuses (`amounts_changed`). */
      mutationFn: ({ id, agreed }: { id: string; agreed: DepositCloseBody }) =>
        callApi("closeDeposit", { params: { id }, body: agreed }),
      meta: { invalidates: DEPOSIT_INVALIDATES },
    }),
};
