/** Reading accounts and turning them into the contract's User and Profile. */
import { FALLBACK_LANGUAGE, Language, type User, VerificationStatus } from "@contract";
import type { Profile } from "@contract/profile";
import { and, count, desc, eq, isNull, sql } from "drizzle-orm";
import type { Clock } from "../clock";
import { keptOf } from "../db/change-feed";
import type { Database } from "../db/client";
import { Derived } from "../db/derived";
import { notifications, users, verificationRequests } from "../db/schema";

export type UserRow = typeof users.$inferSelect;

export async function findUserById(db: Database, id: string): Promise<UserRow | undefined> {
  const kept = keptOf(db);
  if (kept) return (await kept.users.get(id, () => readUser(db, id))) as UserRow | undefined;
  return readUser(db, id);
}

/** The row from the table; the app keeps it (frozen, shared) until the row changes. */
async function readUser(db: Database, id: string): Promise<UserRow | undefined> {
  const rows = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return rows[0] ? Object.freeze(rows[0]) : undefined;
}

/** By login, regardless of letter case. */
export async function findUserByLogin(db: Database, login: string): Promise<UserRow | undefined> {
  const rows = await db.select().from(users).where(sql`lower(${users.login}) = lower(${login.trim()})`).limit(1);
  return rows[0];
}

/** By login or e-mail, regardless of letter case (logins cannot contain "@", so they never collide). */
export async function findUserByLoginOrEmail(db: Database, identifier: string): Promise<UserRow | undefined> {
  const value = identifier.trim();
  const rows = await db
    .select()
    .from(users)
    .where(sql`lower(${users.login}) = lower(${value}) or lower(${users.email}) = lower(${value})`)
    .limit(1);
  return rows[0];
}

export async function findUserByTelegramId(db: Database, telegramId: number): Promise<UserRow | undefined> {
  const rows = await db.select().from(users).where(eq(users.telegramId, telegramId)).limit(1);
  return rows[0];
}

/** How a transaction takes a user's row (`lockUser`); the refill's own statement spells the same. */
export const USER_ROW_LOCK = "no key update";

/**
 * Locks the user's row until the transaction ends. Rules that count a user's rows (the caps on
 * waiting applications) take it first, so that concurrent requests of one user count one after
 * the other instead of all seeing the same count. Returns the row (undefined when absent).
 *
 * The lock is `for no key update` (USER_ROW_LOCK), every taker's alike: it queues the user's own requests,
 * and leaves alone the key share that a row referring to the user takes (an operation, a notification).
 * `for update` made those wait: an operator's confirm held the balance and waited on that share for a
 * request that held the user's row and waited for the balance, and PostgreSQL rolled one back
 * (docs/api-money.md, "Money": one lock order).
 */
export async function lockUser(tx: Database, userId: string): Promise<UserRow | undefined> {
  const [row] = await tx.select().from(users).where(eq(users.id, userId)).for(USER_ROW_LOCK);
  return row;
}

export function userLanguage(row: Pick<UserRow, "language">): Language {
  const parsed = Language.safeParse(row.language);
  return parsed.success ? parsed.data : FALLBACK_LANGUAGE;
}

/** What a User needs beyond its row: the unread notifications and whether the subscription is active now. */
interface UserExtras {
  unread: number;
  subscribed: boolean;
}

/** The URL the avatar is served at (`GET /api/user/avatar/:file`); null without one. */
function avatarUrl(row: Pick<UserRow, "avatarFile">): string | null {
  return row.avatarFile ? `/api/user/avatar/${row.avatarFile}` : null;
}

/**
 * The signed-in user as the app keeps it. Use `userView` wherever a User is returned, so that
 * `notifications.unread` and `subscription` are accurate.
 */
function toUser(row: UserRow, extras: UserExtras): User {
  return {
    id: row.id,
    login: row.login,
    fullName: row.fullName,
    email: row.email,
    phone: row.phone,
    phoneConfirmed: row.phoneConfirmedAt !== null,
    telegramLinked: row.telegramId !== null,
    language: userLanguage(row),
    avatarUrl: avatarUrl(row),
    createdAt: row.createdAt.toISOString(),
    subscription: {
      active: extras.subscribed,
      until: row.subscriptionUntil?.toISOString() ?? null,
    },
    notifications: { unread: extras.unread },
  };
}

/**
 * The User of each kept row, made once for each unread count and subscription state (frozen, shared: `GET /user/me`
 * writes it from the JSON made the first time, routes/reply-json.ts).
 */
const userViews = new Derived<UserRow, User>();

/** The User of `row` with its unread notifications counted now. */
export async function userView(db: Database, clock: Clock, row: UserRow): Promise<User> {
  const unread = await unreadCount(db, row.id);
  const subscribed = row.subscriptionUntil !== null && row.subscriptionUntil.getTime() > clock.now().getTime();
  // Both other inputs as one number: the unread count, negative (less one) while subscribed.
  return userViews.of(row, subscribed ? -1 - unread : unread, () => {
    const user = toUser(row, { unread, subscribed });
    // Weighed with the kept row it is made of (the caches' budget bounds it and its JSON too).
    keptOf(db)?.users.keepBeside(row.id, row, user);
    return user;
  });
}

/** Whether the app must ask for the phone code before the cabinet. */
export function phoneConfirmationRequired(row: UserRow): boolean {
  return row.phone !== null && row.phoneConfirmedAt === null;
}

/** The caller's profile (the settings data, docs/cabinet-rules.md#entities); only ever the signed-in user's own. */
export async function getProfile(db: Database, userId: string): Promise<Profile | undefined> {
  const row = await findUserById(db, userId);
  if (!row) return undefined;
  const inviter = row.inviterId ? await findUserById(db, row.inviterId) : undefined;
  return {
    login: row.login,
    fullName: row.fullName,
    email: row.email,
    emailConfirmed: row.emailConfirmedAt !== null,
    phone: row.phone,
    phoneConfirmed: row.phoneConfirmedAt !== null,
    city: row.city,
    country: row.country,
    registeredAt: row.createdAt.toISOString(),
    language: userLanguage(row),
    codeChannel: row.codeChannel,
    telegramLinked: row.telegramId !== null,
    inviter: inviter?.login ?? null,
    pendingPhone: row.pendingPhone,
    verificationStatus: await latestVerificationStatus(db, row.id),
    avatarUrl: avatarUrl(row),
  };
}

/** The constraint a unique violation (SQLSTATE 23505) broke, from either driver; undefined for other errors. */
export function uniqueViolation(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const candidate = e as { code?: unknown; constraint?: unknown; constraint_name?: unknown };
    if (candidate.code === "23505") {
      const name = candidate.constraint ?? candidate.constraint_name;
      return typeof name === "string" ? name : "";
    }
  }
  return undefined;
}

/** How many of the user's notifications are unread. */
export async function unreadCount(db: Database, userId: string): Promise<number> {
  const kept = keptOf(db);
  if (kept) return kept.unread.get(userId, () => readUnreadCount(db, userId));
  return readUnreadCount(db, userId);
}

async function readUnreadCount(db: Database, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return row?.n ?? 0;
}

/** The status of the user's newest verification request; null when none. */
async function latestVerificationStatus(db: Database, userId: string): Promise<VerificationStatus | null> {
  const [row] = await db
    .select({ status: verificationRequests.status })
    .from(verificationRequests)
    .where(eq(verificationRequests.userId, userId))
    .orderBy(desc(verificationRequests.createdAt))
    .limit(1);
  const parsed = VerificationStatus.safeParse(row?.status);
  return parsed.success ? parsed.data : null;
}
