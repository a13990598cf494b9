import { List } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import { Page } from "@/components/page";
import { NewsList } from "@/features/news/components/news-list";
import "@/features/news/news.css";

export function NewsRoute() {
  const { t } = useTranslation("news");
  return (
    <Page screen="news" title={t("title")}>
      <List>
        <NewsList />
      </List>
    </Page>
  );
}
