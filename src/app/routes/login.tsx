import { Cell, List, Section } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import { BrandHeader } from "@/components/brand-header";
import { LanguageSwitcher } from "@/components/language-switcher";
import { LinkCell } from "@/components/link-cell";
import { Page } from "@/components/page";
import { paths, registerPath } from "@/config/paths";

/**
 * The start screen. The sign-in form (and Telegram sign-in) arrive with the auth endpoints; until then
 * the screen says so plainly.
 */
export function LoginRoute() {
  const { t } = useTranslation(["auth", "common"]);
  return (
    <Page screen="login" title={t("login.title")} className="public-page">
      <BrandHeader />
      <List>
        <Section header={t("login.title")}>
          <Cell multiline className="static-cell hint-cell" data-testid="login-not-available">
            {t("login.formNotAvailable")}
          </Cell>
        </Section>
        <Section>
          <LinkCell to={registerPath()} description={t("login.noAccount")}>
            {t("login.register")}
          </LinkCell>
          <LinkCell to={paths.forgotPassword}>{t("login.forgotPassword")}</LinkCell>
        </Section>
        <Section header={t("language", { ns: "common" })}>
          <div className="section-padding">
            <LanguageSwitcher />
          </div>
        </Section>
      </List>
    </Page>
  );
}
