import type { Notification } from "@contract";
import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { Section } from "@telegram-apps/telegram-ui";
import { useSetAtom } from "jotai";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { PagedList } from "@/components/query-section";
import { updateUserAtom } from "@/lib/session";
import { inboxMutations, inboxQueries, setPulseUnread } from "../api/inbox-queries";
import { notificationKeys } from "../api/notification-queries";
import { notificationPath } from "../lib/target";
import { NotificationRow } from "./notification-row";

/**
 * The inbox: every notification, read and unread (unread marked), newest first, a page at a time. Tapping one
 * marks it read and opens the screen it concerns; one of a kind this app does not know is only marked read.
 */
export function NotificationInbox() {
  const { t } = useTranslation("notifications");
  const list = useInfiniteQuery(inboxQueries.inbox());
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  const open = useOpenNotification();
  return (
    <Section>
      <PagedList
        query={list}
        items={items}
        empty={t("empty")}
        loadMore={t("loadMore")}
        renderItem={(notification) => (
          <NotificationRow key={notification.id} notification={notification} onOpen={() => open(notification)} />
        )}
      />
    </Section>
  );
}

/** Marks a notification read (when it is not yet) and opens its screen. */
export function useOpenNotification(): (notification: Notification) => void {
  const client = useQueryClient();
  const navigate = useNavigate();
  const updateUser = useSetAtom(updateUserAtom);
  const read = useMutation({
    ...inboxMutations.readOne(),
    onSuccess: ({ unread }) => {
      setPulseUnread(client, unread);
      updateUser({ notifications: { unread } });
      void client.invalidateQueries({ queryKey: notificationKeys.all, refetchType: "all" });
    },
  });
  return (notification) => {
    if (notification.readAt === null) read.mutate(notification.id);
    const path = notificationPath(notification);
    if (path) navigate(path);
  };
}
