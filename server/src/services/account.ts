/**
 * The Settings screen's account rules (docs/cabinet-rules.md: screens, field rules, messages): password change,
 * settings data with a confirmed phone change, and the security setting (where codes go).
 */
import {
  CODE_CHANNELS,
  type CodeChannel,
  type Profile,
  type ProfileUpdateBody,
  type SecuritySettings,
  type User,
} from "@contract";
import type { CodeSentReply } from "@contract/auth";
import { isTooSimple } from "@contract/validation";
import { and, eq, ne, sql } from "drizzle-orm";
import type { ServiceContext } from "../context";
import { userChanging } from "../db/change-feed";
import { sessions, users } from "../db/schema";
import type { CodeSender } from "../delivery/code-sender";
import type { RateLimitRule } from "../env";
import { AppError } from "../errors";
import { hashPassword, verifyPassword } from "../security/password";
import { currentUser, type RequestMeta } from "./auth";
import { enterPhoneCode, issueCode, maskedDestination, PHONE_CODE_GUESSES, verifyCode } from "./codes";
import { queueNotice, sendNoticesNow } from "./notice-outbox";
import { type AuthSession, sessionsRevoked } from "./sessions";
import { getProfile, type UserRow, uniqueViolation, userView } from "./users";

/**
 * New phones an account may try a day (each answer, PHONE_TAKEN or a code sent, tells whether the
 * number has an account): beyond it 429 RATE_LIMITED, so a session is no directory of phones.
 */
export const PHONE_CHANGE_TRIES: RateLimitRule = { max: 10, windowSeconds: 86_400 };

// ---------------------------------------------------------------------------------------------
// Password change

/**
 * `PATCH /user/password`. Checks, after the schema's rules on the new password: the repeat
 * (NEW_PASSWORDS_MISMATCH), the old password (OLD_PASSWORD_INCORRECT; wrong tries count against
 * the login rate limit of the account), the new password not containing the login. Then the
 * argon2id hash is stored and every OTHER live session of the user is revoked; the caller's stays.
 */
export async function changePassword(
  deps: ServiceContext,
  auth: AuthSession,
  body: { oldPassword: string; password: string; passwordRepeat: string },
  meta: RequestMeta,
): Promise<void> {
  if (body.password !== body.passwordRepeat) throw new AppError("NEW_PASSWORDS_MISMATCH");
  const user = await currentUser(deps, auth);
  const limitKey = `password-change:${user.id}`;
  await deps.limiter.check(limitKey, deps.env.RATE_LIMITS.loginAccount);
  const matches = user.passwordHash ? await verifyPassword(user.passwordHash, body.oldPassword) : false;
  if (!matches) {
    await deps.limiter.hit(limitKey, deps.env.RATE_LIMITS.loginAccount);
    await deps.limiter.hit(`login-ip:${meta.ip}`, deps.env.RATE_LIMITS.loginIp);
    throw new AppError("OLD_PASSWORD_INCORRECT");
  }
  if (isTooSimple(body.password, user.login)) {
    throw new AppError("VALIDATION_FAILED", { fields: { password: "passwordTooSimple" } });
  }
  await deps.limiter.reset(limitKey);
  const passwordHash = await hashPassword(body.password);
  const now = deps.clock.now();
  const [date = "", time = ""] = now.toISOString().slice(0, 16).split("T");
  const revoked = await deps.db.transaction(async (tx) => {
    userChanging(user.id);
    await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
    // The owner hears of it (when and how to react if it was not them), durably: the notice exists with the change.
    await queueNotice(tx, user.id, "password_changed", { date, time });
    return tx
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(eq(sessions.userId, user.id), ne(sessions.id, auth.sessionId), sql`${sessions.revokedAt} is null`))
      .returning({ id: sessions.id });
  });
  sessionsRevoked(deps.db, revoked);
  await sendNoticesNow(deps, user.id);
}

// ---------------------------------------------------------------------------------------------
// Settings data

const blankToNull = (value: string | null | undefined) =>
  value === undefined ? undefined : value === null || value.trim() === "" ? null : value.trim();

/** Any failure but a taken phone is 'Update error {error}' with `params.error`. */
function updateFailed(error: string, cause?: unknown): AppError {
  return new AppError("UPDATE_FAILED", { params: { error }, cause });
}

/**
 * `PATCH /user-data` and `POST /user/profile`. Full name, city, country and the interface language (what
 * notifications, the bot and the codes' texts are written in) are stored at once. A
 * phone other than the current one (PHONE_CHANGE_TRIES a day) is checked free (PHONE_TAKEN), kept as `pending_phone` and a
 * code (purpose `phone`, target the new number) goes out through the user's channel; the phone
 * switches on `confirmPhoneChange`. The current phone given again changes nothing.
 */
export async function updateProfile(
  deps: ServiceContext,
  auth: AuthSession,
  body: ProfileUpdateBody,
  meta: RequestMeta,
): Promise<{ profile: Profile; user: User; phoneCode: CodeSentReply | null }> {
  const user = await currentUser(deps, auth);
  const changes: Partial<typeof users.$inferInsert> = {};
  const fullName = blankToNull(body.fullName);
  const city = blankToNull(body.city);
  const country = blankToNull(body.country);
  if (fullName !== undefined) changes.fullName = fullName;
  if (city !== undefined) changes.city = city;
  if (country !== undefined) changes.country = country;
  if (body.language !== undefined && body.language !== user.language) changes.language = body.language;

  const newPhone = body.phone !== undefined && body.phone !== user.phone ? body.phone : null;
  if (newPhone) {
    await deps.limiter.consume(`phone-change:${user.id}`, PHONE_CHANGE_TRIES);
    const [holder] = await deps.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.phone, newPhone), ne(users.id, user.id)))
      .limit(1);
    if (holder) throw new AppError("PHONE_TAKEN");
    const limits = deps.env.RATE_LIMITS;
    await deps.limiter.check(`code-request-ip:${meta.ip}`, limits.codeRequestIp);
    await deps.limiter.check(`code-request-account:${user.id}`, limits.codeRequestAccount);
    changes.pendingPhone = newPhone;
  } else if (body.phone !== undefined && user.pendingPhone) {
    // The current phone given again: a pending change is dropped.
    changes.pendingPhone = null;
  }

  let updated: UserRow = user;
  if (Object.keys(changes).length > 0) {
    try {
      userChanging(user.id);
      const [row] = await deps.db.update(users).set(changes).where(eq(users.id, user.id)).returning();
      if (!row) throw updateFailed("account not found");
      updated = row;
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw updateFailed(uniqueViolation(error) !== undefined ? "value already used" : "could not save", error);
    }
  }

  let phoneCode: CodeSentReply | null = null;
  if (newPhone) {
    const limits = deps.env.RATE_LIMITS;
    await deps.limiter.hit(`code-request-ip:${meta.ip}`, limits.codeRequestIp);
    await deps.limiter.hit(`code-request-account:${user.id}`, limits.codeRequestAccount);
    // The resend wait counts per number: the registration's code for the old one does not hold it back.
    phoneCode = await issueCode(deps, updated, "phone", { target: newPhone, whenWaiting: "refuse", scope: "target" });
  }
  return { ...(await profileAndUser(deps, updated)), phoneCode };
}

async function profileAndUser(deps: Pick<ServiceContext, "db" | "clock">, row: UserRow) {
  const profile = await getProfile(deps.db, row.id);
  if (!profile) throw new AppError("SESSION_TIMEOUT");
  return { profile, user: await userView(deps.db, deps.clock, row) };
}

/**
 * `POST /user-data/phone/confirm`: the code sent for the pending phone. The phone switches and
 * counts as confirmed. No pending phone is CODE_INVALID; a phone taken meanwhile PHONE_TAKEN.
 */
export async function confirmPhoneChange(
  deps: ServiceContext,
  auth: AuthSession,
  code: string,
  meta: RequestMeta,
): Promise<{ profile: Profile; user: User }> {
  await deps.limiter.consume(`code-entry-ip:${meta.ip}`, deps.env.RATE_LIMITS.codeEntryIp);
  const user = await currentUser(deps, auth);
  if (!user.pendingPhone) throw new AppError("CODE_INVALID");
  await enterPhoneCode(deps, user.id, code, user.pendingPhone, "target");
  try {
    userChanging(user.id);
    const [row] = await deps.db
      .update(users)
      .set({ phone: user.pendingPhone, phoneConfirmedAt: deps.clock.now(), pendingPhone: null })
      .where(eq(users.id, user.id))
      .returning();
    if (!row) throw new AppError("SESSION_TIMEOUT");
    // An SMS channel chosen for the old number now goes to the confirmed new one.
    return profileAndUser(deps, row);
  } catch (error) {
    if (uniqueViolation(error) !== undefined) throw new AppError("PHONE_TAKEN", { cause: error });
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Security: where codes go

/** Only confirmed channels: Telegram when linked, e-mail when confirmed, SMS when the phone is. */
function availableChannels(row: UserRow): Record<CodeChannel, boolean> {
  return {
    telegram: row.telegramId !== null,
    email: row.email !== null && row.emailConfirmedAt !== null,
    sms: row.phone !== null && row.phoneConfirmedAt !== null,
  };
}

/**
 * The setting as Settings shows it: the chosen channel, where codes really go (`sender.route`, the same
 * choice the sender makes: the chosen channel, or its fallback when the server has no provider or the
 * user no address there), and each channel with its masked address.
 */
export function securitySettings(row: UserRow, sender: Pick<CodeSender, "route">): SecuritySettings {
  const available = availableChannels(row);
  const recipient = {
    channel: row.codeChannel,
    telegramId: row.telegramId,
    telegramBlocked: row.botBlockedAt !== null,
    email: row.email,
    phone: row.phone,
  };
  const codesGoTo = sender.route ? sender.route(recipient) : row.codeChannel;
  const masked = (channel: CodeChannel) => maskedDestination({ ...row, codeChannel: channel });
  const destination = codesGoTo ? masked(codesGoTo) : undefined;
  return {
    codeChannel: row.codeChannel,
    codesGoTo,
    ...(destination ? { destination } : {}),
    channels: CODE_CHANNELS.map((channel) => {
      const address = masked(channel);
      return { channel, available: available[channel], ...(address ? { destination: address } : {}) };
    }),
    chatNotifications: row.chatNotifications,
    chatLinked: row.telegramId !== null,
  };
}

export async function getSecurity(
  deps: Pick<ServiceContext, "db" | "codeSender">,
  auth: AuthSession,
): Promise<SecuritySettings> {
  return securitySettings(await currentUser(deps, auth), deps.codeSender);
}

/**
 * The code channel and/or the chat notifications switch. Choosing an unavailable channel is 400
 * VALIDATION_FAILED on `codeChannel`.
 */
export async function setSecurity(
  deps: Pick<ServiceContext, "db" | "codeSender">,
  auth: AuthSession,
  body: { codeChannel?: CodeChannel | undefined; chatNotifications?: boolean | undefined },
): Promise<SecuritySettings> {
  const user = await currentUser(deps, auth);
  const { codeChannel, chatNotifications } = body;
  if (codeChannel !== undefined && !availableChannels(user)[codeChannel]) {
    throw new AppError("VALIDATION_FAILED", { fields: { codeChannel: "required" }, params: { reason: "unavailable" } });
  }
  userChanging(user.id);
  const [row] = await deps.db
    .update(users)
    .set({
      ...(codeChannel !== undefined ? { codeChannel } : {}),
      ...(chatNotifications !== undefined ? { chatNotifications } : {}),
    })
    .where(eq(users.id, user.id))
    .returning();
  return securitySettings(row ?? user, deps.codeSender);
}

// ---------------------------------------------------------------------------------------------
// Security: confirming the e-mail as a channel

/**
 * `POST /user/settings/security/email`: a code (purpose `email`, target the address) sent to the e-mail
 * and nowhere else, so entering it proves the address receives codes. No e-mail is 400 VALIDATION_FAILED
 * on `email`; the code-request limits and the resend wait hold as for every code; a server without an
 * e-mail provider answers 502 CODE_SEND_FAILED, honestly.
 */
export async function requestEmailCode(
  deps: ServiceContext,
  auth: AuthSession,
  meta: RequestMeta,
): Promise<CodeSentReply> {
  const user = await currentUser(deps, auth);
  if (!user.email) throw new AppError("VALIDATION_FAILED", { fields: { email: "required" } });
  const limits = deps.env.RATE_LIMITS;
  await deps.limiter.check(`code-request-ip:${meta.ip}`, limits.codeRequestIp);
  await deps.limiter.check(`code-request-account:${user.id}`, limits.codeRequestAccount);
  await deps.limiter.hit(`code-request-ip:${meta.ip}`, limits.codeRequestIp);
  await deps.limiter.hit(`code-request-account:${user.id}`, limits.codeRequestAccount);
  const sent = await issueCode(deps, user, "email", {
    target: user.email,
    channel: "email",
    whenWaiting: "refuse",
    scope: "target",
  });
  if (!sent) throw new AppError("CODE_SEND_FAILED");
  return sent;
}

/**
 * `POST /user/settings/security/email/confirm`: the code sent to the e-mail; the e-mail counts as
 * confirmed (a channel the investor may choose). Wrong codes count against the code's tries and a day's
 * budget per account (as the phone's), each entry against the address's code-entry limit.
 */
export async function confirmEmail(
  deps: ServiceContext,
  auth: AuthSession,
  code: string,
  meta: RequestMeta,
): Promise<SecuritySettings> {
  await deps.limiter.consume(`code-entry-ip:${meta.ip}`, deps.env.RATE_LIMITS.codeEntryIp);
  const user = await currentUser(deps, auth);
  if (!user.email) throw new AppError("CODE_INVALID");
  const key = `email-code-account:${user.id}`;
  await deps.limiter.consume(key, PHONE_CODE_GUESSES);
  let wrong = false;
  try {
    await verifyCode(deps, user.id, "email", code, user.email, "target");
  } catch (error) {
    wrong = error instanceof AppError && error.code === "CODE_MISMATCH";
    throw error;
  } finally {
    if (!wrong) await deps.limiter.refund(key, PHONE_CODE_GUESSES);
  }
  userChanging(user.id);
  const [row] = await deps.db
    .update(users)
    .set({ emailConfirmedAt: deps.clock.now() })
    .where(and(eq(users.id, user.id), eq(users.email, user.email)))
    .returning();
  // The address changed in between: the code confirmed the old one.
  if (!row) throw new AppError("CODE_INVALID");
  return securitySettings(row, deps.codeSender);
}
