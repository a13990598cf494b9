/**
 * The cabinet's whole picture (`GET /user/overview`). The key starts with the balance root, so every money
 * mutation and live credit that makes the balance stale makes it stale too.
 */
import { queryOptions } from "@tanstack/react-query";
import { callApi } from "@/lib/api-client";
import { moneyKeys } from "@/lib/query-keys";

export const overviewQueries = {
  overview: () =>
    queryOptions({
      queryKey: [...moneyKeys.balance, "overview"] as const,
      queryFn: ({ signal }) => callApi("overview", { signal }),
    }),
};
