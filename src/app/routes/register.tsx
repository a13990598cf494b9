import { useQuery } from "@tanstack/react-query";
import { List, Section } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { BrandHeader } from "@/components/brand-header";
import { LinkCell } from "@/components/link-cell";
import { Page } from "@/components/page";
import { paths } from "@/config/paths";
import { InviterCell } from "@/features/auth/components/inviter-cell";
import { settingsQueries } from "@/features/settings/api/settings-queries";

/** Registration: who invites (from `/register/<login>`, else the default inviter); the form comes next. */
export function RegisterRoute() {
  const { t } = useTranslation("auth");
  const { inviter: fromPath } = useParams();
  const fallback = useQuery({ ...settingsQueries.defaultInviter(), enabled: !fromPath });
  const inviter = fromPath ?? fallback.data;

  return (
    <Page screen="register" title={t("register.title")} className="public-page">
      <BrandHeader tagline={false} />
      <List>
        <Section header={t("register.title")}>
          <InviterCell inviter={inviter} loading={!fromPath && fallback.isPending} />
        </Section>
        <Section>
          <LinkCell to={paths.login} description={t("register.haveAccount")}>
            {t("register.signIn")}
          </LinkCell>
        </Section>
      </List>
    </Page>
  );
}
