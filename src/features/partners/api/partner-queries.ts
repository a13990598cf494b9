/**
 * Partners (docs/cabinet-rules.md#partners; docs/decisions.md#d6-partners): the caller's referrals (paged,
 * sorted, filtered by line and login), the totals that come with them, and the four turnover bonuses. Keys
 * start with `partners`.
 */
import type { ReferralSort, SortDir } from "@contract";
import { infiniteQueryOptions, keepPreviousData, queryOptions } from "@tanstack/react-query";
import { callApi } from "@/lib/api-client";

/** Rows per request of the infinite list (the contract allows up to 100). */
const REFERRALS_PAGE_LIMIT = 50;

export const partnerKeys = { all: ["partners"] } as const;

export interface ReferralFilter {
  sort: ReferralSort;
  sortDir: SortDir;
  /** A login substring; empty means all. */
  search?: string;
  line?: number;
}

export const partnerQueries = {
  referrals: (filter: ReferralFilter) =>
    infiniteQueryOptions({
      queryKey: [...partnerKeys.all, "referrals", filter] as const,
      queryFn: ({ pageParam, signal }) =>
        callApi("referrals", {
          query: {
            // Keyset paging: each page starts after the previous page's last member.
            after: pageParam,
            limit: REFERRALS_PAGE_LIMIT,
            sort: filter.sort,
            sortDir: filter.sortDir,
            search: filter.search || undefined,
            line: filter.line,
          },
          signal,
        }),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (last) => last.next ?? undefined,
      // A new search or sort keeps the old rows on screen until the new ones arrive.
      placeholderData: keepPreviousData,
    }),

  /** One member of the downline (`GET /user/referral/:id`). */
  referral: (id: string) =>
    queryOptions({
      queryKey: [...partnerKeys.all, "referral", id] as const,
      queryFn: ({ signal }) => callApi("referral", { params: { id }, signal }),
    }),

  bonuses: () =>
    queryOptions({
      queryKey: [...partnerKeys.all, "bonuses"] as const,
      queryFn: ({ signal }) => callApi("bonus", { signal }),
    }),
};
