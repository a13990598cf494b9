import { Button } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import { Page } from "@/components/page";
import { Placeholder } from "@/components/placeholder";
import { paths } from "@/config/paths";
import { useNavigate } from "@/lib/router";

export function NotFoundRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Page screen="not-found" title={t("notFound.title")} className="public-page">
      <Placeholder
        header={t("notFound.title")}
        description={t("notFound.text")}
        action={
          <Button size="l" onClick={() => navigate(paths.cabinet, { replace: true })}>
            {t("notFound.action")}
          </Button>
        }
      />
    </Page>
  );
}
