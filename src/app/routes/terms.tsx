import { Button } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import { Page } from "@/components/page";
import { isTermsDoc } from "@/config/paths";
import { TermsDocument } from "@/features/auth/components/terms-document";
import { hasInAppHistory } from "@/lib/navigation";
import { useLocation, useNavigate, useParams } from "@/lib/router";
import { NotFoundRoute } from "./not-found";

/**
 * The Terms (`/terms/offer`, `/terms/agreement`), readable in every language. Reached from the
 * registration form, which keeps its input meanwhile; Back returns to it.
 */
export function TermsRoute() {
  const { t } = useTranslation("terms");
  const { doc } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  if (!isTermsDoc(doc)) return <NotFoundRoute />;
  const back = () => {
    if (hasInAppHistory(location)) navigate(-1);
    else navigate("/register", { replace: true });
  };
  return (
    <Page screen="terms" title={t(`${doc}.title`)} className="public-page" data-doc={doc}>
      <TermsDocument doc={doc} />
      <div className="form-actions">
        <Button size="l" mode="bezeled" stretched onClick={back} data-testid="terms-back">
          {t("back")}
        </Button>
      </div>
    </Page>
  );
}
