/**
 * The chat outbox worker: sends the notifications `notify()` queued in `chat_outbox` to the user's
 * Telegram chat, in the account's language of the moment, with a `web_app` button to the screen
 * concerned. Each row is marked sent once Telegram took it; a failure is retried with exponential
 * backoff (a 429 waits `retry_after`); a blocked bot (403) marks the user and ends the row, as do an
 * unlinked account and chat notifications turned off. A message whose send was cut short by a crash
 * (sent, not yet marked) may go out twice: delivery is at least once, never lost.
 */
import { type Language, parseStartParam } from "@contract";
import { and, asc, eq, isNull, lte } from "drizzle-orm";
import { GrammyError, HttpError, InlineKeyboard } from "grammy";
import type { Clock } from "../clock";
import type { Database } from "../db/client";
import { chatOutbox, users } from "../db/schema";
import { renderNotification } from "../services/notifications";
import { userLanguage } from "../services/users";
import { botText } from "./texts";

/** What the worker needs of the bot: `bot.api.sendMessage`. */
export interface ChatSender {
  sendMessage(
    chatId: number,
    text: string,
    other: { parse_mode: "HTML"; reply_markup: InlineKeyboard; link_preview_options: { is_disabled: boolean } },
  ): Promise<unknown>;
}

export interface OutboxLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export const OUTBOX_BATCH = 20;
export const OUTBOX_MAX_ATTEMPTS = 12;
const BACKOFF_BASE_MS = 5_000;
const BACKOFF_MAX_MS = 3_600_000;

/** The wait before attempt `attempts + 1`: 5 s, 10 s, 20 s, … up to an hour. */
export function backoffMs(attempts: number): number {
  return Math.min(BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1), BACKOFF_MAX_MS);
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** The Mini App's address opening `startParam` (`?startapp=<param>`; the app reads it as a start parameter). */
export function miniAppUrl(base: string, startParam: string | null | undefined): string {
  const url = new URL(base);
  if (startParam) url.searchParams.set("startapp", startParam);
  return url.toString();
}

/** The button's words for the screen a start parameter opens. */
export function buttonText(language: Language, startParam: string | null | undefined): string {
  const target = parseStartParam(startParam);
  switch (target?.kind) {
    case "refill":
    case "withdrawal":
    case "deposit":
    case "news":
    case "settings":
      return botText(language, `buttons.${target.kind}`);
    case "ref":
      return botText(language, "buttons.register");
    default:
      return botText(language, "buttons.cabinet");
  }
}

export function webAppKeyboard(language: Language, base: string, startParam: string | null | undefined) {
  return new InlineKeyboard().webApp(buttonText(language, startParam), miniAppUrl(base, startParam));
}

export interface OutboxDeps {
  db: Database;
  clock: Clock;
  sender: ChatSender;
  miniAppUrl: string;
  log: OutboxLog;
}

/** Sends what is due now; returns how many rows were sent. */
export async function deliverDue(deps: OutboxDeps): Promise<number> {
  const { db, clock } = deps;
  const due = await db
    .select({
      row: chatOutbox,
      telegramId: users.telegramId,
      language: users.language,
      chatNotifications: users.chatNotifications,
      botBlockedAt: users.botBlockedAt,
    })
    .from(chatOutbox)
    .innerJoin(users, eq(users.id, chatOutbox.userId))
    .where(and(isNull(chatOutbox.sentAt), isNull(chatOutbox.failedAt), lte(chatOutbox.nextAttemptAt, clock.now())))
    .orderBy(asc(chatOutbox.nextAttemptAt), asc(chatOutbox.createdAt))
    .limit(OUTBOX_BATCH);

  let sent = 0;
  for (const item of due) {
    const { row } = item;
    const giveUp = (reason: string) =>
      db.update(chatOutbox).set({ failedAt: clock.now(), lastError: reason }).where(eq(chatOutbox.id, row.id));
    if (item.telegramId === null) {
      await giveUp("the account is no longer linked to Telegram");
      continue;
    }
    if (!item.chatNotifications) {
      await giveUp("chat notifications are off");
      continue;
    }
    if (item.botBlockedAt !== null) {
      await giveUp("the user blocked the bot");
      continue;
    }
    const language = userLanguage(item);
    const { title, body } = renderNotification(row.kind, row.params, language);
    try {
      await deps.sender.sendMessage(item.telegramId, `<b>${escapeHtml(title)}</b>\n${escapeHtml(body)}`, {
        parse_mode: "HTML",
        reply_markup: webAppKeyboard(language, deps.miniAppUrl, row.startParam),
        link_preview_options: { is_disabled: true },
      });
    } catch (error) {
      await failed(deps, row, item.telegramId, error);
      continue;
    }
    await db
      .update(chatOutbox)
      .set({ sentAt: clock.now(), attempts: row.attempts + 1, lastError: null })
      .where(eq(chatOutbox.id, row.id));
    sent++;
  }
  return sent;
}

async function failed(
  deps: OutboxDeps,
  row: typeof chatOutbox.$inferSelect,
  telegramId: number,
  error: unknown,
): Promise<void> {
  const { db, clock } = deps;
  const now = clock.now();
  const attempts = row.attempts + 1;
  const description = error instanceof GrammyError ? `${error.error_code}: ${error.description}` : String(error);
  if (error instanceof GrammyError && error.error_code === 403) {
    // Blocked (or deactivated): no retry; the user is marked until a my_chat_member update says otherwise.
    await db.update(users).set({ botBlockedAt: now }).where(eq(users.telegramId, telegramId));
    await db
      .update(chatOutbox)
      .set({ attempts, failedAt: now, lastError: description })
      .where(eq(chatOutbox.id, row.id));
    deps.log.info({ outboxId: row.id }, "the user blocked the bot: chat notification dropped");
    return;
  }
  const permanent = error instanceof GrammyError && error.error_code === 400;
  const retryAfter = error instanceof GrammyError ? error.parameters.retry_after : undefined;
  const wait = retryAfter !== undefined ? retryAfter * 1000 : backoffMs(attempts);
  const giveUp = permanent || attempts >= OUTBOX_MAX_ATTEMPTS;
  await db
    .update(chatOutbox)
    .set({
      attempts,
      lastError: description,
      nextAttemptAt: new Date(now.getTime() + wait),
      failedAt: giveUp ? now : null,
    })
    .where(eq(chatOutbox.id, row.id));
  deps.log.warn(
    { outboxId: row.id, attempts, error: description, network: error instanceof HttpError, giveUp },
    "chat notification not sent",
  );
}
