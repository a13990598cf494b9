/**
 * The bot's updates in the database (`telegram_updates`). The webhook stores each update with its
 * body and answers Telegram at once; the update is then handled from what was stored, in the
 * background, and a stored update whose handling never ran (a crash right after the answer) is
 * picked up later by any process. A handler takes an update by setting `handled_at` (the bot's first
 * middleware): whoever takes it first handles it, a replay or a second taker skips it. Rows are
 * kept a week (Telegram resends an update for a day at most), then pruned.
 */
import { and, isNotNull, isNull, lt, sql } from "drizzle-orm";
import type { Update } from "grammy/types";
import type { Database } from "../db/client";
import { telegramUpdates } from "../db/schema";

/** How long an update's id is remembered (for the dedupe) after it arrived. */
const UPDATES_KEPT_MS = 7 * 86_400_000;
/** A stored update not handled after this long is handled by the chores (its own handling died). */
export const STORED_GRACE_MS = 30_000;

/** Stores a webhook update to be handled; false when its id was seen before (a resend). */
export async function storeUpdate(db: Database, update: Update, now: Date): Promise<boolean> {
  const rows = await db
    .insert(telegramUpdates)
    .values({ updateId: update.update_id, receivedAt: now, payload: update as unknown as Record<string, unknown> })
    .onConflictDoNothing()
    .returning({ updateId: telegramUpdates.updateId });
  return rows.length > 0;
}

/**
 * Takes update `updateId` for handling: true once per update, whether it was stored by the webhook
 * (not handled yet) or arrives now (long polling); false for an update already taken.
 */
export function takeUpdateSql(updateId: number, at: string) {
  return sql`insert into telegram_updates (update_id, received_at, handled_at) values (${updateId}, ${at}, ${at})
    on conflict (update_id) do update set handled_at = excluded.handled_at, payload = null
      where telegram_updates.handled_at is null
    returning update_id`;
}

/** Handles stored updates received before `before` and not taken yet, oldest first; returns how many. */
export async function handleStoredUpdates(
  db: Database,
  before: Date,
  handle: (update: Update) => Promise<void>,
  limit = 100,
): Promise<number> {
  const rows = await db
    .select({ payload: telegramUpdates.payload })
    .from(telegramUpdates)
    .where(
      and(
        isNull(telegramUpdates.handledAt),
        isNotNull(telegramUpdates.payload),
        lt(telegramUpdates.receivedAt, before),
      ),
    )
    .orderBy(telegramUpdates.updateId)
    .limit(limit);
  for (const { payload } of rows) if (payload) await handle(payload as unknown as Update);
  return rows.length;
}

/** Forgets updates older than `UPDATES_KEPT_MS` (handled or not: a week-old reply is no reply). */
export async function pruneUpdates(db: Database, now: Date): Promise<number> {
  const rows = await db
    .delete(telegramUpdates)
    .where(lt(telegramUpdates.receivedAt, new Date(now.getTime() - UPDATES_KEPT_MS)))
    .returning({ updateId: telegramUpdates.updateId });
  return rows.length;
}
