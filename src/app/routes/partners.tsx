import { useTranslation } from "react-i18next";
import { PartnersIcon } from "@/components/icons";
import { NotAvailableScreen } from "./not-available-screen";

export function PartnersRoute() {
  const { t } = useTranslation("partners");
  return <NotAvailableScreen screen="partners" title={t("title")} icon={<PartnersIcon size={56} />} />;
}
