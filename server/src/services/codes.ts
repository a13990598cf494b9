/**
 * One-time codes (docs/decisions.md#d5-codes) for phone confirmation, password reset, withdrawals,
 * withdrawal wallet changes and the e-mail's confirmation:
 * 6 digits from a CSPRNG, stored as an HMAC under a server-side key, single use, valid `ttlSeconds`,
 * a new one only after `resendSeconds`, voided by `maxAttempts` wrong tries (the `codes` setting).
 * Only the newest code of a user and purpose counts.
 */
import { createHmac, randomInt, randomUUID, timingSafeEqual } from "node:crypto";
import { type CodeChannel, SUCCESS_MESSAGES } from "@contract";
import type { CodeSentReply } from "@contract/auth";
import { and, desc, eq, isNull, lt, sql } from "drizzle-orm";
import type { ServiceContext } from "../context";
import { userChanging } from "../db/change-feed";
import { type CodePurpose, users, verificationCodes } from "../db/schema";
import { CodeSendError } from "../delivery/code-sender";
import type { RateLimitRule } from "../env";
import { AppError } from "../errors";
import { rateLimited } from "../security/rate-limit";
import { getSetting } from "./settings";
import { USER_ROW_LOCK, type UserRow, userLanguage } from "./users";

export interface IssueOptions {
  /** What the code confirms (the phone number, a withdrawal id). */
  target?: string | null;
  /**
   * When the previous code is younger than `resendSeconds`: `refuse` (429 RATE_LIMITED with the
   * seconds left) or `skip` (send nothing, resolve null), for calls that must not reveal anything.
   */
  whenWaiting?: "refuse" | "skip";
  /**
   * Send without waiting for the provider; a failure is logged and the code withdrawn. For calls
   * whose reply must not depend on the account (password reset).
   */
  background?: boolean;
  /**
   * `target`: the resend wait and "newest code" count per target (a withdrawal's code does not
   * hold back another withdrawal's). By default per user and purpose.
   */
  scope?: "user" | "target";
  /**
   * Sent on this channel only, never falling back to another (the code confirms the channel). By default
   * the user's channel, with the sender's fallback.
   */
  channel?: CodeChannel;
}

function codeHash(secret: string, id: string, purpose: CodePurpose, code: string): string {
  return createHmac("sha256", secret).update(`${id}:${purpose}:${code}`).digest("hex");
}

function generateCode(digits: number): string {
  return randomInt(0, 10 ** digits)
    .toString()
    .padStart(digits, "0");
}

/** Issues a new code and sends it through the user's channel. Null when skipped (see `whenWaiting`). */
export async function issueCode(
  deps: ServiceContext,
  user: UserRow,
  purpose: CodePurpose,
  options: IssueOptions = {},
): Promise<CodeSentReply | null> {
  const { db, clock } = deps;
  const settings = await getSetting(db, "codes");
  const code = generateCode(settings.digits);
  const id = randomUUID();

  const issued = await db.transaction(async (tx) => {
    // One issuer per user at a time, so two quick requests cannot both pass the resend wait.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for(USER_ROW_LOCK);
    const now = clock.now();
    const [latest] = await tx
      .select({ createdAt: verificationCodes.createdAt })
      .from(verificationCodes)
      .where(
        and(
          eq(verificationCodes.userId, user.id),
          eq(verificationCodes.purpose, purpose),
          options.scope === "target" ? eq(verificationCodes.target, options.target ?? "") : undefined,
        ),
      )
      .orderBy(desc(verificationCodes.createdAt))
      .limit(1);
    if (latest) {
      const waitMs = latest.createdAt.getTime() + settings.resendSeconds * 1000 - now.getTime();
      if (waitMs > 0) {
        if (options.whenWaiting === "skip") return false;
        throw rateLimited(waitMs / 1000);
      }
    }
    await tx.insert(verificationCodes).values({
      id,
      userId: user.id,
      purpose,
      target: options.target ?? null,
      codeHash: codeHash(deps.codeSecret, id, purpose, code),
      expiresAt: new Date(now.getTime() + settings.ttlSeconds * 1000),
      createdAt: now,
    });
    return true;
  });
  if (!issued) return null;

  // A phone's code proves the number: where the server sends SMS, it goes by SMS to that number only.
  const phoneBySms = purpose === "phone" && !!options.target && deps.codeSender.delivers?.("sms") === true;
  const only = options.channel ?? (phoneBySms ? "sms" : undefined);
  const phone = phoneBySms ? (options.target ?? null) : user.phone;
  const delivery = deps.codeSender.send({
    login: user.login,
    language: userLanguage(user),
    channel: only ?? user.codeChannel,
    ...(only ? { only: true } : {}),
    telegramId: user.telegramId,
    telegramBlocked: user.botBlockedAt !== null,
    email: user.email,
    phone,
    purpose,
    code,
    expiresInSeconds: settings.ttlSeconds,
    // Nobody waits for a background send: it may keep trying for half the code's life.
    ...(options.background ? { patienceSeconds: Math.floor(settings.ttlSeconds / 2) } : {}),
    // Marked as the chat outbox marks it: until the investor writes to the bot again (or unblocks it).
    onBotBlocked: async () => {
      if (user.telegramId === null) return;
      userChanging(user.id);
      await db.update(users).set({ botBlockedAt: clock.now() }).where(eq(users.telegramId, user.telegramId));
    },
  });
  const withdraw = async (error: unknown) => {
    deps.log.warn({ err: error, login: user.login, purpose, channel: only ?? user.codeChannel }, "code not sent");
    // A code nobody received must not hold back the next request.
    await db.delete(verificationCodes).where(eq(verificationCodes.id, id));
  };
  if (options.background) {
    delivery.catch((error: unknown) => withdraw(error).catch(() => {}));
  }
  // Where the code went: the user's channel, or the one the sender fell back to.
  let channel = only ?? user.codeChannel;
  if (!options.background) {
    try {
      channel = (await delivery) || channel;
    } catch (error) {
      await withdraw(error);
      // A provider that asked to wait longer than the user can (429 `retry_after` past the code's
      // patience) is not waited for: the reply says when to ask again, as any rate limit does.
      if (error instanceof CodeSendError && error.transient && error.retryAfterSeconds !== undefined)
        throw rateLimited(error.retryAfterSeconds);
      throw new AppError("CODE_SEND_FAILED", { cause: error });
    }
  }
  const destination = maskedDestination({ ...user, phone, codeChannel: channel });
  return {
    message: SUCCESS_MESSAGES.CODE_SENT,
    resendAfterSeconds: settings.resendSeconds,
    expiresInSeconds: settings.ttlSeconds,
    channel,
    ...(destination ? { destination } : {}),
  };
}

/**
 * Where the user's channel delivers, masked so the reply confirms the address to its owner without
 * spelling it out: `a***@example.com`, `+7******4567`. Telegram needs no address (the user's chat).
 */
export function maskedDestination(user: Pick<UserRow, "codeChannel" | "email" | "phone">): string | undefined {
  if (user.codeChannel === "email" && user.email) {
    const at = user.email.lastIndexOf("@");
    if (at < 1) return undefined;
    return `${user.email.slice(0, 1)}***${user.email.slice(at)}`;
  }
  if (user.codeChannel === "sms" && user.phone) {
    const digits = user.phone.length;
    if (digits < 7) return undefined;
    return `${user.phone.slice(0, 2)}${"*".repeat(digits - 6)}${user.phone.slice(-4)}`;
  }
  return undefined;
}

/**
 * Checks `code` against the user's newest code for `purpose` (with `scope` "target": for that
 * target) and uses it up. Throws
 * CODE_INVALID (none, used, voided or for another target), CODE_EXPIRED, or CODE_MISMATCH
 * (with `params.attemptsLeft`; the try counts).
 */
export async function verifyCode(
  deps: Pick<ServiceContext, "db" | "clock" | "codeSecret">,
  userId: string,
  purpose: CodePurpose,
  code: string,
  target?: string | null,
  scope: "user" | "target" = "user",
): Promise<void> {
  const { db, clock } = deps;
  const settings = await getSetting(db, "codes");
  const [row] = await db
    .select()
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.userId, userId),
        eq(verificationCodes.purpose, purpose),
        scope === "target" ? eq(verificationCodes.target, target ?? "") : undefined,
      ),
    )
    .orderBy(desc(verificationCodes.createdAt))
    .limit(1);
  const now = clock.now();
  if (!row || row.consumedAt !== null || row.attempts >= settings.maxAttempts) throw new AppError("CODE_INVALID");
  if (target !== undefined && row.target !== target) throw new AppError("CODE_INVALID");
  if (row.expiresAt.getTime() <= now.getTime()) throw new AppError("CODE_EXPIRED");

  const expected = Buffer.from(row.codeHash, "hex");
  const given = Buffer.from(codeHash(deps.codeSecret, row.id, purpose, code), "hex");
  const live = and(
    eq(verificationCodes.id, row.id),
    isNull(verificationCodes.consumedAt),
    lt(verificationCodes.attempts, settings.maxAttempts),
  );

  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    const [counted] = await db
      .update(verificationCodes)
      .set({ attempts: sql`${verificationCodes.attempts} + 1` })
      .where(live)
      .returning({ attempts: verificationCodes.attempts });
    if (!counted) throw new AppError("CODE_INVALID");
    throw new AppError("CODE_MISMATCH", {
      params: { attemptsLeft: String(Math.max(0, settings.maxAttempts - counted.attempts)) },
    });
  }

  const [used] = await db
    .update(verificationCodes)
    .set({ consumedAt: now })
    .where(live)
    .returning({ id: verificationCodes.id });
  // Another request used it (or voided it) in between.
  if (!used) throw new AppError("CODE_INVALID");
}

/**
 * Wrong phone-confirmation codes per account (docs/decisions.md#guessing-budgets): a day's budget,
 * whichever number and client address, shared by every instance on PostgreSQL. A phone code is
 * guessed by a signed-in session, so a count "in a row until the owner signs in" (the reset's) would
 * not bind the guesser; a day's budget does, and holds the owner back a day at most.
 */
export const PHONE_CODE_GUESSES: RateLimitRule = { max: 20, windowSeconds: 86_400 };

/**
 * One entry of a phone-confirmation code (`verifyCode` for purpose `phone`) under the account's
 * PHONE_CODE_GUESSES: each entry takes a point first (parallel guesses cannot slip past), and all but
 * a wrong code give it back; past the budget 429 RATE_LIMITED, unjudged.
 */
export async function enterPhoneCode(
  deps: Pick<ServiceContext, "db" | "clock" | "codeSecret" | "limiter">,
  userId: string,
  code: string,
  target: string,
  scope: "user" | "target" = "user",
): Promise<void> {
  const key = `phone-code-account:${userId}`;
  await deps.limiter.consume(key, PHONE_CODE_GUESSES);
  let wrong = false;
  try {
    await verifyCode(deps, userId, "phone", code, target, scope);
  } catch (error) {
    wrong = error instanceof AppError && error.code === "CODE_MISMATCH";
    throw error;
  } finally {
    if (!wrong) await deps.limiter.refund(key, PHONE_CODE_GUESSES);
  }
}
