import { useTranslation } from "react-i18next";
import { SettingsIcon } from "@/components/icons";
import { NotAvailableScreen } from "./not-available-screen";

export function SettingsRoute() {
  const { t } = useTranslation("settings");
  return <NotAvailableScreen screen="settings" title={t("title")} icon={<SettingsIcon size={56} />} />;
}
