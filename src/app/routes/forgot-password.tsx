import { useTranslation } from "react-i18next";
import { KassaMark } from "@/components/kassa-mark";
import { NotAvailableScreen } from "./not-available-screen";

export function ForgotPasswordRoute() {
  const { t } = useTranslation("auth");
  return (
    <div className="public-page">
      <NotAvailableScreen screen="forgot-password" title={t("forgotPassword.title")} icon={<KassaMark size={56} />} />
    </div>
  );
}
