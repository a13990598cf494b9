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
      // Fresh until the money moves (the invalidation above) or for a minute: the cabinet asks for it beside the
      // card's code, and the card, mounting when its code came, read the reply as stale and asked again.
      staleTime: 60_000,
    }),
};
