import type { Notification } from "@contract";
import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { Button, Section } from "@telegram-apps/telegram-ui";
import { useSetAtom } from "jotai";
import { memo, useCallback, useRef } from "react";
import { useTranslation } from "react-i18next";
import { PagedList } from "@/components/query-section";
import { usePagesBuilt, useWindowList } from "@/components/window-list";
import { useNavigate } from "@/lib/router";
import { updateUserAtom } from "@/lib/session";
import { inboxMutations, inboxQueries, setPulseUnread } from "../api/inbox-queries";
import { notificationKeys } from "../api/notification-queries";
import { notificationPath } from "../lib/target";
import { NotificationRow } from "./notification-row";
import "../notifications.css";
import { useAheadPages } from "@/components/ahead-pages";

/** A row's height before it is laid out: a title, a line of text and the time. */
const ROW_ESTIMATE_PX = 84;
/** Rows rendered beyond each edge of the screen: a page's worth. */
const OVERSCAN = 20;

/**
 * The inbox: every notification, read and unread (unread marked), newest first, a page at a time. Tapping one
 * marks it read and opens the screen it concerns; one of a kind this app does not know is only marked read.
 * While any is unread, "Mark all as read" marks every one read at once (`POST /notification/read` without ids).
 * Virtualised: only the rows about the screen are in the document, however many pages are loaded.
 */
export function NotificationInbox() {
  const { t } = useTranslation("notifications");
  const list = useAheadPages(useInfiniteQuery(inboxQueries.inbox()));
  // A new page adds its rows; the ones loaded before are not gone through again.
  const items = usePagesBuilt(
    list.data?.pages,
    (): Notification[] => [],
    (built, page) => {
      built.push(...page.items);
      return built;
    },
  );
  const total = list.data?.pages[0]?.total;
  // One function for every row while the inbox lives, so a row already shown is not rendered again by a new page.
  const openNow = useOpenNotification();
  const openRef = useRef(openNow);
  openRef.current = openNow;
  const open = useCallback((notification: Notification) => openRef.current(notification), []);
  const readAll = useReadAll();
  // The server's count of unread (every page's), or an unread row loaded.
  const anyUnread = (list.data?.pages[0]?.unread ?? 0) > 0 || items.some((n) => n.readAt === null);
  return (
    <Section
      header={
        anyUnread ? (
          <div className="inbox-actions">
            <Button
              mode="plain"
              size="s"
              loading={readAll.isPending}
              onClick={() => readAll.mutate({})}
              data-testid="notifications-read-all"
            >
              {t("markAllRead")}
            </Button>
          </div>
        ) : undefined
      }
    >
      <PagedList
        query={list}
        items={items}
        empty={t("empty")}
        loadMore={t("loadMore")}
        renderItems={(notifications) => <InboxRows notifications={notifications} total={total} onOpen={open} />}
      />
    </Section>
  );
}

/** The loaded notifications as a list over the window's scroll, the rows about the screen in the document. */
function InboxRows({
  notifications,
  total,
  onOpen,
}: {
  notifications: readonly Notification[];
  /** Every notification of the investor (the list's size for screen readers), when known. */
  total: number | undefined;
  onOpen(notification: Notification): void;
}) {
  const list = useWindowList<HTMLUListElement>({
    count: notifications.length,
    estimateSize: () => ROW_ESTIMATE_PX,
    getItemKey: (index) => notifications[index]?.id ?? index,
    overscan: OVERSCAN,
  });
  let cursor = 0;
  return (
    <ul ref={list.listRef} className="window-list" style={{ height: list.totalSize }} data-testid="notification-list">
      {list.items.map((item) => {
        const notification = notifications[item.index];
        if (!notification) return null;
        // The rows above this one that are not rendered: their room, as the row's margin.
        const gap = list.startOf(item.index) - cursor;
        cursor = list.endOf(item.index);
        return (
          <li
            key={item.key}
            data-index={item.index}
            ref={list.measure}
            aria-posinset={item.index + 1}
            aria-setsize={total ?? -1}
            style={gap > 0.5 ? { marginTop: gap } : undefined}
          >
            <InboxRow notification={notification} onOpen={onOpen} />
          </li>
        );
      })}
    </ul>
  );
}

/** A notification of the inbox, rendered again only when it changes (read, or another language's text). */
const InboxRow = memo(function InboxRow({
  notification,
  onOpen,
}: {
  notification: Notification;
  onOpen(notification: Notification): void;
}) {
  return <NotificationRow notification={notification} onOpen={() => onOpen(notification)} />;
});

/** A read's reply: the bell and the session's count follow it, and the lists are asked again. */
function useAfterRead(): (reply: { unread: number }) => void {
  const client = useQueryClient();
  const updateUser = useSetAtom(updateUserAtom);
  return ({ unread }) => {
    setPulseUnread(client, unread);
    updateUser({ notifications: { unread } });
    void client.invalidateQueries({ queryKey: notificationKeys.all, refetchType: "all" });
  };
}

/** Marks every notification read. */
function useReadAll() {
  const afterRead = useAfterRead();
  return useMutation({ ...inboxMutations.read(), onSuccess: afterRead });
}

/** Marks a notification read (when it is not yet) and opens its screen. */
function useOpenNotification(): (notification: Notification) => void {
  const navigate = useNavigate();
  const read = useMutation({ ...inboxMutations.readOne(), onSuccess: useAfterRead() });
  return (notification) => {
    if (notification.readAt === null) read.mutate(notification.id);
    const path = notificationPath(notification);
    if (path) navigate(path);
  };
}
