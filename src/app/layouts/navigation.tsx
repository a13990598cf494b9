import { useQuery } from "@tanstack/react-query";
import { ButtonCell, Cell, List, Section, Tabbar } from "@telegram-apps/telegram-ui";
import type { MouseEvent, ReactNode } from "react";
import { useTranslation } from "react-i18next";
import {
  BotIcon,
  CabinetIcon,
  DepositsIcon,
  LogoutIcon,
  MoreIcon,
  NewsIcon,
  OperationsIcon,
  PartnersIcon,
  RefillIcon,
  SettingsIcon,
  WithdrawalIcon,
} from "@/components/icons";
import { LinkCell } from "@/components/link-cell";
import { paths } from "@/config/paths";
import { useLogout } from "@/features/auth/hooks/use-logout";
import { botLink, settingsQueries } from "@/features/settings/api/settings-queries";
import { useLocation, useNavigate } from "@/lib/router";
import { haptics, useTelegram } from "@/tma/hooks";
import { openTelegramLink } from "@/tma/links";

type NavKey =
  | "cabinet"
  | "refill"
  | "deposits"
  | "partners"
  | "withdrawal"
  | "operations"
  | "settings"
  | "news"
  | "more";

type TabKey = "cabinet" | "refill" | "deposits" | "withdrawal" | "more";

interface NavItem<K extends NavKey = NavKey> {
  key: K;
  to: string;
  icon: (props: { size?: number }) => ReactNode;
}

/** The side bar's entries (Logout follows them; docs/cabinet-rules.md#screens). */
const SIDE_BAR_ITEMS: readonly NavItem[] = [
  { key: "cabinet", to: paths.cabinet, icon: CabinetIcon },
  { key: "refill", to: paths.refill, icon: RefillIcon },
  { key: "deposits", to: paths.deposits, icon: DepositsIcon },
  { key: "partners", to: paths.partners, icon: PartnersIcon },
  { key: "withdrawal", to: paths.withdrawal, icon: WithdrawalIcon },
  { key: "operations", to: paths.operations, icon: OperationsIcon },
  { key: "settings", to: paths.settings, icon: SettingsIcon },
];

/** The narrow-screen tab bar; More leads to everything else. */
const TAB_BAR_ITEMS: readonly NavItem<TabKey>[] = [
  { key: "cabinet", to: paths.cabinet, icon: CabinetIcon },
  { key: "refill", to: paths.refill, icon: RefillIcon },
  { key: "deposits", to: paths.deposits, icon: DepositsIcon },
  { key: "withdrawal", to: paths.withdrawal, icon: WithdrawalIcon },
  { key: "more", to: paths.more, icon: MoreIcon },
];

/** The entries the More screen lists. */
export const MORE_ITEMS: readonly NavItem[] = [
  { key: "partners", to: paths.partners, icon: PartnersIcon },
  { key: "operations", to: paths.operations, icon: OperationsIcon },
  { key: "settings", to: paths.settings, icon: SettingsIcon },
  { key: "news", to: paths.news, icon: NewsIcon },
];

function isActive(to: string, pathname: string): boolean {
  return to === paths.cabinet ? pathname === to : pathname === to || pathname.startsWith(`${to}/`);
}

/** The tab a screen belongs to: its own, else More's (the inbox, opened from the header's bell, is none of them). */
function activeTab(pathname: string): string | undefined {
  if (pathname === paths.notifications) return undefined;
  const direct = TAB_BAR_ITEMS.find((item) => item.key !== "more" && isActive(item.to, pathname));
  return direct ? direct.to : paths.more;
}

export function NavCells({ items, chevron = true }: { items: readonly NavItem[]; chevron?: boolean }) {
  const { t } = useTranslation("nav");
  const { pathname } = useLocation();
  return (
    <>
      {items.map(({ key, to, icon: Icon }) => {
        const active = isActive(to, pathname);
        return (
          <LinkCell
            key={key}
            to={to}
            before={<Icon size={24} />}
            after={chevron ? undefined : null}
            className={active ? "nav-cell nav-cell-active" : "nav-cell"}
            aria-current={active ? "page" : undefined}
          >
            {t(key)}
          </LinkCell>
        );
      })}
    </>
  );
}

/** The chat bot's launch link (docs/cabinet-rules.md#product), from the `botUsername` setting; hidden until known. */
export function BotLinkCell() {
  const { t } = useTranslation("nav");
  const telegram = useTelegram();
  const { data: username } = useQuery(settingsQueries.botUsername());
  if (!username) return null;
  const href = botLink(username);
  const open = (event: MouseEvent) => {
    if (!telegram) return;
    // Inside Telegram the link opens in the client itself instead of leaving the Mini App.
    event.preventDefault();
    openTelegramLink(href);
  };
  return (
    <Cell
      Component="a"
      className="link-cell"
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      onClick={open}
      before={<BotIcon size={24} />}
      description={`@${username}`}
      data-testid="bot-link"
    >
      {t("chatBot")}
    </Cell>
  );
}

export function LogoutCell() {
  const { t } = useTranslation("nav");
  const logout = useLogout();
  return (
    <ButtonCell mode="destructive" before={<LogoutIcon size={24} />} onClick={() => void logout()} data-testid="logout">
      {t("logout")}
    </ButtonCell>
  );
}

export function SideBar() {
  const { t } = useTranslation("nav");
  return (
    <nav className="side-bar" aria-label={t("mainMenu")}>
      <List>
        <Section>
          <NavCells items={SIDE_BAR_ITEMS} chevron={false} />
        </Section>
        <Section>
          <NavCells items={[{ key: "news", to: paths.news, icon: NewsIcon }]} chevron={false} />
          <BotLinkCell />
        </Section>
        <Section>
          <LogoutCell />
        </Section>
      </List>
    </nav>
  );
}

export function BottomTabBar() {
  const { t } = useTranslation("nav");
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const current = activeTab(pathname);
  // A navigation landmark (telegram-ui's bar is a plain block) whose current tab says so (`aria-current`).
  return (
    <nav className="tab-bar-nav" aria-label={t("mainMenu")} data-testid="tab-bar">
      <Tabbar className="tab-bar">
        {TAB_BAR_ITEMS.map(({ key, to, icon: Icon }) => (
          <Tabbar.Item
            key={key}
            text={t(`tabs.${key}`)}
            className="tab-bar-item"
            selected={current === to}
            aria-current={current === to ? "page" : undefined}
            data-testid={`tab-${key}`}
            onClick={() => {
              if (current !== to) haptics.selection();
              navigate(to);
            }}
          >
            <Icon />
          </Tabbar.Item>
        ))}
      </Tabbar>
    </nav>
  );
}
