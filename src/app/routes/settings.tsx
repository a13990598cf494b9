import { useQuery } from "@tanstack/react-query";
import { List, Section } from "@telegram-apps/telegram-ui";
import { useAtomValue } from "jotai";
import { useTranslation } from "react-i18next";
import { Page } from "@/components/page";
import { currentLanguage } from "@/config/i18n";
import { profileQueries } from "@/features/profile/api/profile-queries";
import { securityQueries } from "@/features/security/api/security-queries";
import { useCodesGoToText } from "@/features/security/components/security-section";
import { SettingsCell } from "@/features/settings/components/settings-cells";
import { walletQueries } from "@/features/wallets/api/wallet-queries";
import { useMoneyFormat } from "@/lib/money";
import { userAtom } from "@/lib/session";
import { settingsPath } from "./settings-paths";

/**
 * Settings (docs/cabinet-rules.md#screens) as Telegram's own settings: a list of cells, each with a
 * one-line status, each opening its screen (`/settings/<screen>`, `routes/settings-screen.tsx`).
 */
export function SettingsRoute() {
  const { t, i18n } = useTranslation(["settings", "enums", "subscription", "common"]);
  const format = useMoneyFormat();
  const user = useAtomValue(userAtom);
  const profile = useQuery(profileQueries.profile());
  const security = useQuery(securityQueries.settings());
  const wallets = useQuery(walletQueries.list());
  const codesGoTo = useCodesGoToText();

  const verification = profile.data?.verificationStatus;
  const walletCount = wallets.data?.filter((wallet) => wallet.address !== "").length;
  const subscription = user?.subscription;
  const name = user?.fullName ?? profile.data?.fullName ?? user?.login ?? "";
  const avatar = user?.avatarUrl ? (
    <img className="settings-avatar" src={user.avatarUrl} alt="" />
  ) : (
    <span className="settings-avatar" aria-hidden="true">
      {(name || "?").slice(0, 1).toUpperCase()}
    </span>
  );

  return (
    <Page screen="settings" title={t("title")}>
      <List>
        <Section>
          <SettingsCell
            to={settingsPath("profile")}
            icon="profile"
            title={t("list.profile")}
            status={name}
            before={avatar}
          />
        </Section>
        <Section>
          <SettingsCell
            to={settingsPath("security")}
            icon="security"
            title={t("list.security")}
            status={security.data ? codesGoTo(security.data) : null}
          />
          <SettingsCell
            to={settingsPath("wallets")}
            icon="wallets"
            title={t("list.wallets")}
            status={
              walletCount === undefined
                ? null
                : walletCount === 0
                  ? t("list.noWallets")
                  : t("list.walletCount", { count: walletCount })
            }
          />
          <SettingsCell
            to={settingsPath("verification")}
            icon="verification"
            title={t("list.verification")}
            status={
              profile.data
                ? verification
                  ? t(`verificationStatus.${verification}`, { ns: "enums" })
                  : t("verification.notRequested")
                : null
            }
          />
          <SettingsCell
            to={settingsPath("subscription")}
            icon="subscription"
            title={t("list.subscription")}
            status={
              subscription
                ? subscription.active && subscription.until
                  ? t("status.activeUntil", { ns: "subscription", date: format.date(subscription.until) })
                  : t("status.inactive", { ns: "subscription" })
                : null
            }
          />
        </Section>
        <Section>
          <SettingsCell
            to={settingsPath("notifications")}
            icon="notifications"
            title={t("list.notifications")}
            status={
              security.data
                ? security.data.chatLinked && security.data.chatNotifications
                  ? t("list.notificationsOn")
                  : t("list.notificationsOff")
                : null
            }
          />
          <SettingsCell
            to={settingsPath("language")}
            icon="language"
            title={t("list.language")}
            status={t(`languages.${currentLanguage(i18n)}`, { ns: "common" })}
          />
        </Section>
      </List>
    </Page>
  );
}
