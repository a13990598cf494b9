import { useTranslation } from "react-i18next";
import { DepositsIcon } from "@/components/icons";
import { NotAvailableScreen } from "./not-available-screen";

export function DepositsRoute() {
  const { t } = useTranslation("deposits");
  return <NotAvailableScreen screen="deposits" title={t("title")} icon={<DepositsIcon size={56} />} />;
}
