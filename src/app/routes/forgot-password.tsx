import { List, Section } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import { BrandHeader } from "@/components/brand-header";
import { LinkCell } from "@/components/link-cell";
import { Page } from "@/components/page";
import { paths } from "@/config/paths";
import { ForgotPasswordFlow } from "@/features/auth/components/forgot-password-flow";

export function ForgotPasswordRoute() {
  // The form's fields and placeholders (`auth`) load in the same wave as the screen's own texts.
  const { t } = useTranslation(["recovery", "auth"]);
  return (
    <Page screen="forgot-password" title={t("forgotPassword.title")} className="public-page">
      <BrandHeader tagline={false} />
      <List>
        <ForgotPasswordFlow />
        <Section>
          <LinkCell to={paths.login}>{t("forgotPassword.backToLogin")}</LinkCell>
        </Section>
      </List>
    </Page>
  );
}
