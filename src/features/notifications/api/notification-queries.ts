/** The notification dialog's data: the list and marking read. Keys start with `notifications`. */
import type { NotificationsReadBody } from "@contract";
import { mutationOptions, queryOptions } from "@tanstack/react-query";
import { callApi } from "@/lib/api-client";

export const notificationKeys = { all: ["notifications"] } as const;

/**
 * How often the open cabinet asks whether money or news moved, so a credited refill shows within 5 s
 * (docs/decisions.md#live-money).
 */
export const PULSE_INTERVAL_MS = 3_000;

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

  list: () =>
    queryOptions({
      queryKey: [...notificationKeys.all, "list"] as const,
      queryFn: ({ signal }) => callApi("notifications", { signal }),
    }),
};

export const notificationMutations = {
  read: () =>
    mutationOptions({
      mutationKey: [...notificationKeys.all, "read"],
      mutationFn: (body: NotificationsReadBody) => callApi("readNotifications", { body }),
    }),
};
