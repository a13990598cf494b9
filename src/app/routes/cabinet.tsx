import { Title } from "@telegram-apps/telegram-ui";
import { useAtomValue } from "jotai";
import { useTranslation } from "react-i18next";
import { CabinetIcon } from "@/components/icons";
import { NotAvailableYet } from "@/components/not-available";
import { Page } from "@/components/page";
import { userAtom } from "@/lib/session";

export function CabinetRoute() {
  const { t } = useTranslation("cabinet");
  const user = useAtomValue(userAtom);
  return (
    <Page screen="cabinet" title={t("title")}>
      {user ? (
        <Title level="2" weight="2" Component="h1" className="screen-greeting" data-testid="welcome">
          {t("welcome", { login: user.login })}
        </Title>
      ) : null}
      <NotAvailableYet title={t("title")} icon={<CabinetIcon size={56} />} />
    </Page>
  );
}
