/**
 * The notice outbox (docs/delivery.md#notices): account notices through the investor's code channel (the password
 * changed, the withdrawal wallet changed, a withdrawal's new status) and news by e-mail, durable. A notice is a row
 * of `notice_outbox` written in the event's own transaction, so it exists exactly when the event does; the request
 * (or the CLI) that stored the event tries to send it at once, and the `notice-outbox` job of every instance sends
 * what is due: each 1 s, oldest first (a notice not tried yet once it is 10 s old). A temporary refusal (the
 * provider's 4xx for SMTP, 429/5xx for SMS, no answer) is tried again after 5 s, 10 s, 20 s, … up to ten minutes; a
 * permanent one, or 72 hours of temporary ones, gives the notice up with the reason logged and kept (`last_error`).
 *
 * A sender claims one row at a time with `FOR UPDATE SKIP LOCKED`, moving its `next_attempt_at` past a two-minute
 * lease (longer than any one send may take), so across instances on one PostgreSQL one of them sends it. A crash
 * between the provider's acceptance and the mark leaves the row to come due again when its lease ends: delivery is
 * at least once, never dropped silently. Every attempt at one notice carries the same key, the e-mail's Message-ID
 * `<notice-<id>@<MAIL_FROM's domain>>`, so a repeat after a crash is the same message to the receiving side.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { resultRows } from "../db/rows";
import { type NoticeKind, news, noticeOutbox, users } from "../db/schema";
import { CodeSendError, type CodeSender } from "../delivery/code-sender";
import type { Jobs } from "../jobs";
import { plainText, sanitizeNewsHtml } from "../security/sanitize";
import { emailUnsubscribeUrl } from "../security/unsubscribe";
import { botText } from "../texts/bot";
import { renderNotification } from "./notifications";
import { type UserRow, userLanguage } from "./users";

const NOTICE_JOB = { name: "notice-outbox", everyMs: 1_000, timeoutMs: 60_000 } as const;
/** A claimed row comes due again after this: longer than one send may take (three 10 s SMTP waits). */
const CLAIM_MS = 2 * 60_000;
/** A notice is tried this long after it was queued, then given up. */
const NOTICE_GIVE_UP_MS = 72 * 3_600_000;
const BACKOFF_BASE_MS = 5_000;
const BACKOFF_MAX_MS = 10 * 60_000;
/** How long the job leaves an account notice not tried yet to the request that stored it (`claim`). */
const FRESH_MS = 10_000;
/** The most notices one job run sends (the next run goes on). */
const RUN_MAX = 200;
const INSERT_BATCH = 500;

/** The wait before attempt `attempts + 1`: 5 s, 10 s, 20 s, … up to ten minutes. */
function backoffMs(attempts: number): number {
  return Math.min(BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1), BACKOFF_MAX_MS);
}

/** What the outbox's sender needs: the channels, a log, and for news the unsubscribe link's address and key. */
export interface NoticeSenderDeps {
  db: Database;
  codeSender: CodeSender;
  log: { warn(details: object, message: string): void; info?(details: object, message: string): void };
  /** `PUBLIC_URL` and the key of the unsubscribe tokens (`CODE_SECRET`); without them no news goes out. */
  unsubscribe?: { publicUrl: string | undefined; secret: string } | undefined;
}

/**
 * Whether an account notice goes through the code channel: not when the chat hears of it already (the
 * account's channel is the chat and chat notifications are on: the chat outbox carries the notification).
 */
function toldByChat(user: Pick<UserRow, "codeChannel" | "telegramId" | "chatNotifications">): boolean {
  return user.codeChannel === "telegram" && user.telegramId !== null && user.chatNotifications;
}

/**
 * Queues an account notice for `userId` in `db` (the event's transaction), unless the chat carries it.
 * Returns whether it was queued.
 */
export async function queueNotice(
  db: Database,
  userId: string,
  kind: Exclude<NoticeKind, "news">,
  params: Record<string, string>,
): Promise<boolean> {
  const [user] = await db
    .select({
      codeChannel: users.codeChannel,
      telegramId: users.telegramId,
      chatNotifications: users.chatNotifications,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!user || toldByChat(user)) return false;
  const now = new Date();
  await db.insert(noticeOutbox).values({ userId, kind, params, createdAt: now, nextAttemptAt: now });
  return true;
}

/**
 * Queues news item `newsId` by e-mail for every investor whose code channel is e-mail, who has an e-mail and
 * has not unsubscribed; in `db`, the item's own transaction. Returns how many.
 */
export async function queueNewsMail(db: Database, newsId: string): Promise<number> {
  const now = new Date();
  const readers = await db
    .select({ userId: users.id })
    .from(users)
    .where(and(eq(users.codeChannel, "email"), sql`${users.email} is not null`, eq(users.emailNews, true)));
  for (let i = 0; i < readers.length; i += INSERT_BATCH) {
    await db.insert(noticeOutbox).values(
      readers.slice(i, i + INSERT_BATCH).map(({ userId }) => ({
        userId,
        kind: "news" as const,
        params: { newsId },
        createdAt: now,
        nextAttemptAt: now,
      })),
    );
  }
  return readers.length;
}

/**
 * Claims the oldest due row for `CLAIM_MS`: its id, or null when none is due. With `userId` (the request that
 * stored an event), that account's notices only, never news. Without (the job), news at once, and an account
 * notice not tried yet only once it is `FRESH_MS` old: the request that stored it sends it first, so the reply
 * comes after its e-mail went out, as before the outbox.
 */
async function claim(db: Database, userId?: string): Promise<string | null> {
  const now = new Date();
  const until = new Date(now.getTime() + CLAIM_MS);
  const rows = resultRows<{ id: string }>(
    await db.execute(sql`
      update notice_outbox set next_attempt_at = ${until.toISOString()}, attempts = attempts + 1
      where id = (
        select id from notice_outbox
        where sent_at is null and failed_at is null and next_attempt_at <= ${now.toISOString()}
          ${
            userId
              ? sql`and user_id = ${userId} and kind <> 'news'`
              : sql`and (attempts > 0 or kind = 'news' or created_at <= ${new Date(now.getTime() - FRESH_MS).toISOString()})`
          }
        order by next_attempt_at, created_at
        limit 1
        for update skip locked)
      returning id`),
  );
  return rows[0]?.id ?? null;
}

/** One message as the channel sends it, or nothing to send any more (`skip` says why). */
type Rendered =
  | { title: string; text: string; html?: string; unsubscribe?: string; channel?: "email" }
  | { skip: string };

/** The body of a news item as plain text: paragraphs and line breaks kept. */
function newsPlain(html: string): string {
  return plainText(sanitizeNewsHtml(html).replace(/<\/(p|li|h\d)>|<br\s*\/?>/gi, "\n"))
    .replace(/[ \t]+/g, " ")
    .replace(/\s*\n\s*/g, "\n")
    .trim();
}

async function render(
  deps: NoticeSenderDeps,
  user: UserRow,
  row: { kind: NoticeKind; params: Record<string, string> },
): Promise<Rendered> {
  const language = userLanguage(user);
  const { params } = row;
  switch (row.kind) {
    case "withdrawal_status": {
      const { title, body } = renderNotification("withdrawal_status", params, language);
      return { title, text: body };
    }
    case "wallet_changed":
      return {
        title: botText(language, "notifications.wallet_changed.title"),
        text: botText(language, "walletChanged.text", { wallets: params.wallets ?? "" }),
      };
    case "password_changed":
      return {
        title: botText(language, "notices.passwordChanged.title"),
        text: botText(language, "notices.passwordChanged.body", { date: params.date ?? "", time: params.time ?? "" }),
      };
    case "news": {
      if (!user.emailNews) return { skip: "unsubscribed from news by e-mail" };
      if (user.codeChannel !== "email" || user.email === null)
        return { skip: "the code channel is not e-mail any more" };
      const publicUrl = deps.unsubscribe?.publicUrl;
      if (!publicUrl || !deps.unsubscribe) return { skip: "PUBLIC_URL is not set: no unsubscribe link" };
      const [item] = await deps.db
        .select()
        .from(news)
        .where(eq(news.id, params.newsId ?? ""));
      if (!item) return { skip: "the news item is gone" };
      const unsubscribe = emailUnsubscribeUrl(publicUrl, deps.unsubscribe.secret, user.id);
      const why = botText(language, "mail.newsFooter");
      const stop = botText(language, "mail.newsUnsubscribe");
      return {
        channel: "email",
        title: plainText(item.title[language]),
        text: `${newsPlain(item.body[language])}\n\n${why}\n${stop}: ${unsubscribe}`,
        html: `${sanitizeNewsHtml(item.body[language])}<p style="margin:24px 0 0;font-size:13px;color:#6d6d72">${escapeHtml(why)} <a href="${escapeHtml(unsubscribe)}">${escapeHtml(stop)}</a></p>`,
        unsubscribe,
      };
    }
  }
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** Sends claimed row `id`: marks it sent, due again after its back-off, or given up. */
async function sendClaimed(deps: NoticeSenderDeps, id: string): Promise<void> {
  const { db, log } = deps;
  const [found] = await db
    .select({ row: noticeOutbox, user: users })
    .from(noticeOutbox)
    .innerJoin(users, eq(users.id, noticeOutbox.userId))
    .where(eq(noticeOutbox.id, id));
  if (!found) return;
  const { row, user } = found;
  const what = { notice: row.id, kind: row.kind, login: user.login, attempts: row.attempts };
  const giveUp = async (reason: string, error?: unknown) => {
    await db
      .update(noticeOutbox)
      .set({ failedAt: new Date(), lastError: reason.slice(0, 500) })
      .where(eq(noticeOutbox.id, row.id));
    log.warn({ ...what, reason, ...(error ? { err: error } : {}) }, "notice given up");
  };
  const tell = deps.codeSender.tell?.bind(deps.codeSender);
  if (!tell) return giveUp("this server's sender sends no notices");
  const message = await render(deps, user, row);
  if ("skip" in message) {
    await db
      .update(noticeOutbox)
      .set({ failedAt: new Date(), lastError: message.skip })
      .where(eq(noticeOutbox.id, row.id));
    log.info?.({ ...what, reason: message.skip }, "notice not sent");
    return;
  }
  const channel = message.channel ?? user.codeChannel;
  const { login, telegramId, email, phone } = user;
  try {
    await tell({
      login,
      channel,
      telegramId,
      email,
      phone,
      language: userLanguage(user),
      title: message.title,
      text: message.text,
      key: `notice-${row.id}`,
      ...(message.html !== undefined ? { html: message.html } : {}),
      ...(message.unsubscribe !== undefined ? { unsubscribe: message.unsubscribe } : {}),
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const transient = error instanceof CodeSendError && error.transient;
    const wait =
      error instanceof CodeSendError && error.retryAfterSeconds !== undefined
        ? Math.max(error.retryAfterSeconds * 1000, backoffMs(row.attempts))
        : backoffMs(row.attempts);
    const next = new Date(Date.now() + wait);
    if (!transient) return giveUp(`${channel}: ${reason}`, error);
    if (next.getTime() - row.createdAt.getTime() > NOTICE_GIVE_UP_MS)
      return giveUp(`${channel}: still refused after ${row.attempts} attempts: ${reason}`, error);
    await db
      .update(noticeOutbox)
      .set({ nextAttemptAt: next, lastError: `${channel}: ${reason}`.slice(0, 500) })
      .where(eq(noticeOutbox.id, row.id));
    log.warn({ ...what, channel, err: error, retryAt: next.toISOString() }, "notice not sent, tried again later");
    return;
  }
  await db.update(noticeOutbox).set({ sentAt: new Date(), lastError: null }).where(eq(noticeOutbox.id, row.id));
}

/**
 * Sends the due notices (of `userId` when given: the request that stored the event sends its own at once),
 * up to `RUN_MAX`, until `signal` aborts. A failure of one notice is its own (logged, tried again or given up);
 * returns how many were tried.
 */
async function sendDueNotices(
  deps: NoticeSenderDeps,
  options: { userId?: string; signal?: AbortSignal } = {},
): Promise<number> {
  let tried = 0;
  while (tried < RUN_MAX && !options.signal?.aborted) {
    const id = await claim(deps.db, options.userId);
    if (!id) break;
    tried += 1;
    await sendClaimed(deps, id);
  }
  return tried;
}

/**
 * After an event stored its notice: sends the user's due notices now. Never an error of the call: what cannot
 * go out now stays in the outbox for the job.
 */
export async function sendNoticesNow(
  deps: Partial<Pick<NoticeSenderDeps, "codeSender" | "log">> & Pick<NoticeSenderDeps, "db">,
  userId: string,
): Promise<void> {
  const { codeSender, log } = deps;
  if (!codeSender || !log) return;
  await sendDueNotices({ db: deps.db, codeSender, log }, { userId }).catch((error: unknown) =>
    log.warn({ err: error, userId }, "notices not sent now: the outbox job sends them"),
  );
}

/** Adds the `notice-outbox` job: every instance sends what is due (rows are claimed one at a time). */
export function addNoticeJob(jobs: Jobs, deps: NoticeSenderDeps): void {
  jobs.add({ ...NOTICE_JOB, run: (signal) => sendDueNotices(deps, { signal }) });
}
