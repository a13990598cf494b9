/**
 * News: the list and one item, asked for in the interface language. Keys start with
 * `news` and hold the language, so switching it fetches the texts again.
 */
import type { Language, NewsOneReply } from "@contract";
import { queryOptions } from "@tanstack/react-query";
import { callApi } from "@/lib/api-client";

const newsKeys = { all: ["news"] } as const;

/** One item as the screens show it: the reply in one language, or every language picked down to one. */
export interface NewsEntry {
  id: string;
  title: string;
  body: string;
  publishedAt: string;
}

function toNewsEntry(item: NewsOneReply, language: Language): NewsEntry {
  if (typeof item.title === "string" && typeof item.body === "string")
    return { id: item.id, title: item.title, body: item.body, publishedAt: item.publishedAt };
  const title = item.title as Record<Language, string>;
  const body = item.body as Record<Language, string>;
  return { id: item.id, title: title[language], body: body[language], publishedAt: item.publishedAt };
}

export const newsQueries = {
  list: (language: Language) =>
    queryOptions({
      queryKey: [...newsKeys.all, "list", language] as const,
      queryFn: ({ signal }) => callApi("news", { query: { lang: language }, signal }),
      select: (items) => items.map((item) => toNewsEntry(item, language)),
    }),
  one: (id: string, language: Language) =>
    queryOptions({
      queryKey: [...newsKeys.all, "one", id, language] as const,
      queryFn: ({ signal }) => callApi("newsOne", { params: { id }, query: { lang: language }, signal }),
      select: (item) => toNewsEntry(item, language),
    }),
};
