/** The inbox's and the notification sheet's data (loaded with them, not with the cabinet's frame). */
import type { NotificationsReadBody, PulseReply } from "@contract";
import { infiniteQueryOptions, mutationOptions, type QueryClient, queryOptions } from "@tanstack/react-query";
import { callApi } from "@/lib/api-client";
import { notificationKeys, notificationQueries } from "./notification-queries";

/** Notifications per inbox page. */
const INBOX_PAGE_LIMIT = 20;

export const inboxQueries = {
  /** `GET /notification/inbox`: every notification, read and unread, newest first, a page at a time. */
  inbox: () =>
    infiniteQueryOptions({
      queryKey: [...notificationKeys.all, "inbox"] as const,
      queryFn: ({ pageParam, signal }) =>
        callApi("notificationsInbox", {
          query: pageParam ? { limit: INBOX_PAGE_LIMIT, after: pageParam } : { limit: INBOX_PAGE_LIMIT },
          signal,
        }),
      initialPageParam: "",
      getNextPageParam: (last) => last.next ?? undefined,
    }),

  /** `GET /notification`: the newest 100, what the sheet picks the arrivals from. */
  list: () =>
    queryOptions({
      queryKey: [...notificationKeys.all, "list"] as const,
      queryFn: ({ signal }) => callApi("notifications", { signal }),
    }),
};

export const inboxMutations = {
  /** `POST /notification/:id/read`: one notification, as the inbox opens it. */
  readOne: () =>
    mutationOptions({
      mutationKey: [...notificationKeys.all, "read-one"],
      mutationFn: (id: string) => callApi("readNotification", { params: { id } }),
    }),

  /** `POST /notification/read`: those the sheet showed, or without ids every one (the inbox's Mark all as read). */
  read: () =>
    mutationOptions({
      mutationKey: [...notificationKeys.all, "read"],
      mutationFn: (body: NotificationsReadBody) => callApi("readNotifications", { body }),
    }),
};

/** A read's reply (the new unread count) into the pulse's cached reply: the bell follows now, not at the next poll. */
export function setPulseUnread(client: QueryClient, unread: number): void {
  client.setQueryData<PulseReply>(notificationQueries.pulse().queryKey, (old) => (old ? { ...old, unread } : old));
}
