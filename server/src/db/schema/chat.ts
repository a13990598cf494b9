/** The chat bot: its outbox, processed updates, chats; the leases (db/leader.ts) and the background jobs' last runs (jobs.ts). */
import { LANGUAGES, type Language, NOTIFICATION_KINDS } from "@contract";
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./accounts";
import { sqlList, timestamptz } from "./columns";

/** What only the chat hears of (never the in-app list): a news item, the daily accruals. */
export const CHAT_ONLY_KINDS = ["news", "accruals_digest"] as const;
export const CHAT_KINDS = [...NOTIFICATION_KINDS, ...CHAT_ONLY_KINDS] as const;
export type ChatKind = (typeof CHAT_KINDS)[number];

/**
 * Chat notifications waiting for the bot (a durable outbox): written by `notify()` in the event's
 * transaction, sent by the outbox worker with retries and backoff, `sent_at` set once Telegram took
 * the message. The text is rendered when sent, in the account's language of that moment.
 * `failed_at`: given up (blocked bot, unlinked account, too many attempts).
 */
export const chatOutbox = pgTable(
  "chat_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").$type<ChatKind>().notNull(),
    params: jsonb("params").$type<Record<string, string>>().notNull(),
    /** The Mini App start parameter of the message's button (`withdrawal_<id>`), or null for the cabinet. */
    startParam: text("start_param"),
    createdAt: timestamptz("created_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamptz("next_attempt_at").notNull(),
    sentAt: timestamptz("sent_at"),
    failedAt: timestamptz("failed_at"),
    lastError: text("last_error"),
    /** Queueing order: a chat gets its messages in this order, one at a time. */
    seq: bigserial("seq", { mode: "number" }).notNull(),
  },
  (t) => [
    index("chat_outbox_due_idx").on(t.nextAttemptAt).where(sql`${t.sentAt} is null and ${t.failedAt} is null`),
    index("chat_outbox_waiting_idx").on(t.userId, t.seq).where(sql`${t.sentAt} is null and ${t.failedAt} is null`),
    check("chat_outbox_kind_known", sql`${t.kind} in (${sqlList(CHAT_KINDS)})`),
  ],
);

/** What the notice outbox carries: account notices through the code channel, and news by e-mail. */
export const NOTICE_KINDS = ["withdrawal_status", "wallet_changed", "password_changed", "news"] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/**
 * Notices through the code channel (e-mail, SMS) and news by e-mail, durable (services/notice-outbox.ts):
 * written in the event's transaction, sent by the `notice-outbox` job. A sender claims a row by moving
 * `next_attempt_at` past its lease; `sent_at` once the provider took it, `failed_at` when given up
 * (`last_error` says why). The text is rendered when sent, in the account's language of that moment.
 */
export const noticeOutbox = pgTable(
  "notice_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").$type<NoticeKind>().notNull(),
    params: jsonb("params").$type<Record<string, string>>().notNull(),
    createdAt: timestamptz("created_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamptz("next_attempt_at").notNull(),
    sentAt: timestamptz("sent_at"),
    failedAt: timestamptz("failed_at"),
    lastError: text("last_error"),
  },
  (t) => [
    index("notice_outbox_due_idx").on(t.nextAttemptAt).where(sql`${t.sentAt} is null and ${t.failedAt} is null`),
    check("notice_outbox_kind_known", sql`${t.kind} in (${sqlList(NOTICE_KINDS)})`),
  ],
);

/** Bot updates already handled (`update_id`): a repeated delivery (webhook retry, restart) is skipped. */
export const telegramUpdates = pgTable(
  "telegram_updates",
  {
    updateId: bigint("update_id", { mode: "number" }).primaryKey(),
    receivedAt: timestamptz("received_at").notNull(),
    /** The update as the webhook received it, until it is handled (polled updates are handled at once). */
    payload: jsonb("payload").$type<Record<string, unknown>>(),
    /** When a handler took it; null: stored by the webhook, not handled yet. */
    handledAt: timestamptz("handled_at"),
  },
  (t) => [
    index("telegram_updates_waiting_idx").on(t.updateId).where(sql`${t.handledAt} is null`),
    index("telegram_updates_received_idx").on(t.receivedAt),
  ],
);

/**
 * The bot's private chats (the id is the user's Telegram id): the language chosen with /language,
 * also without an account; the language the chat's menu button was last set in (set once, again
 * only when the language changes); the opt-ins to news and to the daily accruals, and the UTC day
 * of the last accruals message queued.
 */
export const botChats = pgTable(
  "bot_chats",
  {
    chatId: bigint("chat_id", { mode: "number" }).primaryKey(),
    language: text("language").$type<Language>(),
    menuLanguage: text("menu_language").$type<Language>(),
    /**
     * The menu may not match the account: set by triggers when `menu_language` is written and when the account's
     * language, Telegram link or block changes (migration 0027); cleared by the menu sweep (telegram/menus.ts).
     */
    menuStale: boolean("menu_stale").notNull().default(false),
    news: boolean("news").notNull().default(false),
    digest: boolean("digest").notNull().default(false),
    digestDay: date("digest_day", { mode: "string" }),
    updatedAt: timestamptz("updated_at").notNull(),
  },
  (t) => [
    index("bot_chats_news_idx").on(t.chatId).where(sql`${t.news}`),
    index("bot_chats_digest_idx").on(t.chatId).where(sql`${t.digest}`),
    index("bot_chats_menu_stale_idx").on(t.chatId).where(sql`${t.menuStale}`),
    check("bot_chats_language_known", sql`${t.language} in (${sqlList(LANGUAGES)})`),
    check("bot_chats_menu_language_known", sql`${t.menuLanguage} in (${sqlList(LANGUAGES)})`),
  ],
);

/**
 * Leases: work that one process at a time may do (the bot's long polling and chat outbox, the scheduler's jobs; db/leader.ts). A process
 * holds `name` until `expires_at` and renews it; another takes it over once it has expired.
 */
export const leases = pgTable("leases", {
  name: text("name").primaryKey(),
  holder: text("holder").notNull(),
  expiresAt: timestamptz("expires_at").notNull(),
});

/**
 * The last recorded run of each background job (jobs.ts; `kassa jobs list`): which instance ran it, when, how long
 * it took and how it ended. Written at most once a minute a job, and whenever the outcome changes.
 */
export const jobRuns = pgTable("job_runs", {
  name: text("name").primaryKey(),
  instance: text("instance").notNull(),
  startedAt: timestamptz("started_at").notNull(),
  ms: integer("ms"),
  error: text("error"),
  runs: integer("runs").notNull(),
  failures: integer("failures").notNull(),
});
