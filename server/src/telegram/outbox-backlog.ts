/**
 * The chat outbox's backlog as the readiness check, the operator's routes and the CLI read it. Apart
 * from the outbox's delivery (outbox.ts) so that reading it does not load the bot's library (grammy):
 * a server without the bot never loads it.
 */
import type { ChatOutboxReply } from "@contract/operator";
import { and, asc, count, desc, eq, isNotNull, isNull, min } from "drizzle-orm";
import type { Database } from "../db/client";
import { chatOutbox, users } from "../db/schema";

/** Rows neither sent nor given up. */
export const waiting = and(isNull(chatOutbox.sentAt), isNull(chatOutbox.failedAt));

/** What waits in the outbox: how many messages, and how long the oldest has waited (readiness, CLI). */
export async function outboxBacklog(
  db: Database,
  now: Date,
): Promise<{ waiting: number; oldestWaitingSeconds: number | null }> {
  // A blocked chat's held notices wait for the investor, not for the outbox: not a backlog.
  const [row] = await db
    .select({ waiting: count(), oldest: min(chatOutbox.createdAt) })
    .from(chatOutbox)
    .innerJoin(users, eq(users.id, chatOutbox.userId))
    .where(and(waiting, isNull(users.botBlockedAt)));
  const oldest = row?.oldest ? new Date(row.oldest) : null;
  return {
    waiting: row?.waiting ?? 0,
    oldestWaitingSeconds: oldest ? Math.max(0, Math.floor((now.getTime() - oldest.getTime()) / 1000)) : null,
  };
}

/**
 * The waiting messages, oldest first (or, with `given_up`, the given-up ones, most recently given up
 * first), with the backlog's figures (`kassa outbox list`).
 */
export async function listWaiting(
  db: Database,
  now: Date,
  limit: number,
  status: "waiting" | "given_up" = "waiting",
): Promise<ChatOutboxReply> {
  const givenUp = status === "given_up";
  const rows = await db
    .select({ row: chatOutbox, login: users.login })
    .from(chatOutbox)
    .innerJoin(users, eq(users.id, chatOutbox.userId))
    .where(givenUp ? isNotNull(chatOutbox.failedAt) : waiting)
    .orderBy(givenUp ? desc(chatOutbox.failedAt) : asc(chatOutbox.seq))
    .limit(limit);
  return {
    ...(await outboxBacklog(db, now)),
    items: rows.map(({ row, login }) => ({
      id: row.id,
      login,
      kind: row.kind,
      createdAt: row.createdAt.toISOString(),
      attempts: row.attempts,
      nextAttemptAt: row.nextAttemptAt.toISOString(),
      lastError: row.lastError,
      givenUpAt: row.failedAt?.toISOString() ?? null,
    })),
  };
}

/** Makes waiting messages (one, or all) due now instead of at their next back-off; returns how many. */
export async function retryWaiting(db: Database, now: Date, id?: string): Promise<number> {
  const rows = await db
    .update(chatOutbox)
    .set({ nextAttemptAt: now })
    .where(and(waiting, id === undefined ? undefined : eq(chatOutbox.id, id)))
    .returning({ id: chatOutbox.id });
  return rows.length;
}

/**
 * Queues a given-up message again (`kassa outbox resend`): due now, its attempts and its 72 h counted
 * afresh, in its place in its chat's order. Returns 1, or 0 when no given-up message has that id.
 */
export async function resendGivenUp(db: Database, now: Date, id: string): Promise<number> {
  const rows = await db
    .update(chatOutbox)
    .set({ failedAt: null, attempts: 0, createdAt: now, nextAttemptAt: now })
    .where(and(eq(chatOutbox.id, id), isNotNull(chatOutbox.failedAt), isNull(chatOutbox.sentAt)))
    .returning({ id: chatOutbox.id });
  return rows.length;
}
