/**
 * The balance, the cabinet's figures and the exchange (docs/decisions.md#d3-money). Keys start with
 * `balance` or `statistics` (the roots in `lib/money.ts`); money mutations name what they make stale
 * in `meta.invalidates`.
 */
import type { Currency, ExchangeBody } from "@contract";
import { BALANCE_QUERY } from "@contract/launch-calls";
import { mutationOptions, queryOptions } from "@tanstack/react-query";
import { callApi } from "@/lib/api-client";
import { moneyKeys } from "@/lib/query-keys";

/** Rates move: a minute old at most while the exchange dialog is open. */
const EXCHANGE_RATE_STALE_MS = 60_000;

export const balanceQueries = {
  all: () => moneyKeys.balance,

  balance: () =>
    queryOptions({
      queryKey: [...moneyKeys.balance, "balance"] as const,
      queryFn: ({ signal }) => callApi("balance", { query: BALANCE_QUERY, signal }),
    }),

  statistics: () =>
    queryOptions({
      queryKey: [...moneyKeys.statistics] as const,
      queryFn: ({ signal }) => callApi("statistics", { signal }),
    }),

  /**
   * The whole picture (`GET /user/overview`): everything held, in USDT and in the current currency. Its key starts
   * with the balance root, so every money mutation and live credit that makes the balance stale (choosing the
   * current currency among them) makes it stale too. Answered with the launch (`contract/launch-calls.ts`): the card's headline.
   */
  overview: () =>
    queryOptions({
      queryKey: [...moneyKeys.balance, "overview"] as const,
      queryFn: ({ signal }) => callApi("overview", { signal }),
    }),

  exchangeRate: () =>
    queryOptions({
      queryKey: [...moneyKeys.balance, "exchange-rate"] as const,
      queryFn: ({ signal }) => callApi("exchangeRate", { signal }),
      staleTime: EXCHANGE_RATE_STALE_MS,
      refetchInterval: EXCHANGE_RATE_STALE_MS,
    }),
};

export const balanceMutations = {
  /** Chooses the currency the cabinet shows first (no money moves). */
  setCurrency: () =>
    mutationOptions({
      mutationKey: [...moneyKeys.balance, "currency"],
      mutationFn: (currency: Currency) => callApi("setBalanceCurrency", { body: { currency } }),
      // The balance root takes the overview in: its `current` figures are told in the chosen currency.
      meta: { invalidates: [moneyKeys.balance, moneyKeys.statistics] },
    }),

  exchange: () =>
    mutationOptions({
      mutationKey: [...moneyKeys.balance, "exchange"],
      mutationFn: (body: ExchangeBody) => callApi("exchange", { body }),
      meta: { invalidates: [moneyKeys.balance, moneyKeys.statistics, moneyKeys.operations] },
    }),
};
