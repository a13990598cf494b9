import { Title } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import type { PageHeaderProps } from "@/components/page";
import { WIDE_LAYOUT_QUERY } from "@/config/media";
import { isTopLevelPath, paths } from "@/config/paths";
import { NotificationBell } from "@/features/notifications/components/notification-bell";
import { hasInAppHistory } from "@/lib/navigation";
import { Link, useLocation, useNavigate } from "@/lib/router";
import { useMediaQuery } from "@/lib/use-media-query";
import { useTelegram } from "@/tma/hooks";
import { parentOf } from "./root-layout";

/**
 * A cabinet screen's header: the screen's title as its one `h1`, its own actions, and the notification bell.
 * On the web, a screen below the top level gets a back link (inside Telegram, Telegram's Back button does it);
 * with the side bar, only where the side bar does not lead (a news item, the inbox), since the rest are in it.
 */
export function CabinetHeader({ title, heading, actions }: PageHeaderProps) {
  const { t } = useTranslation("nav");
  const location = useLocation();
  const { pathname } = location;
  const navigate = useNavigate();
  const telegram = useTelegram();
  const wide = useMediaQuery(WIDE_LAYOUT_QUERY);
  const parent = parentOf(pathname);
  const back = !telegram && !isTopLevelPath(pathname) && (!wide || parent !== paths.more);
  const shown = heading === undefined ? title : heading;
  const backLink = back ? (
    <Link
      to={parent}
      className="page-back"
      data-testid="page-back"
      onClick={(event) => {
        // Back to where the user came from in the app, as Telegram's Back button does; opened directly, the
        // link's own target (the screen above).
        if (!hasInAppHistory(location)) return;
        event.preventDefault();
        navigate(-1);
      }}
    >
      {t("back")}
    </Link>
  ) : null;
  // A screen that shows its own h1 (a news item) has no title row of its own: the way back and the bell share one.
  return (
    <header className="page-header">
      {shown === null ? null : backLink}
      <div className="page-title-row">
        {shown === null ? (
          backLink
        ) : (
          <Title level="2" weight="2" Component="h1" className="page-title">
            {shown}
          </Title>
        )}
        {actions}
        {pathname === paths.notifications ? null : <NotificationBell />}
      </div>
    </header>
  );
}
