import { useTranslation } from "react-i18next";
import { WithdrawalIcon } from "@/components/icons";
import { NotAvailableScreen } from "./not-available-screen";

export function WithdrawalRoute() {
  const { t } = useTranslation("withdrawal");
  return <NotAvailableScreen screen="withdrawal" title={t("title")} icon={<WithdrawalIcon size={56} />} />;
}
