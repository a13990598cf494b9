import { useTranslation } from "react-i18next";
import { KassaMark } from "@/components/kassa-mark";
import { NotAvailableScreen } from "./not-available-screen";

export function PhoneVerificationRoute() {
  const { t } = useTranslation("auth");
  return (
    <div className="public-page">
      <NotAvailableScreen
        screen="phone-verification"
        title={t("phoneVerification.title")}
        icon={<KassaMark size={56} />}
      />
    </div>
  );
}
