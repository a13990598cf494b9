import { List, Section } from "@telegram-apps/telegram-ui";
import { useAtomValue } from "jotai";
import { useTranslation } from "react-i18next";
import { BrandHeader } from "@/components/brand-header";
import { Page } from "@/components/page";
import { PhoneVerificationForm } from "@/features/auth/components/phone-verification-form";
import { userAtom } from "@/lib/session";
import { LogoutCell } from "../layouts/navigation";

/** Phone verification (its guard lets in only a signed-in user whose phone waits for its code). */
export function PhoneVerificationRoute() {
  const { t } = useTranslation("registration");
  const user = useAtomValue(userAtom);
  return (
    <Page screen="phone-verification" title={t("phoneVerification.title")} className="public-page">
      <BrandHeader tagline={false} />
      <List>
        {user ? <PhoneVerificationForm user={user} /> : null}
        <Section footer={t("phoneVerification.otherAccount")}>
          <LogoutCell />
        </Section>
      </List>
    </Page>
  );
}
