import { useTranslation } from "react-i18next";
import { NewsIcon } from "@/components/icons";
import { NotAvailableScreen } from "./not-available-screen";

export function NewsRoute() {
  const { t } = useTranslation("news");
  return <NotAvailableScreen screen="news" title={t("title")} icon={<NewsIcon size={56} />} />;
}
