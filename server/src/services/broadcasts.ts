/**
 * What the chat hears of only when it asked for it (`/settings` in the bot): a news item when the
 * operator publishes one, and once a day the accruals of the day before. Both go through the chat
 * outbox like every notification (durable, paced and retried there), written in each language now
 * (`<key>_<language>` values) and picked in the account's language when sent.
 */
import { formatStartParam, LANGUAGES, type Language, type LocalizedText } from "@contract";
import { and, eq, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { resultRows } from "../db/rows";
import { botChats, chatOutbox, users } from "../db/schema";
import { normalizeDecimal } from "../decimal";
import { plainText, sanitizeNewsHtml } from "../security/sanitize";
import { botText, formatAmount } from "../texts/bot";

/** The longest excerpt of a news body in the chat; the button opens the whole item. */
const NEWS_EXCERPT_CHARS = 280;
const INSERT_BATCH = 500;

/** Linked accounts whose chat takes `what`, still reachable (notifications on, the bot not blocked). */
function optedIn(what: "news" | "digest") {
  return and(
    what === "news" ? eq(botChats.news, true) : eq(botChats.digest, true),
    isNotNull(users.telegramId),
    eq(users.chatNotifications, true),
    isNull(users.botBlockedAt),
  );
}

/** The body as plain text, cut at a word near `NEWS_EXCERPT_CHARS` with an ellipsis. */
function newsExcerpt(html: string): string {
  const text = plainText(sanitizeNewsHtml(html).replace(/<\/(p|li|h\d)>|<br\s*\/?>/gi, "\n"))
    .replace(/[ \t]+/g, " ")
    .replace(/\s*\n\s*/g, "\n")
    .trim();
  if (text.length <= NEWS_EXCERPT_CHARS) return text;
  const cut = text.slice(0, NEWS_EXCERPT_CHARS);
  const space = cut.lastIndexOf(" ");
  return `${(space > NEWS_EXCERPT_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Queues `item` for every chat that opted in to news; returns how many. Call it where the item is stored. */
export async function queueNews(
  db: Database,
  item: { id: string; title: LocalizedText; body: LocalizedText },
  at: Date,
): Promise<number> {
  const chats = await db
    .select({ userId: users.id })
    .from(botChats)
    .innerJoin(users, eq(users.telegramId, botChats.chatId))
    .where(optedIn("news"));
  if (chats.length === 0) return 0;
  const params: Record<string, string> = {};
  for (const language of LANGUAGES) {
    params[`title_${language}`] = plainText(item.title[language]);
    params[`excerpt_${language}`] = newsExcerpt(item.body[language]);
  }
  const startParam = formatStartParam({ kind: "news", id: item.id });
  for (let i = 0; i < chats.length; i += INSERT_BATCH) {
    await db.insert(chatOutbox).values(
      chats.slice(i, i + INSERT_BATCH).map(({ userId }) => ({
        userId,
        kind: "news" as const,
        params,
        startParam,
        createdAt: at,
        nextAttemptAt: at,
      })),
    );
  }
  return chats.length;
}

/** `YYYY-MM-DD` of the UTC day before `now`: the day a digest sent at `now` is about. */
export function digestDay(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - 1)).toISOString().slice(0, 10);
}

function dayName(day: string, language: Language): string {
  const locale = { en: "en-GB", ru: "ru-RU", de: "de-DE", kk: "kk-KZ" }[language];
  return new Intl.DateTimeFormat(locale, { day: "numeric", month: "long", timeZone: "UTC" }).format(
    new Date(`${day}T00:00:00Z`),
  );
}

/**
 * The daily accruals: for every chat that opted in and has not had the day before `now` (UTC), one
 * message with that day's accruals per currency (the deposits' days due that day, held in running
 * deposits or paid out with an ended one) and all accruals up to its end ("+3.00 USDT, 1,234.56
 * USDT in all"). The day is claimed first, so a second pass (another instance, a retry) sends
 * nothing; a day without accruals is claimed and says nothing. Returns the messages queued.
 */
export async function queueDigests(db: Database, now: Date): Promise<number> {
  const day = digestDay(now);
  const start = new Date(`${day}T00:00:00Z`);
  const end = new Date(start.getTime() + 86_400_000);
  const due = await db
    .select({ chatId: botChats.chatId, userId: users.id })
    .from(botChats)
    .innerJoin(users, eq(users.telegramId, botChats.chatId))
    .where(and(optedIn("digest"), or(isNull(botChats.digestDay), lt(botChats.digestDay, day))));
  let queued = 0;
  for (const { chatId, userId } of due) {
    queued += await db.transaction(async (tx) => {
      const claimed = await tx
        .update(botChats)
        .set({ digestDay: day })
        .where(and(eq(botChats.chatId, chatId), or(isNull(botChats.digestDay), lt(botChats.digestDay, day))))
        .returning({ chatId: botChats.chatId });
      if (claimed.length === 0) return 0;
      // From the accruals themselves (held in running deposits, paid out when a deposit ends), by
      // the day each was due: the ledger's `accrual` operations are written only when a deposit ends.
      const sums = resultRows<{ currency: string; day: string; total: string }>(
        await tx.execute(sql`
          select d.currency,
            coalesce(sum(a.amount) filter (where a.due_at >= ${start.toISOString()}), 0)::text as day,
            sum(a.amount)::text as total
          from accruals a join deposits d on d.id = a.deposit_id
          where d.user_id = ${userId} and a.due_at < ${end.toISOString()}
          group by d.currency order by d.currency`),
      ).filter((row) => normalizeDecimal(row.day) !== "0");
      if (sums.length === 0) return 0;
      const params: Record<string, string> = {};
      for (const language of LANGUAGES) {
        params[`day_${language}`] = dayName(day, language);
        params[`lines_${language}`] = sums
          .map((row) =>
            botText(language, "digest.line", {
              day: `+${formatAmount(row.day, language)}`,
              total: formatAmount(row.total, language),
              currency: row.currency,
            }),
          )
          .join("\n");
      }
      await tx.insert(chatOutbox).values({
        userId,
        kind: "accruals_digest",
        params,
        startParam: null,
        createdAt: now,
        nextAttemptAt: now,
      });
      return 1;
    });
  }
  return queued;
}
