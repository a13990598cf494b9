/**
 * Notifications of the dialog (docs/cabinet-rules.md#screens). Server events call `notify(db, userId, kind, params)`
 * inside their own transaction, so a notification exists exactly when its event happened. The
 * row keeps the kind and its values; the title and body are written from the templates of
 * `locales/<lng>/bot.json` in the user's language when read (a user who switches language reads them
 * in the new one). The same events go to the Telegram chat through the chat outbox (`telegram/outbox.ts`).
 */
import {
  formatStartParam,
  type Language,
  type Notification,
  type NotificationKind,
  type NotificationsInboxQuery,
  type NotificationsInboxReply,
  type NotificationsReply,
  type NotificationTarget,
  type PulseReply,
} from "@contract";
import { and, count, desc, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import type { Clock } from "../clock";
import { type Awaitable, keptOf, userChanging } from "../db/change-feed";
import type { Database } from "../db/client";
import { resultRows } from "../db/rows";
import { type ChatKind, chatOutbox, notifications, operations, users } from "../db/schema";
import { AppError } from "../errors";
import { botText, formatAmount, hasBotText } from "../texts/bot";
import { isUuid } from "./deposit-rows";
import { unreadCount, userLanguage } from "./users";

type Params = Record<string, string>;
type Template = { title: string; body: string };

/** The title and body of one notification in `language`, from `locales/<lng>/bot.json`. */
export function renderNotification(kind: ChatKind, params: Params, language: Language): Template {
  const values = { ...params };
  if (kind === "withdrawal_status" && params.status) {
    const key = `withdrawalStatus.${params.status}`;
    values.status = hasBotText(language, key) ? botText(language, key) : params.status;
  }
  // Names stored per language (a plan's) as `<name>_<language>`.
  for (const [key, value] of Object.entries(params)) {
    if (key.endsWith(`_${language}`)) values[key.slice(0, -language.length - 1)] = value;
  }
  if (params.until) values.until = params.until.slice(0, 10);
  // Money as people of the language write it ("25.00", "1 234,56"), from the exact decimal kept.
  for (const key of ["amount", "income"]) {
    const value = params[key];
    if (value !== undefined && /^-?\d+(\.\d+)?$/.test(value)) values[key] = formatAmount(value, language);
  }
  // A withdrawal's outcome has words of its own (paid out, rejected with the money back, …) and the operator's note.
  if (kind === "withdrawal_status" && params.status) {
    const own = `notifications.withdrawal_status.${params.status}`;
    if (hasBotText(language, `${own}.title`)) {
      const note = params.note?.trim() ? botText(language, "notifications.withdrawal_status.note", values) : "";
      const body = botText(language, `${own}.body`, values);
      return { title: botText(language, `${own}.title`, values), body: note ? `${body}\n${note}` : body };
    }
  }
  return {
    title: botText(language, `notifications.${kind}.title`, values),
    body: botText(language, `notifications.${kind}.body`, values),
  };
}

/**
 * What a notification concerns: the refill, withdrawal or deposit, the settings for a verification or a
 * changed withdrawal wallet, else nothing in particular (a cancelled withdrawal's) (the inbox opens it; the chat button opens the
 * same screen).
 */
function notificationTarget(kind: NotificationKind, params: Params): NotificationTarget | null {
  const item = (k: "refill" | "withdrawal" | "deposit", id: string | undefined) => (id ? { kind: k, id } : null);
  switch (kind) {
    case "refill_credited":
    case "refill_rejected":
      return item("refill", params.refillId);
    case "withdrawal_status":
      // A cancelled withdrawal (by the investor, or its code expired) is not listed: its notice says all there is.
      return params.status === "cancelled" || params.status === "expired"
        ? null
        : item("withdrawal", params.withdrawalId);
    case "deposit_ended":
      return item("deposit", params.depositId);
    case "verification_success":
    case "verification_denied":
    case "wallet_changed":
      return { kind: "settings" };
    case "subscription_activated":
    case "withdrawals_locked":
      return null;
  }
}

/**
 * The screen a notification's chat button opens, as a Mini App start parameter (contract rule):
 * the refill, withdrawal or deposit concerned, the settings for a verification, else the cabinet.
 */
function notificationStartParam(kind: NotificationKind, params: Params): string | null {
  const target = notificationTarget(kind, params);
  return target ? formatStartParam(target) : null;
}

/**
 * Records a notification for `userId`; call it inside the event's transaction. For an account linked
 * to Telegram with chat notifications on, the same transaction puts the message in the chat outbox,
 * so the chat hears of exactly the events that happened (the worker sends it later, once).
 */
export async function notify(
  db: Database,
  userId: string,
  kind: NotificationKind,
  params: Params,
  at: Date,
): Promise<void> {
  userChanging(userId);
  await db.insert(notifications).values({ userId, kind, params, createdAt: at });
  const [user] = await db
    .select({ telegramId: users.telegramId, chatNotifications: users.chatNotifications })
    .from(users)
    .where(eq(users.id, userId));
  if (user?.telegramId != null && user.chatNotifications) {
    await db.insert(chatOutbox).values({
      userId,
      kind,
      params,
      startParam: notificationStartParam(kind, params),
      createdAt: at,
      nextAttemptAt: at,
    });
  }
}

const LIST_LIMIT = 100;

/** The caller's newest notifications in their language and the unread count. */
export async function listNotifications(db: Database, userId: string): Promise<NotificationsReply> {
  const [user] = await db.select({ language: users.language }).from(users).where(eq(users.id, userId));
  const language = userLanguage(user ?? { language: "" });
  const rows = await db
    .select()
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(LIST_LIMIT);
  const items = rows.map((row) => toNotification(row, language));
  return { items, unread: await unreadCount(db, userId) };
}

function toNotification(row: typeof notifications.$inferSelect, language: Language): Notification {
  return {
    id: row.id,
    kind: row.kind,
    target: notificationTarget(row.kind, row.params),
    ...renderNotification(row.kind, row.params, language),
    createdAt: row.createdAt.toISOString(),
    readAt: row.readAt?.toISOString() ?? null,
  };
}

/**
 * `GET /notification/inbox`: every notification of the caller, read and unread, newest first, a page at a
 * time. Keyset paging over (created_at, id) on the user's index: a deep page costs what the first does.
 */
export async function notificationsInbox(
  db: Database,
  userId: string,
  query: NotificationsInboxQuery,
): Promise<NotificationsInboxReply> {
  const [user] = await db.select({ language: users.language }).from(users).where(eq(users.id, userId));
  const language = userLanguage(user ?? { language: "" });
  let cursor: SQL | undefined;
  if (query.after) {
    const [micros, id] = query.after.split(/\.(.*)/s);
    cursor = sql`(${notifications.createdAt}, ${notifications.id}) <
      (timestamptz 'epoch' + ${micros}::bigint * interval '1 microsecond', ${id}::uuid)`;
  }
  const rows = await db
    .select({
      row: notifications,
      micros: sql<string>`(extract(epoch from ${notifications.createdAt}) * 1000000)::bigint::text`,
    })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), cursor))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  const [total] = await db.select({ n: count() }).from(notifications).where(eq(notifications.userId, userId));
  return {
    items: page.map((r) => toNotification(r.row, language)),
    unread: await unreadCount(db, userId),
    total: total?.n ?? 0,
    next: rows.length > query.limit && last ? `${last.micros}.${last.row.id}` : null,
  };
}

/** `POST /notification/:id/read`: one of the caller's notifications; another's or an unknown id is 404. */
export async function markNotificationRead(
  db: Database,
  clock: Clock,
  userId: string,
  id: string,
): Promise<{ unread: number }> {
  if (!isUuid(id)) throw new AppError("NOT_FOUND");
  const [row] = await db
    .select({ readAt: notifications.readAt })
    .from(notifications)
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)));
  if (!row) throw new AppError("NOT_FOUND");
  return markNotificationsRead(db, clock, userId, [id]);
}

/** Marks the caller's `ids` (all when absent) read; ids of other users' notifications change nothing. */
export async function markNotificationsRead(
  db: Database,
  clock: Clock,
  userId: string,
  ids?: string[],
): Promise<{ unread: number }> {
  if (ids === undefined || ids.length > 0) {
    userChanging(userId);
    await db
      .update(notifications)
      .set({ readAt: clock.now() })
      .where(
        and(
          eq(notifications.userId, userId),
          isNull(notifications.readAt),
          ids ? inArray(notifications.id, ids) : undefined,
        ),
      );
  }
  return { unread: await unreadCount(db, userId) };
}

/**
 * The open cabinet's poll (`GET /user/pulse`): one statement over indexed lookups. The version is the
 * newest operation's sequence number, the number of notifications and the newest state stamp of the
 * user's deposits, withdrawals and refills (migration 0025: every write of such a row takes a new
 * number, so an accrual run, which writes neither an operation nor a notification, moves it too): all
 * only grow, and every change of the user's money, deposits or statuses moves one of them. At once (not a promise)
 * when kept.
 */
export function pulse(db: Database, userId: string): Awaitable<PulseReply> {
  const kept = keptOf(db);
  if (kept) return kept.pulse.get(userId, () => readPulse(db, userId)) as Awaitable<PulseReply>;
  return readPulse(db, userId);
}

/** The pulse from the database; the app keeps it until the user's operations or notifications change. */
async function readPulse(db: Database, userId: string): Promise<PulseReply> {
  const result = await db.execute(sql`
    select
      (select coalesce(max(${operations.seq}), 0) from ${operations} where ${operations.userId} = ${userId})::text as op,
      (select count(*) from ${notifications} where ${notifications.userId} = ${userId})::int as notes,
      greatest(
        (select max(state_seq) from deposits where user_id = ${userId}),
        (select max(state_seq) from withdrawals where user_id = ${userId}),
        (select max(state_seq) from refills where user_id = ${userId}),
        0
      )::text as states,
      (select count(*) from ${notifications}
        where ${notifications.userId} = ${userId} and ${notifications.readAt} is null)::int as unread`);
  const rows = resultRows<{ op: string; notes: number; states: string; unread: number }>(result);
  const row = rows[0] ?? { op: "0", notes: 0, states: "0", unread: 0 };
  // Frozen: the kept pulse is every caller's, and its reply's JSON is made once (routes/reply-json.ts).
  return Object.freeze({ version: `${row.op}.${row.notes}.${row.states}`, unread: Number(row.unread) });
}
