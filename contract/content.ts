/** News (`GET /content/news`, `GET /content/news/one/{id}`). */
import * as z from "zod/mini";
import { deferred } from "./deferred";
import { Language } from "./enums";
import { LocalizedText } from "./settings";
import { text } from "./validation";

/**
 * The HTML a news body may hold after the server's sanitiser: p, br, strong, em, ul, ol, li, h3,
 * and a with an http(s) href (rel="noopener noreferrer", target="_blank"). Nothing else survives.
 */
export const NEWS_ALLOWED_TAGS = ["p", "br", "strong", "em", "a", "ul", "ol", "li", "h3"] as const;

/** A news item in every language (title plain text, body sanitised HTML). */
export const NewsItem = deferred(() =>
  z.object({
    id: z.string(),
    title: LocalizedText,
    body: LocalizedText,
    /** ISO 8601. */
    publishedAt: z.string(),
  }),
);
export type NewsItem = z.infer<typeof NewsItem>;

/** A news item in one language (`?lang=`). */
export const NewsItemInLanguage = deferred(() =>
  z.object({
    id: z.string(),
    language: Language,
    title: z.string(),
    body: z.string(),
    publishedAt: z.string(),
  }),
);
export type NewsItemInLanguage = z.infer<typeof NewsItemInLanguage>;

export const NewsQuery = deferred(() => z.object({ lang: z.optional(Language) }));
export type NewsQuery = z.infer<typeof NewsQuery>;

/** Newest first. */
export const NewsReply = deferred(() => z.array(z.union([NewsItemInLanguage, NewsItem])));
export type NewsReply = z.infer<typeof NewsReply>;
export const NewsOneReply = deferred(() => z.union([NewsItemInLanguage, NewsItem]));
export type NewsOneReply = z.infer<typeof NewsOneReply>;

export const NewsIdParams = deferred(() => z.object({ id: text().check(z.minLength(1), z.maxLength(64)) }));
