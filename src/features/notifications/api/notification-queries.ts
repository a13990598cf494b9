/** The notification dialog's data (spec §7 Other): the list and marking read. Keys start with `notifications`. */
import type { NotificationsReadBody } from "@contract";
import { mutationOptions, queryOptions } from "@tanstack/react-query";
import { callApi } from "@/lib/api-client";

export const notificationKeys = { all: ["notifications"] } as const;

export const notificationQueries = {
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
