/**
 * The subscription (docs/cabinet-rules.md#product): its options and the activation paid from the balance. Keys start
 * with `subscription`; the activation makes the balance, statistics and operations stale.
 */
import { LocalizedText } from "@contract";
import { mutationOptions, queryOptions } from "@tanstack/react-query";
import { callApi } from "@/lib/api-client";
import { moneyKeys } from "@/lib/query-keys";

const subscriptionKeys = { all: ["subscription"] } as const;

export const subscriptionQueries = {
  options: () =>
    queryOptions({
      queryKey: [...subscriptionKeys.all, "options"] as const,
      queryFn: ({ signal }) => callApi("subscriptionOptions", { signal }),
      staleTime: 5 * 60_000,
    }),
  /** What a subscription gives, in the operator's words (the `subscriptionBenefit` setting); null: not said. */
  benefit: () =>
    queryOptions({
      queryKey: [...subscriptionKeys.all, "benefit"] as const,
      queryFn: ({ signal }) => callApi("setting", { params: { key: "subscriptionBenefit" }, signal }),
      select: (reply) => {
        const parsed = LocalizedText.safeParse(reply.value);
        return parsed.success ? parsed.data : null;
      },
      staleTime: 5 * 60_000,
    }),
};

export const subscriptionMutations = {
  activate: () =>
    mutationOptions({
      mutationKey: [...subscriptionKeys.all, "activate"],
      mutationFn: (optionId: string) => callApi("subscribe", { body: { optionId } }),
      meta: { invalidates: [moneyKeys.balance, moneyKeys.statistics, moneyKeys.operations] },
    }),
};
