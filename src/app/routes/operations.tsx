import { useTranslation } from "react-i18next";
import { OperationsIcon } from "@/components/icons";
import { NotAvailableScreen } from "./not-available-screen";

export function OperationsRoute() {
  const { t } = useTranslation("operations");
  return <NotAvailableScreen screen="operations" title={t("title")} icon={<OperationsIcon size={56} />} />;
}
