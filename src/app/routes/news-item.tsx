import { useTranslation } from "react-i18next";
import { NewsIcon } from "@/components/icons";
import { NotAvailableScreen } from "./not-available-screen";

export function NewsItemRoute() {
  const { t } = useTranslation("news");
  return <NotAvailableScreen screen="news-item" title={t("itemTitle")} icon={<NewsIcon size={56} />} />;
}
