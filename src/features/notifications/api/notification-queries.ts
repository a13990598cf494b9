/**
 * The notifications' data the cabinet's frame needs: the pulse. Keys start with `notifications`; the inbox's and
 * the sheet's calls are in `inbox-queries.ts`, loaded with them.
 */
import { queryOptions } from "@tanstack/react-query";
import { callApi } from "@/lib/api-client";

export const notificationKeys = { all: ["notifications"] } as const;

/**
 * How often the open cabinet asks whether money or news moved, so a credited refill shows within 5 s
 * (docs/decisions.md#live-money).
 */
const PULSE_INTERVAL_MS = 3_000;

export const notificationQueries = {
  /** `GET /user/pulse`, polled while the cabinet is in front (never in the background). */
  pulse: () =>
    queryOptions({
      queryKey: [...notificationKeys.all, "pulse"] as const,
      queryFn: ({ signal }) => callApi("pulse", { signal }),
      refetchInterval: PULSE_INTERVAL_MS,
      refetchIntervalInBackground: false,
      // A missed poll is no news; the next one comes in 3 s.
      retry: false,
      throwOnError: false,
    }),
};
