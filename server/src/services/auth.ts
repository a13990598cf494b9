/**
 * Sign-in rules (docs/decisions.md#d4-identity-and-sessions, #d5-codes): password login, registration under an
 * inviter, Telegram sign-in, phone confirmation, and the password reset. Each call takes the request's address
 * for the rate limits; see server/README.md for the limits and the error of each refusal.
 */
import { randomBytes } from "node:crypto";
import {
  FALLBACK_LANGUAGE,
  inviterFromStartParam,
  LANGUAGES,
  type Language,
  SUCCESS_MESSAGES,
  type User,
} from "@contract";
import type {
  CodeSentReply,
  LoginBody,
  RegisterBody,
  ResetPasswordValidateReply,
  SessionReply,
  SetPasswordBody,
  TelegramAuthBody,
} from "@contract/auth";
import { isTooSimple, LoginField } from "@contract/validation";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { ServiceContext } from "../context";
import { userChanging } from "../db/change-feed";
import { guessFailures, passwordResetTokens, users, verificationCodes } from "../db/schema";
import type { RateLimitRule } from "../env";
import { AppError } from "../errors";
import type { KnownDevice } from "../security/device-cookie";
import { hashPassword, verifyPassword } from "../security/password";
import { rateLimited } from "../security/rate-limit";
import { type InitDataRefusal, type TelegramUser, validateInitData } from "../security/telegram-init-data";
import { hashToken, newToken, TOKEN_PATTERN } from "../security/tokens";
import { enterPhoneCode, issueCode, verifyCode } from "./codes";
import { type AuthSession, createSession, revokeAllSessions, sessionForProof, sessionsRevoked } from "./sessions";
import { getSetting } from "./settings";
import {
  findUserById,
  findUserByLogin,
  findUserByLoginOrEmail,
  findUserByTelegramId,
  phoneConfirmationRequired,
  type UserRow,
  uniqueViolation,
  userView,
} from "./users";

/** What the rules need to know about the request. */
export interface RequestMeta {
  ip: string;
  userAgent?: string | undefined;
  /** The device cookie's account and nonce, when the request carries a valid one (security/device-cookie.ts). */
  device?: KnownDevice | undefined;
}

/** A password-reset token lives this long after the code was validated. */
const RESET_TOKEN_TTL_SECONDS = 15 * 60;

/**
 * Wrong passwords per account from any address (docs/decisions.md#guessing-budgets), beside the
 * limits per address: the first `free` within a day are judged as they come; after each later one
 * the account's next try waits, a minute at first, doubling up to an hour. The owner is never held
 * back longer than that wait, and Telegram sign-in and the password reset are not held back at all
 * (a password set by the reset clears the count, as a successful login does).
 */
export const LOGIN_ACCOUNT_GUESSES = { free: 10, windowSeconds: 86_400, firstWaitSeconds: 60, maxWaitSeconds: 3600 };

/**
 * Wrong password-reset codes per account, whichever form (login or e-mail typed) and channel: at
 * most `perHour`, and after `lockAfter` in a row (NIST SP 800-63B 5.2.2) the reset is locked (no code
 * sent, none accepted) until the owner signs in with the password or Telegram.
 */
export const RESET_CODE_GUESSES: { perHour: RateLimitRule; lockAfter: number } = {
  perHour: { max: 10, windowSeconds: 3600 },
  lockAfter: 100,
};

/** Telegram sign-ins per client address and per Telegram user (every call counts, replays too). */
export const TELEGRAM_SIGN_IN_LIMITS: { ip: RateLimitRule; user: RateLimitRule } = {
  ip: { max: 60, windowSeconds: 900 },
  user: { max: 20, windowSeconds: 900 },
};

/**
 * Registration answers that tell a login, an e-mail or a phone is taken (LOGIN_TAKEN, EMAIL_TAKEN,
 * PHONE_TAKEN), from all addresses together: beyond it such a registration is 429 RATE_LIMITED, so the
 * form is no directory of who has an account.
 */
export const REGISTER_TAKEN_ANSWERS: RateLimitRule = { max: 30, windowSeconds: 3600 };

const key = (value: string) => value.trim().toLowerCase();

// ---------------------------------------------------------------------------------------------
// Sessions

async function signIn(deps: ServiceContext, user: UserRow, meta: RequestMeta, proof?: string): Promise<SessionReply> {
  const input = { userId: user.id, ttlDays: deps.env.SESSION_TTL_DAYS, userAgent: meta.userAgent };
  // A replayed proof (the same Telegram init data) gets the session it already has; after that session's
  // logout the proof is spent.
  const refreshToken =
    proof === undefined
      ? await createSession(deps.db, deps.clock, input)
      : await sessionForProof(deps.db, deps.clock, { ...input, secret: deps.codeSecret, proof });
  if (refreshToken === null) throw telegramRefused("signed_out");
  return {
    refreshToken,
    user: await userView(deps.db, deps.clock, user),
    phoneConfirmationRequired: phoneConfirmationRequired(user),
  };
}

export async function currentUser(deps: Pick<ServiceContext, "db">, auth: AuthSession): Promise<UserRow> {
  const user = await findUserById(deps.db, auth.userId);
  // The account is gone (sessions cascade with it, so only in a race): the session is over.
  if (!user) throw new AppError("SESSION_TIMEOUT");
  return user;
}

// ---------------------------------------------------------------------------------------------
// Password login

let dummyHash: Promise<string> | undefined;
/** A real argon2id hash nobody knows the password of, so an unknown login costs the same time. */
function hashForUnknownUsers(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(24).toString("base64url"));
  return dummyHash;
}

/** The key of an account's guessing counters: its id, or the typed login when there is no such account. */
const accountOf = (user: UserRow | undefined, typed: string) => (user ? user.id : `typed:${key(typed)}`);

/** The wait after the `failures`-th wrong password of an account (0 while within the free ones). */
export function loginWaitSeconds(failures: number): number {
  const { free, firstWaitSeconds, maxWaitSeconds } = LOGIN_ACCOUNT_GUESSES;
  if (failures <= free) return 0;
  return Math.min(firstWaitSeconds * 2 ** Math.min(failures - free - 1, 30), maxWaitSeconds);
}

const loginFailuresRule: RateLimitRule = {
  max: Number.MAX_SAFE_INTEGER,
  windowSeconds: LOGIN_ACCOUNT_GUESSES.windowSeconds,
};
const loginTurnRule = (seconds: number): RateLimitRule => ({ max: 1, windowSeconds: seconds });

/**
 * Wrong passwords a known device of the account may type in a day (OWASP's device cookie): its tries are
 * judged outside the account's queue that outsiders fill, and past this budget the device counts as unknown.
 */
const KNOWN_DEVICE_GUESSES: RateLimitRule = { max: 10, windowSeconds: 86_400 };

/** Whether the request comes from a device that signed in to `user` before and has not spent its budget. */
async function fromKnownDevice(deps: ServiceContext, user: UserRow | undefined, meta: RequestMeta): Promise<boolean> {
  if (!user || meta.device?.userId !== user.id) return false;
  return (await deps.limiter.retryAfter(`login-device:${meta.device.nonce}`, KNOWN_DEVICE_GUESSES)) === 0;
}

/**
 * A password from a known device of the account: the address's budget and the device's own, never the
 * account's wait (which an outsider who knows the login can keep full).
 */
async function knownDeviceLogin(
  deps: ServiceContext,
  user: UserRow,
  body: LoginBody,
  meta: RequestMeta & { device: KnownDevice },
): Promise<SessionReply> {
  const ipKey = `login-ip:${meta.ip}`;
  const deviceKey = `login-device:${meta.device.nonce}`;
  await deps.limiter.consume(ipKey, deps.env.RATE_LIMITS.loginIp);
  try {
    await deps.limiter.consume(deviceKey, KNOWN_DEVICE_GUESSES);
  } catch (error) {
    await deps.limiter.refund(ipKey, deps.env.RATE_LIMITS.loginIp);
    throw error;
  }
  const matches = user.passwordHash ? await verifyPassword(user.passwordHash, body.password) : false;
  if (!matches) throw new AppError("INVALID_CREDENTIALS");
  await deps.limiter.refund(ipKey, deps.env.RATE_LIMITS.loginIp);
  await deps.limiter.reset(deviceKey);
  // The outsiders' counts stay as they are: the owner's sign-in from a known device gives them no new free
  // guesses (the owner needs no reopened queue; the operator's unlock reopens it for a new device).
  return signIn(deps, user, meta);
}

export async function login(deps: ServiceContext, body: LoginBody, meta: RequestMeta): Promise<SessionReply> {
  const limits = deps.env.RATE_LIMITS;
  const accountKey = `login-account:${meta.ip}:${key(body.login)}`;
  const ipKey = `login-ip:${meta.ip}`;
  const user = await findUserByLoginOrEmail(deps.db, body.login);
  if (user && meta.device && (await fromKnownDevice(deps, user, meta))) {
    return knownDeviceLogin(deps, user, body, { ...meta, device: meta.device });
  }
  const account = accountOf(user, body.login);
  const failuresKey = `login-failures:${account}`;
  const turnKey = `login-turn:${account}`;
  // Each try takes a point of every budget atomically before the password is checked, so parallel
  // tries (on one instance or several) cannot all pass a check made before any failure was counted.
  // A refused try (429) takes no point of the budgets that did not refuse it; a success gives them back.
  const wait = Math.max(
    await deps.limiter.retryAfter(accountKey, limits.loginAccount),
    await deps.limiter.retryAfter(ipKey, limits.loginIp),
    await deps.limiter.retryAfter(turnKey, loginTurnRule(LOGIN_ACCOUNT_GUESSES.maxWaitSeconds)),
  );
  if (wait > 0) throw rateLimited(wait);
  await deps.limiter.consume(accountKey, limits.loginAccount);
  try {
    await deps.limiter.consume(ipKey, limits.loginIp);
  } catch (error) {
    await deps.limiter.refund(accountKey, limits.loginAccount);
    throw error;
  }
  // Past the free failures, a try takes the account's one turn, which opens again after the wait.
  const failures = await deps.limiter.count(failuresKey, loginFailuresRule);
  const turnWait = loginWaitSeconds(failures);
  if (turnWait > 0) {
    try {
      await deps.limiter.consume(turnKey, loginTurnRule(turnWait));
    } catch (error) {
      await deps.limiter.refund(failuresKey, loginFailuresRule);
      await deps.limiter.refund(accountKey, limits.loginAccount);
      await deps.limiter.refund(ipKey, limits.loginIp);
      throw error;
    }
  }

  const passwordHash = user?.passwordHash ?? (await hashForUnknownUsers());
  const matches = await verifyPassword(passwordHash, body.password);
  if (!user?.passwordHash || !matches) throw new AppError("INVALID_CREDENTIALS");
  await deps.limiter.reset(accountKey);
  await deps.limiter.refund(ipKey, limits.loginIp);
  await forgetLoginFailures(deps, user.id);
  await clearGuessFailures(deps, user.id);
  return signIn(deps, user, meta);
}

/** The account's wrong passwords are forgotten (a successful login, a password set by the reset). */
async function forgetLoginFailures(deps: Pick<ServiceContext, "limiter">, userId: string): Promise<void> {
  await deps.limiter.reset(`login-failures:${userId}`);
  await deps.limiter.reset(`login-turn:${userId}`);
}

/**
 * The operator lifts every lock of an account (`kassa account unlock <login>`): the wrong passwords of the day
 * and the wait they built, the wrong codes in a row of every kind (reset, withdrawal, wallet) and the hour's
 * reset-code budget. Returns the account's id and login; 404 NOT_FOUND for no such login.
 */
export async function unlockAccount(
  deps: Pick<ServiceContext, "db" | "limiter">,
  login: string,
): Promise<{ userId: string; login: string }> {
  const user = (await findUserByLogin(deps.db, login)) ?? (await findUserByLoginOrEmail(deps.db, login));
  if (!user) throw new AppError("NOT_FOUND");
  await forgetLoginFailures(deps, user.id);
  await deps.limiter.reset(`reset-code-account:${user.id}`);
  await deps.db.delete(guessFailures).where(eq(guessFailures.userId, user.id));
  return { userId: user.id, login: user.login };
}

/** The owner proved themselves (signed in): wrong reset codes in a row are forgotten, a locked reset opens. */
async function clearGuessFailures(deps: Pick<ServiceContext, "db">, userId: string): Promise<void> {
  await deps.db.delete(guessFailures).where(eq(guessFailures.userId, userId));
}

// ---------------------------------------------------------------------------------------------
// Registration

const registrationFailedInviter = () => new AppError("REGISTRATION_FAILED", { fields: { inviter: "required" } });

/** LOGIN_TAKEN, EMAIL_TAKEN or PHONE_TAKEN when another account holds one of them. */
async function assertFree(deps: ServiceContext, body: Pick<RegisterBody, "login" | "email" | "phone">): Promise<void> {
  const [taken] = await deps.db
    .select({
      login: sql<boolean>`bool_or(lower(${users.login}) = lower(${body.login}))`,
      email: sql<boolean>`bool_or(lower(${users.email}) = lower(${body.email}))`,
      phone: sql<boolean>`bool_or(${users.phone} = ${body.phone})`,
    })
    .from(users)
    .where(
      sql`lower(${users.login}) = lower(${body.login}) or lower(${users.email}) = lower(${body.email}) or ${users.phone} = ${body.phone}`,
    );
  if (!taken?.login && !taken?.email && !taken?.phone) return;
  // Whether a login, an e-mail or a phone has an account is told a limited number of times an hour, in all.
  await deps.limiter.consume("register-taken", REGISTER_TAKEN_ANSWERS);
  if (taken.login) throw new AppError("LOGIN_TAKEN");
  if (taken.email) throw new AppError("EMAIL_TAKEN");
  throw new AppError("PHONE_TAKEN");
}

export async function register(
  deps: ServiceContext,
  inviterLogin: string,
  body: RegisterBody,
  meta: RequestMeta,
): Promise<SessionReply> {
  await deps.limiter.consume(`register-ip:${meta.ip}`, deps.env.RATE_LIMITS.registerIp);
  // The contract checks this too; the server does not rely on the client.
  if (isTooSimple(body.password, body.login)) {
    throw new AppError("VALIDATION_FAILED", { fields: { password: "passwordTooSimple" } });
  }
  const inviter = await findUserByLogin(deps.db, inviterLogin);
  if (!inviter) throw registrationFailedInviter();
  await assertFree(deps, body);

  const passwordHash = await hashPassword(body.password);
  let user: UserRow | undefined;
  try {
    [user] = await deps.db
      .insert(users)
      .values({
        login: body.login,
        passwordHash,
        fullName: body.fullName,
        email: body.email,
        phone: body.phone,
        language: body.language ?? FALLBACK_LANGUAGE,
        inviterId: inviter.id,
        codeChannel: "email",
        createdAt: deps.clock.now(),
      })
      .returning();
  } catch (error) {
    // Someone took the login, e-mail or phone a moment ago.
    if (uniqueViolation(error) === undefined) throw error;
    await assertFree(deps, body);
    throw new AppError("REGISTRATION_FAILED", { cause: error });
  }
  if (!user) throw new AppError("REGISTRATION_FAILED");

  const session = await signIn(deps, user, meta);
  let phoneCode: CodeSentReply | null = null;
  try {
    phoneCode = await issueCode(deps, user, "phone", { target: user.phone });
  } catch (error) {
    // The account exists either way; the app's resend button reports the failure to the user.
    deps.log.warn({ err: error, login: user.login }, "phone code not sent at registration");
  }
  return { ...session, phoneCode };
}

// ---------------------------------------------------------------------------------------------
// Telegram sign-in

/** A refused Telegram sign-in: 400 VERIFICATION_FAILED with the reason (never 401, which means "session over"). */
const telegramRefused = (reason: InitDataRefusal | "user_missing" | "signed_out") =>
  new AppError("VERIFICATION_FAILED", { params: { reason } });

function telegramLanguage(tgUser: TelegramUser, fallback: Language | undefined): Language {
  const code = tgUser.language_code?.toLowerCase().split("-")[0];
  const supported: readonly string[] = LANGUAGES;
  if (code && supported.includes(code)) return code as Language;
  return fallback ?? FALLBACK_LANGUAGE;
}

/**
 * The Telegram username when it is a valid login and free; a username with underscores (which logins do not
 * allow) without them ("aigerim_t" → "aigerimt") when that is valid and free; else `tg<id>` (with a suffix
 * if taken).
 */
async function loginForTelegramUser(deps: ServiceContext, tgUser: TelegramUser): Promise<string> {
  const candidates: string[] = [];
  for (const name of tgUser.username ? [tgUser.username, tgUser.username.replaceAll("_", "")] : []) {
    if (!candidates.includes(name) && LoginField.safeParse(name).success) candidates.push(name);
  }
  candidates.push(`tg${tgUser.id}`);
  for (let n = 2; n <= 5; n++) candidates.push(`tg${tgUser.id}n${n}`);
  for (const candidate of candidates) {
    if (!(await findUserByLogin(deps.db, candidate))) return candidate;
  }
  return `tg${tgUser.id}n${randomBytes(4).readUInt32BE(0)}`;
}

/** The inviter of a new Telegram account: the path's, else `start_param` `ref_<login>`, else the default. */
async function telegramInviter(
  deps: ServiceContext,
  fromPath: string | undefined,
  startParam: string | undefined,
): Promise<UserRow | undefined> {
  if (fromPath !== undefined) {
    const inviter = await findUserByLogin(deps.db, fromPath);
    if (!inviter) throw registrationFailedInviter();
    return inviter;
  }
  const referral = inviterFromStartParam(startParam);
  if (referral) {
    const inviter = await findUserByLogin(deps.db, referral);
    // A stale or foreign start parameter does not stop the sign-up.
    if (inviter) return inviter;
  }
  return findUserByLogin(deps.db, await getSetting(deps.db, "defaultInviter"));
}

export async function telegramSignIn(
  deps: ServiceContext,
  inviterFromPath: string | undefined,
  body: TelegramAuthBody,
  meta: RequestMeta,
): Promise<SessionReply> {
  // Switched off: the call answers as if it did not exist.
  if (!(await getSetting(deps.db, "telegramAuthAvailable"))) throw new AppError("NOT_FOUND");
  await deps.limiter.consume(`telegram-ip:${meta.ip}`, TELEGRAM_SIGN_IN_LIMITS.ip);
  const result = validateInitData(
    body.initData,
    deps.env.TELEGRAM_BOT_TOKEN,
    deps.env.TELEGRAM_AUTH_MAX_AGE_SECONDS,
    deps.clock.now(),
  );
  if (!result.ok) throw telegramRefused(result.reason);
  const tgUser = result.data.user;
  if (!tgUser) throw telegramRefused("user_missing");
  await deps.limiter.consume(`telegram-user:${tgUser.id}`, TELEGRAM_SIGN_IN_LIMITS.user);
  // The signature identifies this init data: its replays share one session. It is hex, accepted in
  // any letter case, so it is keyed in one: a case variant is the same proof, not a new session.
  const proof = `telegram:${result.data.fields.hash?.toLowerCase()}`;

  const existing = await findUserByTelegramId(deps.db, tgUser.id);
  if (existing) {
    await clearGuessFailures(deps, existing.id);
    return signIn(deps, existing, meta, proof);
  }

  const inviter = await telegramInviter(deps, inviterFromPath, result.data.startParam);
  const fullName = [tgUser.first_name, tgUser.last_name].filter(Boolean).join(" ").trim().slice(0, 120) || null;
  const values = {
    fullName,
    language: telegramLanguage(tgUser, body.language),
    telegramId: tgUser.id,
    inviterId: inviter?.id ?? null,
    codeChannel: "telegram" as const,
    createdAt: deps.clock.now(),
  };
  for (let attempt = 0; ; attempt++) {
    const login = await loginForTelegramUser(deps, tgUser);
    try {
      const [created] = await deps.db
        .insert(users)
        .values({ ...values, login })
        .returning();
      if (created) return signIn(deps, created, meta, proof);
    } catch (error) {
      if (uniqueViolation(error) === undefined || attempt >= 2) throw error;
      // The same Telegram user signing in twice at once: the other request created the account.
      const raced = await findUserByTelegramId(deps.db, tgUser.id);
      if (raced) return signIn(deps, raced, meta, proof);
      // Otherwise the login was taken in between: pick again.
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Phone confirmation

export async function resendPhoneCode(
  deps: ServiceContext,
  auth: AuthSession,
  meta: RequestMeta,
): Promise<CodeSentReply> {
  const limits = deps.env.RATE_LIMITS;
  await deps.limiter.check(`code-request-ip:${meta.ip}`, limits.codeRequestIp);
  await deps.limiter.check(`code-request-account:${auth.userId}`, limits.codeRequestAccount);
  const user = await currentUser(deps, auth);
  if (!user.phone) throw new AppError("VALIDATION_FAILED", { fields: { phone: "required" } });
  if (user.phoneConfirmedAt) throw new AppError("VERIFICATION_FAILED", { params: { reason: "phone_confirmed" } });
  await deps.limiter.hit(`code-request-ip:${meta.ip}`, limits.codeRequestIp);
  await deps.limiter.hit(`code-request-account:${auth.userId}`, limits.codeRequestAccount);
  const sent = await issueCode(deps, user, "phone", { target: user.phone, whenWaiting: "refuse" });
  if (!sent) throw new AppError("CODE_SEND_FAILED");
  return sent;
}

export async function confirmPhone(
  deps: ServiceContext,
  auth: AuthSession,
  code: string,
  meta: RequestMeta,
): Promise<{ user: User }> {
  await deps.limiter.consume(`code-entry-ip:${meta.ip}`, deps.env.RATE_LIMITS.codeEntryIp);
  const user = await currentUser(deps, auth);
  if (!user.phone || user.phoneConfirmedAt) throw new AppError("CODE_INVALID");
  await enterPhoneCode(deps, user.id, code, user.phone);
  userChanging(user.id);
  const [confirmed] = await deps.db
    .update(users)
    .set({ phoneConfirmedAt: deps.clock.now() })
    .where(eq(users.id, user.id))
    .returning();
  return { user: await userView(deps.db, deps.clock, confirmed ?? user) };
}

// ---------------------------------------------------------------------------------------------
// Password reset

/**
 * Sends a reset code when the login or e-mail belongs to an account. The reply is the same
 * whether or not it does, and does not wait for the delivery (whose failure would tell).
 */
export async function requestPasswordReset(
  deps: ServiceContext,
  identifier: string,
  meta: RequestMeta,
): Promise<CodeSentReply> {
  const limits = deps.env.RATE_LIMITS;
  const settings = await getSetting(deps.db, "codes");
  await deps.limiter.consume(`code-request-ip:${meta.ip}`, limits.codeRequestIp);
  const user = await findUserByLoginOrEmail(deps.db, identifier);
  // A known device of the account asks on budgets of its own: outsiders who type the login cannot use up
  // the owner's requests, and the code reaches the owner's channel even while the reset is locked to others.
  const known = user !== undefined && meta.device?.userId === user.id;
  const asker = known && meta.device ? `device:${meta.device.nonce}` : key(identifier);
  await deps.limiter.consume(`code-request-account:${asker}`, limits.codeRequestAccount);
  // The resend wait, kept for every typed login alike, known or not.
  await deps.limiter.consume(`reset-wait:${asker}`, { max: 1, windowSeconds: settings.resendSeconds });

  // A locked reset sends nothing to an unknown device; the reply stays the same.
  if (user && (known || !(await resetLocked(deps, user.id)))) {
    await issueCode(deps, user, "password_reset", { whenWaiting: "skip", background: true });
  }
  return {
    message: SUCCESS_MESSAGES.CODE_SENT,
    resendAfterSeconds: settings.resendSeconds,
    expiresInSeconds: settings.ttlSeconds,
  };
}

/** Whether the account's password reset is locked (RESET_CODE_GUESSES.lockAfter wrong codes in a row). */
async function resetLocked(deps: Pick<ServiceContext, "db">, userId: string): Promise<boolean> {
  const [row] = await deps.db
    .select({ failures: guessFailures.failures })
    .from(guessFailures)
    .where(and(eq(guessFailures.userId, userId), eq(guessFailures.kind, "password_reset")))
    .limit(1);
  return (row?.failures ?? 0) >= RESET_CODE_GUESSES.lockAfter;
}

/**
 * Takes one of the account's wrong reset codes in a row before the code is checked (atomically, so
 * parallel guesses cannot pass the lock). False when the reset is locked.
 */
async function reserveResetGuess(deps: Pick<ServiceContext, "db">, userId: string): Promise<boolean> {
  const reserved = await deps.db
    .insert(guessFailures)
    .values({ userId, kind: "password_reset", failures: 1 })
    .onConflictDoUpdate({
      target: [guessFailures.userId, guessFailures.kind],
      set: { failures: sql`${guessFailures.failures} + 1` },
      setWhere: sql`${guessFailures.failures} < ${RESET_CODE_GUESSES.lockAfter}`,
    })
    .returning({ failures: guessFailures.failures });
  return reserved.length > 0;
}

/** Gives back a reserved guess that was not a wrong code. */
async function releaseResetGuess(deps: Pick<ServiceContext, "db">, userId: string): Promise<void> {
  await deps.db
    .update(guessFailures)
    .set({ failures: sql`greatest(${guessFailures.failures} - 1, 0)` })
    .where(and(eq(guessFailures.userId, userId), eq(guessFailures.kind, "password_reset")));
}

/**
 * Exchanges a valid reset code for a single-use reset token. An unknown login is CODE_INVALID, like a
 * login without a code, and so is a locked reset. Wrong codes count per account whichever identifier
 * was typed (RESET_CODE_GUESSES): 429 RATE_LIMITED past the hour's budget; a right code costs nothing
 * and clears the count in a row.
 */
export async function validatePasswordReset(
  deps: ServiceContext,
  identifier: string,
  code: string,
  meta: RequestMeta,
): Promise<ResetPasswordValidateReply> {
  await deps.limiter.consume(`code-entry-ip:${meta.ip}`, deps.env.RATE_LIMITS.codeEntryIp);
  const user = await findUserByLoginOrEmail(deps.db, identifier);
  if (!user) throw new AppError("CODE_INVALID");
  if (meta.device?.userId === user.id) return knownDeviceResetCode(deps, user, code, meta.device);
  const budgetKey = `reset-code-account:${user.id}`;
  await deps.limiter.consume(budgetKey, RESET_CODE_GUESSES.perHour);
  let wrong = false;
  try {
    if (!(await reserveResetGuess(deps, user.id))) throw new AppError("CODE_INVALID");
    try {
      await verifyCode(deps, user.id, "password_reset", code);
    } catch (error) {
      wrong = error instanceof AppError && error.code === "CODE_MISMATCH";
      if (!wrong) await releaseResetGuess(deps, user.id);
      throw error;
    }
  } finally {
    if (!wrong) await deps.limiter.refund(budgetKey, RESET_CODE_GUESSES.perHour);
  }
  await clearGuessFailures(deps, user.id);
  return issueResetToken(deps, user);
}

/**
 * A reset code typed on a known device of the account: the device's own hourly budget and no lock (the
 * account's wrong codes in a row are the outsiders'); a wrong code counts on the device's budget only.
 */
async function knownDeviceResetCode(
  deps: ServiceContext,
  user: UserRow,
  code: string,
  device: KnownDevice,
): Promise<ResetPasswordValidateReply> {
  const budgetKey = `reset-code-device:${device.nonce}`;
  await deps.limiter.consume(budgetKey, RESET_CODE_GUESSES.perHour);
  try {
    await verifyCode(deps, user.id, "password_reset", code);
  } catch (error) {
    if (!(error instanceof AppError && error.code === "CODE_MISMATCH")) {
      await deps.limiter.refund(budgetKey, RESET_CODE_GUESSES.perHour);
    }
    throw error;
  }
  await deps.limiter.refund(budgetKey, RESET_CODE_GUESSES.perHour);
  return issueResetToken(deps, user);
}

async function issueResetToken(deps: ServiceContext, user: UserRow): Promise<ResetPasswordValidateReply> {
  const resetToken = newToken();
  const now = deps.clock.now();
  await deps.db.insert(passwordResetTokens).values({
    userId: user.id,
    tokenHash: hashToken(resetToken),
    createdAt: now,
    expiresAt: new Date(now.getTime() + RESET_TOKEN_TTL_SECONDS * 1000),
  });
  return { resetToken };
}

/** Sets the new password, uses the token up and signs the user out everywhere. */
export async function setPasswordWithToken(deps: ServiceContext, body: SetPasswordBody): Promise<void> {
  if (!TOKEN_PATTERN.test(body.resetToken)) throw new AppError("CODE_INVALID");
  const [token] = await deps.db
    .select()
    .from(passwordResetTokens)
    .where(eq(passwordResetTokens.tokenHash, hashToken(body.resetToken)))
    .limit(1);
  const now = deps.clock.now();
  if (!token || token.consumedAt) throw new AppError("CODE_INVALID");
  if (token.expiresAt.getTime() <= now.getTime()) throw new AppError("CODE_EXPIRED");
  const user = await findUserById(deps.db, token.userId);
  if (!user) throw new AppError("CODE_INVALID");
  if (isTooSimple(body.password, user.login)) {
    throw new AppError("VALIDATION_FAILED", { fields: { password: "passwordTooSimple" } });
  }

  const passwordHash = await hashPassword(body.password);
  let revoked: { id: string }[] = [];
  await deps.db.transaction(async (tx) => {
    const [used] = await tx
      .update(passwordResetTokens)
      .set({ consumedAt: now })
      .where(and(eq(passwordResetTokens.id, token.id), isNull(passwordResetTokens.consumedAt)))
      .returning({ id: passwordResetTokens.id });
    if (!used) throw new AppError("CODE_INVALID");
    userChanging(user.id);
    await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
    // Any other reset token or code of this user is void now.
    await tx
      .update(passwordResetTokens)
      .set({ consumedAt: now })
      .where(and(eq(passwordResetTokens.userId, user.id), isNull(passwordResetTokens.consumedAt)));
    await tx
      .update(verificationCodes)
      .set({ consumedAt: now })
      .where(
        and(
          eq(verificationCodes.userId, user.id),
          eq(verificationCodes.purpose, "password_reset"),
          isNull(verificationCodes.consumedAt),
        ),
      );
    revoked = await revokeAllSessions(tx, deps.clock, user.id);
  });
  sessionsRevoked(deps.db, revoked);
  // The owner proved themselves: the new password is not held back by the guesses before it.
  await forgetLoginFailures(deps, user.id);
}
