import { List } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import { Page } from "@/components/page";
import { NotificationInbox } from "@/features/notifications/components/notification-inbox";

/** The inbox (the header's bell opens it): every notification, each opening the screen it concerns. */
export function NotificationsRoute() {
  const { t } = useTranslation("notifications");
  return (
    <Page screen="notifications" title={t("title")}>
      <List>
        <NotificationInbox />
      </List>
    </Page>
  );
}
