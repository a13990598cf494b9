import type { Notification } from "@contract";
import { useTranslation } from "react-i18next";
import { currentLanguage } from "@/config/i18n";
import { formatDateTime } from "@/lib/dates";
import { notificationPath } from "../lib/target";
import { NotificationIcon } from "./notification-icon";
import "../notifications.css";

/**
 * One notification, in the inbox and in the sheet: a button that opens it, its kind's icon first and a chevron
 * when it opens a screen; unread ones marked (dot, bold, said).
 */
export function NotificationRow({ notification, onOpen }: { notification: Notification; onOpen(): void }) {
  const { t, i18n } = useTranslation("notifications");
  const unread = notification.readAt === null;
  return (
    <button
      type="button"
      className={unread ? "notification-row notification-unread" : "notification-row"}
      onClick={onOpen}
      data-testid="notification"
      data-notification-id={notification.id}
      data-kind={notification.kind}
      data-unread={unread}
    >
      <NotificationIcon kind={notification.kind} />
      <span className="notification-row-text">
        <span className="notification-row-head">
          {unread ? <span className="notification-dot" aria-hidden="true" /> : null}
          <strong className="notification-row-title">{notification.title}</strong>
          {unread ? <span className="visually-hidden">{t("unread")}</span> : null}
        </span>
        <span className="notification-row-body">{notification.body}</span>
        <time className="notification-row-time" dateTime={notification.createdAt}>
          {formatDateTime(notification.createdAt, currentLanguage(i18n))}
        </time>
      </span>
      {notificationPath(notification) ? (
        <span className="notification-chevron" data-testid="notification-chevron" aria-hidden="true" />
      ) : null}
    </button>
  );
}
