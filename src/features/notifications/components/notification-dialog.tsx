import type { Notification } from "@contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button } from "@telegram-apps/telegram-ui";
import { useSetAtom } from "jotai";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Sheet } from "@/components/sheet";
import { paths } from "@/config/paths";
import { useNavigate } from "@/lib/router";
import { updateUserAtom } from "@/lib/session";
import { inboxMutations, inboxQueries, setPulseUnread } from "../api/inbox-queries";
import { notificationKeys } from "../api/notification-queries";
import { notificationPath } from "../lib/target";
import { NotificationRow } from "./notification-row";
import "../notifications.css";

/**
 * The notification sheet (docs/cabinet-rules.md#screens): what arrived while the cabinet is open (`count`, the
 * newest unread), over the screen. Shown is read: it marks exactly those read and, on closing, writes the
 * server's new count into the user object (docs/cabinet-rules.md#sessions) and the bell. Each stays in the inbox,
 * and each opens the screen it concerns.
 */
export function NotificationDialog({ count, onClose }: { count: number; onClose(): void }) {
  const { t } = useTranslation("notifications");
  const client = useQueryClient();
  const navigate = useNavigate();
  const updateUser = useSetAtom(updateUserAtom);
  const list = useQuery(inboxQueries.list());
  const read = useMutation(inboxMutations.read());
  const [shown, setShown] = useState<Notification[] | null>(null);
  const [pendingUnread, setPendingUnread] = useState<number | null>(null);
  const marked = useRef(false);

  useEffect(() => {
    // Only a list fetched now counts: a cached one may predate the notification that opened the sheet.
    if (!list.data || !list.isFetchedAfterMount || marked.current) return;
    marked.current = true;
    const arrived = list.data.items.filter((n) => n.readAt === null).slice(0, count);
    if (arrived.length === 0) {
      onClose();
      return;
    }
    setShown(arrived);
    read.mutate({ ids: arrived.map((n) => n.id) }, { onSuccess: (reply) => setPendingUnread(reply.unread) });
  }, [list.data, list.isFetchedAfterMount, read, count, onClose]);

  const close = (then?: string) => {
    // The count changes only now, so the bell does not move under the sheet.
    if (pendingUnread !== null) {
      updateUser({ notifications: { unread: pendingUnread } });
      setPulseUnread(client, pendingUnread);
    }
    void client.invalidateQueries({ queryKey: [...notificationKeys.all, "inbox"] });
    onClose();
    if (then) navigate(then);
  };

  const otherDialog = useOtherDialogOpen();
  if (!shown || otherDialog) return null;
  return (
    <Sheet onClose={() => close()} data-testid="notification-dialog" aria-label={t("title")}>
      <div className="notification-dialog">
        <h2 className="money-dialog-title">{t("title")}</h2>
        <div className="notification-list">
          {shown.map((n) => (
            <NotificationRow
              key={n.id}
              notification={{ ...n, readAt: n.readAt ?? n.createdAt }}
              onOpen={() => close(notificationPath(n))}
            />
          ))}
        </div>
        <Button size="l" stretched onClick={() => close()} data-testid="notification-close">
          {t("close")}
        </Button>
        <Button
          size="l"
          mode="plain"
          stretched
          onClick={() => close(paths.notifications)}
          data-testid="notification-all"
        >
          {t("all")}
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
