import { useQuery } from "@tanstack/react-query";
import { useAtomValue } from "jotai";
import { useTranslation } from "react-i18next";
import { paths } from "@/config/paths";
import { Link } from "@/lib/router";
import { userAtom } from "@/lib/session";
import { notificationQueries } from "../api/notification-queries";
import { unreadBadge } from "../lib/badge";

/**
 * The unread notifications as the cabinet knows them now: the live refresh's latest pulse (it polls; this only
 * reads its cache), else the user object's count from the sign-in.
 */
function useUnreadCount(): number {
  const user = useAtomValue(userAtom);
  const { data } = useQuery({ ...notificationQueries.pulse(), enabled: false });
  return data?.unread ?? user?.notifications.unread ?? 0;
}

/**
 * The header's bell: opens the inbox; its name says how many notifications are unread, and a badge shows the
 * number. The bell and the badge are drawn by the style sheet (`.notification-bell`, the badge from
 * `data-count`), which keeps the cabinet's launch code small.
 */
export function NotificationBell() {
  const { t } = useTranslation("nav");
  const unread = useUnreadCount();
  return (
    <Link
      to={paths.notifications}
      className="notification-bell"
      aria-label={unread > 0 ? t("notificationsUnread", { count: unread }) : t("notifications")}
      data-testid="notification-bell"
      data-count={unreadBadge(unread)}
    />
  );
}
