/** Auth calls (docs/cabinet-rules.md#api-calls) plus the added logout. Rules live in services/auth.ts. */
import { routes } from "@contract";
import type { SessionReply } from "@contract/auth";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { KassaApp } from "../../context";
import { deviceSetCookie, knownDevice } from "../../security/device-cookie";
import {
  confirmPhone,
  login,
  type RequestMeta,
  register,
  requestPasswordReset,
  resendPhoneCode,
  setPasswordWithToken,
  telegramSignIn,
  validatePasswordReset,
} from "../../services/auth";
import { revokeSession } from "../../services/sessions";
import { defineRoute } from "../define";

export function requestMeta(request: FastifyRequest): RequestMeta {
  return {
    ip: request.ip,
    userAgent: request.headers["user-agent"],
    device: knownDevice(request.server.codeSecret, request.headers.cookie),
  };
}

/** A successful sign-in remembers the device (security/device-cookie.ts), keeping its id when it was this account's. */
async function rememberDevice(
  request: FastifyRequest,
  reply: FastifyReply,
  signedIn: Promise<SessionReply>,
): Promise<SessionReply> {
  const session = await signedIn;
  const device = knownDevice(request.server.codeSecret, request.headers.cookie);
  reply.header(
    "set-cookie",
    deviceSetCookie(request.server.codeSecret, session.user.id, {
      secure: request.protocol === "https",
      nonce: device?.userId === session.user.id ? device.nonce : undefined,
    }),
  );
  return session;
}

const TELEGRAM_DESCRIPTION =
  "Validates Telegram init data (HMAC with the bot token, auth_date age). The first sign-in creates the " +
  "account, invited by the path's login, else start_param ref_<login>, else the default inviter. Switched " +
  "off (telegramAuthAvailable false): 404 NOT_FOUND. Invalid, tampered or expired init data: 400 " +
  "VERIFICATION_FAILED with params.reason (never 401, which means a session timed out). Limited per client " +
  "address (60 in 15 minutes) and per Telegram user (20 in 15 minutes): 429 RATE_LIMITED with Retry-After.";

export async function authRoutes(app: KassaApp) {
  defineRoute(
    app,
    routes.login,
    {
      summary: "Sign in with login (or e-mail) and password",
      description:
        "Wrong password and unknown login get the same 400 INVALID_CREDENTIALS. Failed attempts are limited per " +
        "address and login, per address, and per account from any address: after 10 in a day each try waits, a " +
        "minute at first, doubling up to an hour (429 RATE_LIMITED with Retry-After). A device this account signed " +
        "in on before (the HttpOnly device cookie set by every sign-in) is judged outside that wait, on a budget " +
        "of 10 wrong passwords a day of its own.",
    },
    ({ ctx, body, request, reply }) => rememberDevice(request, reply, login(ctx, body, requestMeta(request))),
  );

  defineRoute(
    app,
    routes.register,
    {
      summary: "Register, invited by the login in the path",
      description:
        "An unknown inviter is 400 REGISTRATION_FAILED with fields.inviter; a taken login, e-mail or phone is 409 " +
        "LOGIN_TAKEN / EMAIL_TAKEN / PHONE_TAKEN (a taken login, e-mail or phone is told at most 30 times an hour in " +
        "all, 429 RATE_LIMITED beyond). Signs the new user in and sends a phone code " +
        "(phoneConfirmationRequired: true).",
    },
    ({ ctx, params, body, request, reply }) =>
      rememberDevice(request, reply, register(ctx, params.inviter, body, requestMeta(request))),
  );

  defineRoute(
    app,
    routes.telegramAuth,
    { summary: "Sign in with Telegram", description: TELEGRAM_DESCRIPTION },
    ({ ctx, body, request, reply }) =>
      rememberDevice(request, reply, telegramSignIn(ctx, undefined, body, requestMeta(request))),
  );

  defineRoute(
    app,
    routes.telegramAuthInvited,
    { summary: "Sign in with Telegram, invited by the login in the path", description: TELEGRAM_DESCRIPTION },
    ({ ctx, params, body, request, reply }) =>
      rememberDevice(request, reply, telegramSignIn(ctx, params.inviter, body, requestMeta(request))),
  );

  defineRoute(
    app,
    routes.phoneConfirm,
    { summary: "Confirm the phone with the code sent to the user" },
    ({ ctx, auth, body, request }) => confirmPhone(ctx, auth, body.code, requestMeta(request)),
  );

  defineRoute(
    app,
    routes.phoneResend,
    {
      summary: "Send a new phone code",
      description: "A new code only after the resend wait: 429 RATE_LIMITED with params.retryAfter otherwise.",
    },
    ({ ctx, auth, request }) => resendPhoneCode(ctx, auth, requestMeta(request)),
  );

  defineRoute(
    app,
    routes.resetPassword,
    {
      summary: "Send a password-reset code to the account with this login or e-mail",
      description: "Always the same reply, whether or not the account exists (the code goes out in the background).",
    },
    ({ ctx, body, request }) => requestPasswordReset(ctx, body.login, requestMeta(request)),
  );

  defineRoute(
    app,
    routes.resetPasswordValidate,
    {
      summary: "Exchange the reset code for a reset token (single use, 15 minutes)",
      description:
        "Wrong codes count per account whether the login or the e-mail is typed: 429 RATE_LIMITED after 10 an " +
        "hour; after 100 in a row the reset is locked to unknown devices (no code sent, CODE_INVALID) until the " +
        "owner signs in or the operator unlocks it. A device the account signed in on before (its device cookie) " +
        "asks and types codes on budgets of its own, also while the reset is locked.",
    },
    ({ ctx, body, request }) => validatePasswordReset(ctx, body.login, body.code, requestMeta(request)),
  );

  defineRoute(
    app,
    routes.setPassword,
    { summary: "Set a new password with the reset token; signs the user out everywhere" },
    async ({ ctx, body }) => {
      await setPasswordWithToken(ctx, body);
      return { ok: true as const };
    },
  );

  defineRoute(
    app,
    routes.logout,
    {
      summary: "Sign out: revoke the caller's token (added beside the cabinet's calls)",
      description:
        "Revokes the session of the bearer token. Idempotent: a missing, unknown or already revoked token also " +
        "replies { ok: true }, so signing out never shows 'Session timed out'.",
    },
    async ({ ctx, auth }) => {
      if (auth) await revokeSession(ctx.db, ctx.clock, auth.sessionId);
      return { ok: true as const };
    },
  );
}
