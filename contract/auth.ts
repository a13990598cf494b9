/** Auth calls (docs/decisions.md#d4-identity-and-sessions, #d5-codes). */
import * as z from "zod/mini";
import { deferred } from "./deferred";
import { CodeChannel, Language } from "./enums";
import { User } from "./user";
import {
  CodeField,
  EmailField,
  isTooSimple,
  LOGIN_MAX_LENGTH,
  LoginField,
  NewPasswordField,
  PasswordField,
  PhoneField,
  requiredText,
  text,
} from "./validation";

/** `POST /auth/login`: `login` is the login or the e-mail of the account. */
export const LoginBody = deferred(() =>
  z.object({ login: requiredText().check(z.maxLength(254)), password: PasswordField }),
);
export type LoginBody = z.infer<typeof LoginBody>;

/**
 * Reply of every call that sends a code: when a new one may be requested, and where the code went —
 * the channel it was really sent through (the user's security setting) and, for e-mail and SMS, the
 * address masked (`a***@example.com`, `+7******4567`). The password reset leaves both out: its reply
 * must not tell whether the login exists.
 */
export const CodeSentReply = deferred(() =>
  z.object({
    message: z.literal("Request successfully sent"),
    resendAfterSeconds: z.int().check(z.nonnegative()),
    expiresInSeconds: z.int().check(z.positive()),
    channel: z.optional(CodeChannel),
    destination: z.optional(z.string()),
  }),
);
export type CodeSentReply = z.infer<typeof CodeSentReply>;

/** Every successful sign-in (password, registration, Telegram) replies with this. */
export const SessionReply = deferred(() =>
  z.object({
    /** Opaque; sent back as `Authorization: Bearer <refreshToken>` (docs/cabinet-rules.md#sessions). */
    refreshToken: z.string(),
    user: User,
    /** When true the app asks for the phone code before the cabinet (registration). */
    phoneConfirmationRequired: z.boolean(),
    /** Registration: the phone code sent with it, and where it went (null when it could not be sent). */
    phoneCode: z.optional(z.nullable(CodeSentReply)),
  }),
);
export type SessionReply = z.infer<typeof SessionReply>;

/** A new password must not be too simple, and must not contain the login. */
const passwordWithLogin = (b: { password: unknown; login?: unknown }) =>
  typeof b.password !== "string" || !isTooSimple(b.password, typeof b.login === "string" ? b.login : undefined);

/**
 * `POST /auth/register/{inviter}`: the path segment is the inviter's login
 * (docs/decisions.md#d4-identity-and-sessions).
 */
export const RegisterBody = deferred(() =>
  z
    .object({
      login: LoginField,
      fullName: requiredText().check(z.maxLength(120)),
      email: EmailField,
      phone: PhoneField,
      password: NewPasswordField,
      passwordRepeat: text().check(z.minLength(1, { error: "required" })),
      acceptTerms: z.literal(true, { error: "termsNotAccepted" }),
      language: z.optional(Language),
    })
    .check(
      z.refine((b) => b.password === b.passwordRepeat, { path: ["passwordRepeat"], error: "passwordRepeat" }),
      z.refine(passwordWithLogin, { path: ["password"], error: "passwordTooSimple" }),
    ),
);
export type RegisterBody = z.infer<typeof RegisterBody>;

/**
 * The inviter's login in the path. Any string: an inviter that does not exist (whatever its form)
 * is `REGISTRATION_FAILED` with `fields.inviter`, not a validation error of the URL.
 */
export const InviterParams = deferred(() =>
  z.object({
    inviter: text().check(z.trim(), z.minLength(1), z.maxLength(LOGIN_MAX_LENGTH)),
  }),
);
export type InviterParams = z.infer<typeof InviterParams>;

export const TelegramAuthBody = deferred(() =>
  z.object({
    /**
     * The raw init data string (`tgWebAppData`) as the client passed it: percent-encoded JSON, so a
     * user with a long name in a non-Latin script or emoji takes several kilobytes.
     */
    initData: text().check(z.minLength(1, { error: "required" }), z.maxLength(32_768, { error: "textTooLong" })),
    /** The app's interface language, used for a new account when Telegram's language is not offered. */
    language: z.optional(Language),
  }),
);
export type TelegramAuthBody = z.infer<typeof TelegramAuthBody>;

export const CodeBody = deferred(() => z.object({ code: CodeField }));
export type CodeBody = z.infer<typeof CodeBody>;

/** `POST /auth/phone/confirm`: the user with the phone now confirmed. */
export const PhoneConfirmReply = deferred(() => z.object({ user: User }));
export type PhoneConfirmReply = z.infer<typeof PhoneConfirmReply>;

export const OkReply = deferred(() => z.object({ ok: z.literal(true) }));
export type OkReply = z.infer<typeof OkReply>;

/** `POST /auth/reset-password`: the login or the e-mail of the account. */
export const ResetPasswordBody = deferred(() => z.object({ login: requiredText().check(z.maxLength(254)) }));
export type ResetPasswordBody = z.infer<typeof ResetPasswordBody>;
export const ResetPasswordValidateBody = deferred(() =>
  z.object({ login: requiredText().check(z.maxLength(254)), code: CodeField }),
);
export type ResetPasswordValidateBody = z.infer<typeof ResetPasswordValidateBody>;
/** Single use, valid 15 minutes; exchanged at `POST /auth/set-password`. */
export const ResetPasswordValidateReply = deferred(() => z.object({ resetToken: z.string() }));
export type ResetPasswordValidateReply = z.infer<typeof ResetPasswordValidateReply>;
export const SetPasswordBody = deferred(() =>
  z
    .object({
      resetToken: requiredText().check(z.maxLength(256)),
      password: NewPasswordField,
      passwordRepeat: text().check(z.minLength(1, { error: "required" })),
    })
    .check(z.refine((b) => b.password === b.passwordRepeat, { path: ["passwordRepeat"], error: "passwordRepeat" })),
);
export type SetPasswordBody = z.infer<typeof SetPasswordBody>;
