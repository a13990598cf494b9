import { List, Section } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import { LanguageSwitcher } from "@/components/language-switcher";
import { Page } from "@/components/page";
import { AvatarSection } from "@/features/avatar/components/avatar-section";
import { ProfileSection } from "@/features/profile/components/profile-section";
import { PasswordSection } from "@/features/security/components/password-section";
import { SecuritySection } from "@/features/security/components/security-section";
import { VerificationSection } from "@/features/verification/components/verification-section";

/** Settings (spec §2): profile data, avatar, password, security, verification, language, each section saved on its own. */
export function SettingsRoute() {
  const { t } = useTranslation("settings");
  return (
    <Page screen="settings" title={t("title")}>
      <List>
        <ProfileSection />
        <AvatarSection />
        <PasswordSection />
        <SecuritySection />
        <VerificationSection />
        <Section header={t("language.header")} data-section="language">
          <div className="settings-language">
            <LanguageSwitcher />
          </div>
        </Section>
      </List>
    </Page>
  );
}
