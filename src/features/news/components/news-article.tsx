import { useQuery } from "@tanstack/react-query";
import { Button, Section } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import { Placeholder } from "@/components/placeholder";
import { TallSkeleton } from "@/components/query-section";
import { currentLanguage } from "@/config/i18n";
import { paths } from "@/config/paths";
import { isApiError } from "@/lib/api-client";
import { formatDate } from "@/lib/dates";
import { useApiErrorText } from "@/lib/error-text";
import { Link } from "@/lib/router";
import { useTelegram } from "@/tma/hooks";
import { newsQueries } from "../api/news-queries";
import { NewsBody } from "./news-body";

/**
 * One news item; works on its own when opened by a deep link. The way back is the screen's (the header's Back on
 * the web, Telegram's Back inside it); only an item that is not there offers a link to the list.
 */
export function NewsArticle({ id }: { id: string }) {
  const { t, i18n } = useTranslation(["news", "common"]);
  const language = currentLanguage(i18n);
  const errorText = useApiErrorText();
  const item = useQuery(newsQueries.one(id, language));
  // Inside Telegram its own Back button leads to the list: no second one in the page.
  const back = useTelegram() ? null : (
    <Link to={paths.news} className="news-back" data-testid="news-back">
      {t("back")}
    </Link>
  );
  if (item.isPending)
    return (
      <Section>
        <TallSkeleton />
      </Section>
    );
  if (item.isError) {
    const missing = isApiError(item.error) && item.error.status === 404;
    return (
      <Placeholder description={missing ? t("notFound") : errorText(item.error)}>
        {missing ? (
          back
        ) : (
          <Button size="s" onClick={() => void item.refetch()}>
            {t("retry", { ns: "common" })}
          </Button>
        )}
      </Placeholder>
    );
  }
  return (
    <article className="news-article">
      <h1 className="news-title" data-testid="news-title">
        {item.data.title}
      </h1>
      <time className="news-row-date" dateTime={item.data.publishedAt}>
        {formatDate(item.data.publishedAt, language)}
      </time>
      <NewsBody html={item.data.body} />
    </article>
  );
}
