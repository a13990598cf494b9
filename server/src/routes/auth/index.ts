/** Auth group of spec §7 plus the added logout. Rules live in services/auth.ts. */
import { routes } from "@contract";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { KassaApp } from "../../app";
import { bearerToken, requireUser } from "../../plugins/auth";
import {
  type AuthDeps,
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
import { findLiveSession, revokeSession } from "../../services/sessions";
import { withErrors } from "../responses";

const tags = ["auth"];
const bearer = [{ bearer: [] }];

export function authDeps(app: KassaApp, request: FastifyRequest): AuthDeps {
  return {
    db: app.db,
    clock: app.clock,
    env: app.env,
    secret: app.codeSecret,
    sender: app.codeSender,
    limiter: app.limiter,
    log: request.log,
  };
}

export function requestMeta(request: FastifyRequest): RequestMeta {
  return { ip: request.ip, userAgent: request.headers["user-agent"] };
}

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const kassa = app as unknown as KassaApp;
  const deps = (request: FastifyRequest) => authDeps(kassa, request);

  app.post(
    routes.login.path,
    {
      schema: {
        tags,
        summary: "Sign in with login (or e-mail) and password",
        description:
          "Wrong password and unknown login get the same 400 INVALID_CREDENTIALS. Failed attempts are limited per " +
          "address and login and per address (429 RATE_LIMITED with Retry-After).",
        body: routes.login.body,
        response: withErrors({ 200: routes.login.response }),
      },
    },
    async (request) => login(deps(request), request.body, requestMeta(request)),
  );

  app.post(
    routes.register.path,
    {
      schema: {
        tags,
        summary: "Register, invited by the login in the path",
        description:
          "An unknown inviter is 400 REGISTRATION_FAILED with fields.inviter; a taken login, e-mail or phone is 409 " +
          "LOGIN_TAKEN / EMAIL_TAKEN / PHONE_TAKEN. Signs the new user in and sends a phone code " +
          "(phoneConfirmationRequired: true).",
        params: routes.register.params,
        body: routes.register.body,
        response: withErrors({ 200: routes.register.response }),
      },
    },
    async (request) => register(deps(request), request.params.inviter, request.body, requestMeta(request)),
  );

  const telegramDescription =
    "Validates Telegram init data (HMAC with the bot token, auth_date age). The first sign-in creates the " +
    "account, invited by the path's login, else start_param ref_<login>, else the default inviter. Switched " +
    "off (telegramAuthAvailable false): 404 NOT_FOUND. Invalid, tampered or expired init data: 400 " +
    "VERIFICATION_FAILED with params.reason (never 401, which means a session timed out).";

  app.post(
    routes.telegramAuth.path,
    {
      schema: {
        tags,
        summary: "Sign in with Telegram",
        description: telegramDescription,
        body: routes.telegramAuth.body,
        response: withErrors({ 200: routes.telegramAuth.response }),
      },
    },
    async (request) => telegramSignIn(deps(request), undefined, request.body, requestMeta(request)),
  );

  app.post(
    routes.telegramAuthInvited.path,
    {
      schema: {
        tags,
        summary: "Sign in with Telegram, invited by the login in the path",
        description: telegramDescription,
        params: routes.telegramAuthInvited.params,
        body: routes.telegramAuthInvited.body,
        response: withErrors({ 200: routes.telegramAuthInvited.response }),
      },
    },
    async (request) => telegramSignIn(deps(request), request.params.inviter, request.body, requestMeta(request)),
  );

  app.post(
    routes.phoneConfirm.path,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "Confirm the phone with the code sent to the user",
        security: bearer,
        body: routes.phoneConfirm.body,
        response: withErrors({ 200: routes.phoneConfirm.response }),
      },
    },
    async (request) => confirmPhone(deps(request), requireUser(request), request.body.code, requestMeta(request)),
  );

  app.post(
    routes.phoneResend.path,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "Send a new phone code",
        description: "A new code only after the resend wait: 429 RATE_LIMITED with params.retryAfter otherwise.",
        security: bearer,
        response: withErrors({ 200: routes.phoneResend.response }),
      },
    },
    async (request) => resendPhoneCode(deps(request), requireUser(request), requestMeta(request)),
  );

  app.post(
    routes.resetPassword.path,
    {
      schema: {
        tags,
        summary: "Send a password-reset code to the account with this login or e-mail",
        description: "Always the same reply, whether or not the account exists (the code goes out in the background).",
        body: routes.resetPassword.body,
        response: withErrors({ 200: routes.resetPassword.response }),
      },
    },
    async (request) => requestPasswordReset(deps(request), request.body.login, requestMeta(request)),
  );

  app.post(
    routes.resetPasswordValidate.path,
    {
      schema: {
        tags,
        summary: "Exchange the reset code for a reset token (single use, 15 minutes)",
        body: routes.resetPasswordValidate.body,
        response: withErrors({ 200: routes.resetPasswordValidate.response }),
      },
    },
    async (request) =>
      validatePasswordReset(deps(request), request.body.login, request.body.code, requestMeta(request)),
  );

  app.post(
    routes.setPassword.path,
    {
      schema: {
        tags,
        summary: "Set a new password with the reset token; signs the user out everywhere",
        body: routes.setPassword.body,
        response: withErrors({ 200: routes.setPassword.response }),
      },
    },
    async (request) => {
      await setPasswordWithToken(deps(request), request.body);
      return { ok: true as const };
    },
  );

  app.post(
    routes.logout.path,
    {
      schema: {
        tags: ["auth", "service"],
        summary: "Sign out: revoke the caller's token (added beside the spec's calls)",
        description:
          "Revokes the session of the bearer token. Idempotent: a missing, unknown or already revoked token also " +
          "replies { ok: true }, so signing out never shows 'Session timed out'.",
        security: bearer,
        response: withErrors({ 200: routes.logout.response }),
      },
    },
    async (request) => {
      const token = bearerToken(request);
      const session = token ? await findLiveSession(app.db, app.clock, token) : null;
      if (session) await revokeSession(app.db, app.clock, session.sessionId);
      return { ok: true as const };
    },
  );
};
