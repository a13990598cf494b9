import { useQuery } from "@tanstack/react-query";
import { List, Section } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { LanguageSwitcher } from "@/components/language-switcher";
import { Page } from "@/components/page";
import { QuerySection } from "@/components/query-section";
import { paths } from "@/config/paths";
import { AvatarSection } from "@/features/avatar/components/avatar-section";
import { balanceQueries } from "@/features/balance/api/balance-queries";
import { ProfileSection } from "@/features/profile/components/profile-section";
import { PasswordSection } from "@/features/security/components/password-section";
import { SecuritySection } from "@/features/security/components/security-section";
import { SubscriptionSection } from "@/features/subscription/components/subscription-section";
import { VerificationSection } from "@/features/verification/components/verification-section";
import { WithdrawalWallet } from "@/features/wallets/components/withdrawal-wallet";
import { withdrawalQueries } from "@/features/withdrawal/api/withdrawal-queries";

/**
 * Settings (docs/cabinet-rules.md#screens): profile data, avatar, password, security, verification, the
 * subscription's status, withdrawal wallets, language, each section saved on its own.
 */
export function SettingsRoute() {
  const { t } = useTranslation("settings");
  const navigate = useNavigate();
  const balance = useQuery(balanceQueries.balance());
  return (
    <Page screen="settings" title={t("title")}>
      <List>
        <ProfileSection />
        <AvatarSection />
        <PasswordSection />
        <SecuritySection />
        <VerificationSection />
        <SubscriptionSection balances={balance.data?.currencies} onRefill={() => void navigate(paths.refill)} />
        <WalletsSection />
        <Section header={t("language.header")} data-section="language">
          <div className="settings-language">
            <LanguageSwitcher />
          </div>
        </Section>
      </List>
    </Page>
  );
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
