import { useQuery } from "@tanstack/react-query";
import { Button, Section } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import { Placeholder } from "@/components/placeholder";
import { TallSkeleton } from "@/components/query-section";
import { currentLanguage } from "@/config/i18n";
import { newsItemPath } from "@/config/paths";
import { formatDate } from "@/lib/dates";
import { useApiErrorText } from "@/lib/error-text";
import { Link } from "@/lib/router";
import { newsQueries } from "../api/news-queries";

/** The news, newest first; each row opens its item. */
export function NewsList() {
  const { t, i18n } = useTranslation(["news", "common"]);
  const language = currentLanguage(i18n);
  const errorText = useApiErrorText();
  const news = useQuery(newsQueries.list(language));
  if (news.isPending)
    return (
      <Section>
        <TallSkeleton />
      </Section>
    );
  if (news.isError)
    return (
      <Placeholder description={errorText(news.error)}>
        <Button size="s" onClick={() => void news.refetch()}>
          {t("retry", { ns: "common" })}
        </Button>
      </Placeholder>
    );
  if (news.data.length === 0) return <Placeholder description={t("empty")} />;
  return (
    <Section>
      <ul className="news-list">
        {news.data.map((item) => (
          <li key={item.id}>
            <Link to={newsItemPath(item.id)} className="news-row" data-testid="news-row" data-news-id={item.id}>
              <span className="news-row-title">{item.title}</span>
              <time className="news-row-date" dateTime={item.publishedAt}>
                {formatDate(item.publishedAt, language)}
              </time>
            </Link>
          </li>
        ))}
      </ul>
    </Section>
  );
}
