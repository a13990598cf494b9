/**
 * The cabinet's whole picture (`GET /user/overview`) and its income by day (`GET /user/income`). Both keys
 * start with the balance root, so every money mutation and live credit that makes the balance stale makes
 * these stale too.
 */
import type { IncomePeriod } from "@contract";
import { queryOptions } from "@tanstack/react-query";
import { callApi } from "@/lib/api-client";
import { moneyKeys } from "@/lib/query-keys";

export const overviewQueries = {
  overview: () =>
    queryOptions({
      queryKey: [...moneyKeys.balance, "overview"] as const,
      queryFn: ({ signal }) => callApi("overview", { signal }),
    }),

  income: (period: IncomePeriod) =>
    queryOptions({
      queryKey: [...moneyKeys.balance, "income", period] as const,
      queryFn: ({ signal }) => callApi("income", { query: { period }, signal }),
    }),
};
