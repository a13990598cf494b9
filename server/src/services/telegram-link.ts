/**
 * Linking a password account to Telegram (docs/delivery.md#linking-telegram). Settings asks for a
 * one-time link, `https://t.me/<bot>?start=link_<token>`: 32 random bytes, only their SHA-256 stored,
 * valid 10 minutes, used once, and a new link voids the account's older ones. The bot's
 * `/start link_<token>` redeems it for the Telegram account that sent it: from then on the chat
 * hears of the account's events, codes may go there, and Telegram sign-in reaches this account.
 */
import type { Language, TelegramLinkReply } from "@contract";
import { and, eq, isNull } from "drizzle-orm";
import type { Clock } from "../clock";
import type { ServiceContext } from "../context";
import { userChanging } from "../db/change-feed";
import type { Database } from "../db/client";
import { telegramLinkTokens, users } from "../db/schema";
import { AppError } from "../errors";
import { hashToken, newToken, TOKEN_PATTERN } from "../security/tokens";
import { currentUser } from "./auth";
import type { AuthSession } from "./sessions";
import { getSetting } from "./settings";
import { lockUser, uniqueViolation, userLanguage } from "./users";

/** How long a link works. */
const TELEGRAM_LINK_TTL_SECONDS = 600;
/** The bot's start payload: `link_` and the token. */
export const LINK_PAYLOAD_PREFIX = "link_";

/** `POST /user/settings/security/telegram`: a new one-time link; the account's older links stop working. */
export async function createTelegramLink(
  deps: Pick<ServiceContext, "db" | "clock">,
  auth: AuthSession,
): Promise<TelegramLinkReply> {
  const user = await currentUser(deps, auth);
  if (user.telegramId !== null) {
    throw new AppError("VALIDATION_FAILED", { params: { reason: "already_linked" } });
  }
  const token = newToken();
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await tx
      .update(telegramLinkTokens)
      .set({ usedAt: now })
      .where(and(eq(telegramLinkTokens.userId, user.id), isNull(telegramLinkTokens.usedAt)));
    await tx.insert(telegramLinkTokens).values({
      userId: user.id,
      tokenHash: hashToken(token),
      createdAt: now,
      expiresAt: new Date(now.getTime() + TELEGRAM_LINK_TTL_SECONDS * 1000),
    });
  });
  const bot = await getSetting(deps.db, "botUsername");
  return {
    url: `https://t.me/${bot}?start=${LINK_PAYLOAD_PREFIX}${token}`,
    expiresInSeconds: TELEGRAM_LINK_TTL_SECONDS,
  };
}

/** What became of a `/start link_<token>`; the bot answers each in the chat's language. */
export type LinkOutcome =
  | { kind: "linked"; login: string; language: Language }
  /** This Telegram account is this very investor's already. */
  | { kind: "same"; login: string; language: Language }
  /** Unknown, used or voided. */
  | { kind: "invalid" }
  | { kind: "expired" }
  /** The Telegram account belongs to another investor. */
  | { kind: "taken" }
  /** The investor of the link is linked to another Telegram account meanwhile. */
  | { kind: "otherTelegram" };

/**
 * Redeems `token` for the Telegram user `telegramId`. The token row is locked, so two presses of the
 * same link cannot both pass; it is used up by any answer but "expired" (which is final anyway).
 */
export async function redeemTelegramLink(
  deps: { db: Database; clock: Clock },
  token: string,
  telegramId: number,
): Promise<LinkOutcome> {
  if (!TOKEN_PATTERN.test(token)) return { kind: "invalid" };
  const now = deps.clock.now();
  try {
    return await deps.db.transaction(async (tx): Promise<LinkOutcome> => {
      const [row] = await tx
        .select()
        .from(telegramLinkTokens)
        .where(eq(telegramLinkTokens.tokenHash, hashToken(token)))
        .for("update");
      if (!row || row.usedAt !== null) return { kind: "invalid" };
      if (row.expiresAt.getTime() <= now.getTime()) return { kind: "expired" };
      const owner = await lockUser(tx, row.userId);
      if (!owner) return { kind: "invalid" };
      const [holder] = await tx.select({ id: users.id }).from(users).where(eq(users.telegramId, telegramId));
      await tx.update(telegramLinkTokens).set({ usedAt: now }).where(eq(telegramLinkTokens.id, row.id));
      const language = userLanguage(owner);
      if (owner.telegramId === telegramId) return { kind: "same", login: owner.login, language };
      if (holder) return { kind: "taken" };
      if (owner.telegramId !== null) return { kind: "otherTelegram" };
      userChanging(owner.id);
      const [linked] = await tx
        .update(users)
        .set({ telegramId, botBlockedAt: null })
        .where(and(eq(users.id, owner.id), isNull(users.telegramId)))
        .returning({ login: users.login });
      return linked ? { kind: "linked", login: linked.login, language } : { kind: "otherTelegram" };
    });
  } catch (error) {
    // Another account took this Telegram id at the same moment (users.telegram_id is unique).
    if (uniqueViolation(error) !== undefined) return { kind: "taken" };
    throw error;
  }
}
