/**
 * News (docs/cabinet-rules.md#api-calls, other calls). Bodies are stored as the operator wrote them (limited
 * HTML, or plain text) and sanitised on every read with the allow-list of security/sanitize.ts, so a stored
 * body written before a rule tightened is still served clean. Titles are plain text.
 */

import { LANGUAGES, type Language, type LocalizedText, type NewsItem, type NewsItemInLanguage } from "@contract";
import { NEWS_BODY_MAX_CHARS, NEWS_TITLE_MAX_CHARS } from "@contract/operator";
import { desc, eq } from "drizzle-orm";
import type { Clock } from "../clock";
import type { Database } from "../db/client";
import { news } from "../db/schema";
import { AppError } from "../errors";
import { plainText, sanitizeNewsHtml } from "../security/sanitize";
import { queueNews } from "./broadcasts";
import { queueNewsMail } from "./notice-outbox";

type NewsRow = typeof news.$inferSelect;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function localized(text: LocalizedText, clean: (value: string) => string): LocalizedText {
  return { en: clean(text.en), ru: clean(text.ru), de: clean(text.de), kk: clean(text.kk) };
}

function toNewsItem(row: NewsRow, lang: Language | undefined): NewsItem | NewsItemInLanguage {
  const title = localized(row.title, plainText);
  const body = localized(row.body, sanitizeNewsHtml);
  const publishedAt = row.publishedAt.toISOString();
  if (lang) return { id: row.id, language: lang, title: title[lang], body: body[lang], publishedAt };
  return { id: row.id, title, body, publishedAt };
}

/** Every news item, newest first. */
export async function listNews(db: Database, lang?: Language): Promise<(NewsItem | NewsItemInLanguage)[]> {
  const rows = await db.select().from(news).orderBy(desc(news.publishedAt), desc(news.id));
  return rows.map((row) => toNewsItem(row, lang));
}

/** One item; 404 NOT_FOUND when absent. */
export async function getNews(db: Database, id: string, lang?: Language): Promise<NewsItem | NewsItemInLanguage> {
  if (!UUID.test(id)) throw new AppError("NOT_FOUND", { params: { news: id } });
  const [row] = await db.select().from(news).where(eq(news.id, id)).limit(1);
  if (!row) throw new AppError("NOT_FOUND", { params: { news: id } });
  return toNewsItem(row, lang);
}

export interface NewsInput {
  title: Partial<LocalizedText>;
  body: Partial<LocalizedText>;
}

/** A text in every language: the missing ones in English (or the first given); none longer than its limit. */
function fill(text: Partial<LocalizedText>, what: "title" | "body"): LocalizedText {
  const max = what === "title" ? NEWS_TITLE_MAX_CHARS : NEWS_BODY_MAX_CHARS;
  for (const l of LANGUAGES)
    if ((text[l]?.length ?? 0) > max)
      throw new AppError("VALIDATION_FAILED", { fields: { [`${what}.${l}`]: "textTooLong" } });
  const fallback = text.en ?? LANGUAGES.map((l) => text[l]).find((v) => v !== undefined && v.trim() !== "");
  if (!fallback?.trim()) throw new AppError("VALIDATION_FAILED", { fields: { [what]: "required" } });
  const out = {} as LocalizedText;
  for (const l of LANGUAGES) out[l] = text[l]?.trim() ? (text[l] as string) : fallback;
  return out;
}

/**
 * Operator: publishes a news item (sanitised on read). With `mail` (the server has a PUBLIC_URL for the
 * unsubscribe link) it also goes by e-mail to the investors who take news by e-mail (services/notice-outbox.ts).
 */
export async function addNews(
  db: Database,
  clock: Clock,
  input: NewsInput,
  options: { mail: boolean } = { mail: false },
): Promise<NewsItem> {
  const at = clock.now();
  const row = await db.transaction(async (tx) => {
    const [stored] = await tx
      .insert(news)
      .values({ title: fill(input.title, "title"), body: fill(input.body, "body"), publishedAt: at })
      .returning();
    if (!stored) throw new Error("news not stored");
    // The chats that asked for news hear of it (telegram/broadcasts.ts), with the item or not at all.
    await queueNews(tx, stored, at);
    if (options.mail) await queueNewsMail(tx, stored.id);
    return stored;
  });
  return toNewsItem(row, undefined) as NewsItem;
}
