/**
 * The income by day (`GET /user/income`) for the cabinet's chart. The key starts with the balance root, so
 * every money mutation and live credit that makes the balance stale makes it stale too.
 */
import type { IncomePeriod } from "@contract";
import { queryOptions } from "@tanstack/react-query";
import { callApi } from "@/lib/api-client";
import { moneyKeys } from "@/lib/query-keys";

export const incomeQueries = {
  income: (period: IncomePeriod) =>
    queryOptions({
      queryKey: [...moneyKeys.balance, "income", period] as const,
      queryFn: ({ signal }) => callApi("income", { query: { period }, signal }),
      // Fresh until the money moves (the invalidation above) or for a minute: the cabinet asks for the chart's
      // data beside its code, and the chart, mounting when its code comes, read a reply a moment old as stale
      // and asked again (two identical calls in every launch).
      staleTime: 60_000,
    }),
};
