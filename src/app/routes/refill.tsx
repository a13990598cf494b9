import { useTranslation } from "react-i18next";
import { RefillIcon } from "@/components/icons";
import { NotAvailableScreen } from "./not-available-screen";

export function RefillRoute() {
  const { t } = useTranslation("refill");
  return <NotAvailableScreen screen="refill" title={t("title")} icon={<RefillIcon size={56} />} />;
}
