import { useQuery } from "@tanstack/react-query";
import { Section } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import { LinkCell } from "@/components/link-cell";
import { QuerySection } from "@/components/query-section";
import { paths } from "@/config/paths";
import { AvatarSection } from "@/features/avatar/components/avatar-section";
import { balanceQueries } from "@/features/balance/api/balance-queries";
import { ProfileSection } from "@/features/profile/components/profile-section";
import { BiometricLockCell } from "@/features/security/components/biometric-lock-cell";
import { PasswordSection } from "@/features/security/components/password-section";
import { ChatNotificationsSection, CodeChannelSection } from "@/features/security/components/security-section";
import { LanguageList } from "@/features/settings/components/language-list";
import { SettingsIcon } from "@/features/settings/components/settings-cells";
import { SettingsScreenFrame } from "@/features/settings/components/settings-screen-frame";
import { SubscriptionSection } from "@/features/subscription/components/subscription-section";
import { VerificationSection } from "@/features/verification/components/verification-section";
import { WithdrawalWallet } from "@/features/wallets/components/withdrawal-wallet";
import { withdrawalQueries } from "@/features/withdrawal/api/withdrawal-queries";
import { Link, Navigate, useNavigate, useParams } from "@/lib/router";
import { isSettingsScreen, type SettingsScreen, settingsPath } from "./settings-paths";

/**
 * One screen of Settings' list (`/settings/<screen>`): its title and its sections; a form's save is on
 * Telegram's Main button inside Telegram (the form kit's footer), a button on the web. An unknown screen
 * leads back to the list.
 */
export function SettingsScreenRoute() {
  const { screen } = useParams();
  const { t } = useTranslation("settings");
  if (!isSettingsScreen(screen)) return <Navigate to={paths.settings} replace />;
  return (
    <SettingsScreenFrame key={screen} screen={screen} title={t(`screens.${screen}`)}>
      <ScreenSections screen={screen} />
    </SettingsScreenFrame>
  );
}

function ScreenSections({ screen }: { screen: SettingsScreen }) {
  switch (screen) {
    case "profile":
      return (
        <>
          <AvatarSection />
          <ProfileSection />
        </>
      );
    case "security":
      return <SecurityScreen />;
    case "password":
      return <PasswordSection />;
    case "wallets":
      return <WalletsSection />;
    case "verification":
      return <VerificationSection />;
    case "subscription":
      return <SubscriptionScreen />;
    case "notifications":
      return <ChatNotificationsSection />;
    case "language":
      return <LanguageList />;
  }
}

/** Where codes go and which channels are confirmed; the password; the biometric lock where offered. */
function SecurityScreen() {
  const { t } = useTranslation("settings");
  return (
    <>
      <CodeChannelSection
        links={{
          addPhone: (
            <Link to={settingsPath("profile")} data-testid="add-phone">
              {t("security.addPhone")}
            </Link>
          ),
        }}
      />
      <Section header={t("password.header")}>
        <LinkCell to={settingsPath("password")} before={<SettingsIcon name="password" />} data-settings-cell="password">
          {t("password.submit")}
        </LinkCell>
        <BiometricLockCell />
      </Section>
    </>
  );
}

function SubscriptionScreen() {
  const navigate = useNavigate();
  const balance = useQuery(balanceQueries.balance());
  return <SubscriptionSection balances={balance.data?.currencies} onRefill={() => navigate(paths.refill)} />;
}

/** Payment systems: the withdrawal wallet of each system open for withdrawals, set or changed here. */
function WalletsSection() {
  const { t } = useTranslation("settings");
  const systems = useQuery(withdrawalQueries.paymentSystems());
  return (
    <Section header={t("wallets.header")} footer={t("wallets.hint")} data-section="wallets">
      <QuerySection query={systems} empty={t("wallets.empty")}>
        {(list) =>
          list.map((system) => (
            <div key={system.id} className="settings-wallet" data-payment-system={system.id}>
              <p className="settings-wallet-system">{`${system.currency} · ${system.network}`}</p>
              <WithdrawalWallet system={system} />
            </div>
          ))
        }
      </QuerySection>
    </Section>
  );
}
