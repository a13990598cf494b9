import type { Notification } from "@contract";
import { useMutation, useQuery } from "@tanstack/react-query";
import { Button } from "@telegram-apps/telegram-ui";
import { useSetAtom } from "jotai";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Sheet } from "@/components/sheet";
import { currentLanguage } from "@/config/i18n";
import { formatDateTime } from "@/lib/dates";
import { updateUserAtom } from "@/lib/session";
import { notificationMutations, notificationQueries } from "../api/notification-queries";

/**
 * The notification dialog (docs/cabinet-rules.md#screens): mounted while the user object counts unread
 * notifications. It shows the unread ones, marks exactly those read, and writes the server's new count into the
 * user object in place (docs/cabinet-rules.md#sessions), which unmounts it once the user closes it.
 */
export function NotificationDialog() {
  const { t, i18n } = useTranslation("notifications");
  const language = currentLanguage(i18n);
  const updateUser = useSetAtom(updateUserAtom);
  const list = useQuery(notificationQueries.list());
  const read = useMutation(notificationMutations.read());
  const [shown, setShown] = useState<Notification[] | null>(null);
  const [open, setOpen] = useState(true);
  const [pendingUnread, setPendingUnread] = useState<number | null>(null);
  const marked = useRef(false);

  useEffect(() => {
    // Only a list fetched now counts: a cached one may predate the notification that opened the dialog.
    if (!list.data || !list.isFetchedAfterMount || marked.current) return;
    const unread = list.data.items.filter((n) => n.readAt === null);
    if (unread.length === 0) {
      updateUser({ notifications: { unread: 0 } });
      return;
    }
    marked.current = true;
    setShown(unread);
    read.mutate({ ids: unread.map((n) => n.id) }, { onSuccess: (reply) => setPendingUnread(reply.unread) });
  }, [list.data, list.isFetchedAfterMount, read, updateUser]);

  const close = () => {
    setOpen(false);
    // The count changes only now, so the dialog does not vanish under the user's eyes.
    updateUser({ notifications: { unread: pendingUnread ?? 0 } });
  };

  const otherDialog = useOtherDialogOpen();
  if (!shown || !open || otherDialog) return null;
  return (
    <Sheet onClose={close} data-testid="notification-dialog">
      <div className="notification-dialog">
        <h2 className="money-dialog-title">{t("title")}</h2>
        <ul className="notification-list">
          {shown.map((n) => (
            <li key={n.id} className="notification" data-testid="notification" data-kind={n.kind}>
              <strong>{n.title}</strong>
              <p>{n.body}</p>
              <time dateTime={n.createdAt}>{formatDateTime(n.createdAt, language)}</time>
            </li>
          ))}
        </ul>
        <Button size="l" stretched onClick={close} data-testid="notification-close">
          {t("close")}
        </Button>
      </div>
    </Sheet>
  );
}

/**
 * Whether another dialog (a sheet the user is working in) is open. The notifications wait for it to
 * close: a payment's own success message is not covered by the notification that follows it.
 */
function otherDialogShown(): boolean {
  return document.querySelector("[role='dialog']:not([data-testid='notification-dialog'])") !== null;
}

function useOtherDialogOpen(): boolean {
  const find = otherDialogShown;
  const [open, setOpen] = useState(find);
  useEffect(() => {
    const observer = new MutationObserver(() => setOpen(find()));
    observer.observe(document.body, { childList: true, subtree: true });
    setOpen(find());
    return () => observer.disconnect();
  }, []);
  return open;
}
