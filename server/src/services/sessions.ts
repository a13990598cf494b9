/**
 * Sessions (docs/decisions.md#d4-identity-and-sessions): the client gets a random token (its `refreshToken`), the
 * database keeps its SHA-256 with an expiry; logout revokes one, a password reset all of a user's.
 */
import { createHmac } from "node:crypto";
import { DAY_MS } from "@contract";
import { and, eq, isNull } from "drizzle-orm";
import type { Clock } from "../clock";
import { type Awaitable, andThen, type KeptLink, keptOf } from "../db/change-feed";
import type { Database } from "../db/client";
import { sessions } from "../db/schema";
import { digestHex, hashToken, newToken, TOKEN_PATTERN, tokenDigest } from "../security/tokens";

/** `last_used_at` is refreshed at most this often, so that reading the cabinet is not a write per call. */
const LAST_USED_RESOLUTION_MS = 5 * 60_000;
const USER_AGENT_MAX = 512;

/**
 * The caller of a signed-in call: its session and user. A kept session's own row (`SessionRow`), the same object for
 * each of its calls, which links what the calls read of the user (`KeptLink`: the money of `GET /user/balance`).
 */
export interface AuthSession extends KeptLink {
  readonly sessionId: string;
  readonly userId: string;
}

export async function createSession(
  db: Database,
  clock: Clock,
  input: { userId: string; ttlDays: number; userAgent?: string | undefined },
): Promise<string> {
  const token = newToken();
  const now = clock.now();
  await db.insert(sessions).values({
    userId: input.userId,
    tokenHash: hashToken(token),
    createdAt: now,
    expiresAt: new Date(now.getTime() + input.ttlDays * DAY_MS),
    lastUsedAt: now,
    userAgent: input.userAgent ? input.userAgent.slice(0, USER_AGENT_MAX) : null,
  });
  return token;
}

/**
 * The session of one sign-in proof (Telegram init data): its token is derived from the proof
 * (HMAC under the server's secret, the same on every instance), so presenting the same init data
 * again finds the same session instead of minting another. A derived session that was revoked (logout,
 * a password reset) ends its proof too: null, and the caller refuses the sign-in, so captured init data
 * opens nothing after the logout (a fresh launch from Telegram is new init data, a new proof). One that
 * merely expired is not revived: a fresh random session is made then.
 */
export async function sessionForProof(
  db: Database,
  clock: Clock,
  input: { userId: string; ttlDays: number; userAgent?: string | undefined; secret: string; proof: string },
): Promise<string | null> {
  const token = createHmac("sha256", input.secret).update(`session-proof:${input.proof}`).digest("base64url");
  const tokenHash = hashToken(token);
  const now = clock.now();
  await db
    .insert(sessions)
    .values({
      userId: input.userId,
      tokenHash,
      createdAt: now,
      expiresAt: new Date(now.getTime() + input.ttlDays * DAY_MS),
      lastUsedAt: now,
      userAgent: input.userAgent ? input.userAgent.slice(0, USER_AGENT_MAX) : null,
    })
    .onConflictDoNothing({ target: sessions.tokenHash });
  const [row] = await db
    .select({ userId: sessions.userId, revokedAt: sessions.revokedAt, expiresAt: sessions.expiresAt })
    .from(sessions)
    .where(eq(sessions.tokenHash, tokenHash))
    .limit(1);
  if (row && row.revokedAt !== null) return null;
  if (row && row.userId === input.userId && row.expiresAt.getTime() > now.getTime()) return token;
  return createSession(db, clock, input);
}

/**
 * A session as the app keeps it (db/change-feed.ts): its times in milliseconds, not dates — a date is 96 bytes
 * of heap, a number 16, and 50,000 investors' sessions are kept at once. The row is its calls' `AuthSession` as it
 * is (no object made a call), its link empty until a call reads the user's money.
 */
interface SessionRow extends AuthSession {
  expiresMs: number;
  revoked: boolean;
  lastUsedMs: number | null;
}

async function readSession(db: Database, tokenHash: string): Promise<SessionRow | null> {
  const rows = await db
    .select({
      id: sessions.id,
      userId: sessions.userId,
      expiresAt: sessions.expiresAt,
      revokedAt: sessions.revokedAt,
      lastUsedAt: sessions.lastUsedAt,
    })
    .from(sessions)
    .where(eq(sessions.tokenHash, tokenHash))
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  return {
    sessionId: row.id,
    userId: row.userId,
    expiresMs: row.expiresAt.getTime(),
    revoked: row.revokedAt !== null,
    lastUsedMs: row.lastUsedAt?.getTime() ?? null,
    linked: null,
    linkedIn: null,
  };
}

/**
 * The live session of `token`: known, not revoked, not expired. Null otherwise. The app keeps
 * the session's row until it changes (db/change-feed.ts), found by the token's SHA-256 (`tokenDigest`); expiry is
 * checked on every call. At once (not a promise) when the row is kept and its last use recent.
 */
export function findLiveSession(db: Database, clock: Clock, token: string): Awaitable<AuthSession | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const digest = tokenDigest(token);
  const kept = keptOf(db);
  const row = kept
    ? (kept.sessions.get(digest, () => readSession(db, digestHex(digest))) as Awaitable<SessionRow | null>)
    : readSession(db, digestHex(digest));
  return andThen(row, (found) => liveSession(db, clock, found));
}

function liveSession(db: Database, clock: Clock, row: SessionRow | null): Awaitable<AuthSession | null> {
  const now = clock.now().getTime();
  if (!row || row.revoked || row.expiresMs <= now) return null;
  if (row.lastUsedMs !== null && now - row.lastUsedMs < LAST_USED_RESOLUTION_MS) return row;
  return db
    .update(sessions)
    .set({ lastUsedAt: new Date(now) })
    .where(eq(sessions.id, row.sessionId))
    .then(() => {
      // The kept row is this object: it shows the new time, and the next calls skip the write.
      row.lastUsedMs = now;
      return row;
    });
}

/** Whether the session `sessionId` of `userId` still lives: not revoked, not expired. */
export async function sessionLives(db: Database, clock: Clock, sessionId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ revokedAt: sessions.revokedAt, expiresAt: sessions.expiresAt })
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
    .limit(1);
  return row !== undefined && row.revokedAt === null && row.expiresAt.getTime() > clock.now().getTime();
}

export async function revokeSession(db: Database, clock: Clock, sessionId: string): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: clock.now() })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
  keptOf(db)?.feed.changing(`session:${sessionId}`);
}

/**
 * Tells this process's session cache that these sessions were revoked inside a transaction that has
 * committed now (other instances hear the database's notification): each is dropped, the others stay.
 */
export function sessionsRevoked(db: Database, ids: readonly { id: string }[]): void {
  const feed = keptOf(db)?.feed;
  for (const { id } of ids) feed?.changing(`session:${id}`);
}

/** Signs the user out everywhere (after a password reset); the sessions revoked. */
export async function revokeAllSessions(db: Database, clock: Clock, userId: string): Promise<{ id: string }[]> {
  const revoked = await db
    .update(sessions)
    .set({ revokedAt: clock.now() })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  sessionsRevoked(db, revoked);
  return revoked;
}
