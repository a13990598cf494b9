import { List } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import { Page } from "@/components/page";
import { NewsArticle } from "@/features/news/components/news-article";
import { useParams } from "@/lib/router";
import "@/features/news/news.css";

export function NewsItemRoute() {
  const { t } = useTranslation("news");
  const { id = "" } = useParams();
  return (
    <Page screen="news-item" title={t("itemTitle")} heading={null}>
      <List>
        <NewsArticle key={id} id={id} />
      </List>
    </Page>
  );
}
