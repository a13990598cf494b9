import { inviterFromStartParam } from "@contract";
import { useQuery } from "@tanstack/react-query";
import { List, Section } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import { BrandHeader } from "@/components/brand-header";
import { LinkCell } from "@/components/link-cell";
import { Page } from "@/components/page";
import { paths } from "@/config/paths";
import { RegisterForm } from "@/features/auth/components/register-form";
import { settingsQueries } from "@/features/settings/api/settings-queries";
import { useReferral } from "@/lib/referral";
import { useParams } from "@/lib/router";
import { useTelegram } from "@/tma/hooks";

/**
 * Registration. Who invites (docs/decisions.md#d4-identity-and-sessions): the path's login
 * (`/register/<login>`), else the Telegram start parameter `ref_<login>`, else a web link's `?ref=<login>` (this
 * URL's, or kept from the link the visitor came by: `useReferral`), else the `defaultInviter` setting.
 */
export function RegisterRoute() {
  // The form's fields and placeholders (`auth`) load in the same wave as the screen's own texts.
  const { t } = useTranslation(["registration", "auth"]);
  const { inviter: fromPath } = useParams();
  const fromTelegram = inviterFromStartParam(useTelegram()?.startParam);
  const fromLink = useReferral();
  const referral = fromPath ?? fromTelegram ?? fromLink;
  const fallback = useQuery({ ...settingsQueries.defaultInviter(), enabled: !referral });
  const inviter = referral ?? (fallback.isError ? null : fallback.data);

  return (
    <Page screen="register" title={t("register.title")} className="public-page">
      <BrandHeader tagline={false} />
      <List>
        <RegisterForm inviter={inviter} inviterLoading={!referral && fallback.isPending} />
        <Section>
          <LinkCell to={paths.login} description={t("register.haveAccount")}>
            {t("register.signIn")}
          </LinkCell>
        </Section>
      </List>
    </Page>
  );
}
