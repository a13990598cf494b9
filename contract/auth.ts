/** Auth group of spec §7 (decisions D4, D5). */
import { z } from "zod";
import { Language } from "./enums";
import { User } from "./user";
import {
  CodeField,
  EmailField,
  LoginField,
  NewPasswordField,
  PasswordField,
  PhoneField,
  requiredText,
} from "./validation";

export const LoginBody = z.object({ login: requiredText(), password: PasswordField });
export type LoginBody = z.infer<typeof LoginBody>;

/** Every successful sign-in (password, registration, Telegram) replies with this. */
export const SessionReply = z.object({
  refreshToken: z.string(),
  user: User,
  /** When true the app asks for the phone code before the cabinet (registration). */
  phoneConfirmationRequired: z.boolean(),
});
export type SessionReply = z.infer<typeof SessionReply>;

/** `POST /auth/register/{inviter}`: the path segment is the inviter's login (D4). */
export const RegisterBody = z
  .object({
    login: LoginField,
    fullName: requiredText().max(120),
    email: EmailField,
    phone: PhoneField,
    password: NewPasswordField,
    passwordRepeat: z.string({ error: "required" }).min(1, { error: "required" }),
    acceptTerms: z.literal(true, { error: "termsNotAccepted" }),
    language: Language.optional(),
  })
  .refine((b) => b.password === b.passwordRepeat, { path: ["passwordRepeat"], error: "passwordRepeat" });
export type RegisterBody = z.infer<typeof RegisterBody>;

export const InviterParams = z.object({ inviter: LoginField });
export const OptionalInviterParams = z.object({ inviter: LoginField.optional() });

export const TelegramAuthBody = z.object({
  /** The raw init data string (`tgWebAppData`) as the client passed it. */
  initData: z.string().min(1).max(8192),
  language: Language.optional(),
});
export type TelegramAuthBody = z.infer<typeof TelegramAuthBody>;

export const CodeBody = z.object({ code: CodeField });
export type CodeBody = z.infer<typeof CodeBody>;

/** Reply of every call that sends a code: when a new one may be requested. */
export const CodeSentReply = z.object({
  message: z.literal("Request successfully sent"),
  resendAfterSeconds: z.number().int().nonnegative(),
  expiresInSeconds: z.number().int().positive(),
});
export type CodeSentReply = z.infer<typeof CodeSentReply>;

export const OkReply = z.object({ ok: z.literal(true) });

/** `POST /auth/reset-password`: the login or the e-mail of the account. */
export const ResetPasswordBody = z.object({ login: requiredText().max(254) });
export const ResetPasswordValidateBody = z.object({ login: requiredText().max(254), code: CodeField });
export const ResetPasswordValidateReply = z.object({ resetToken: z.string() });
export const SetPasswordBody = z
  .object({
    resetToken: requiredText(),
    password: NewPasswordField,
    passwordRepeat: z.string({ error: "required" }).min(1, { error: "required" }),
  })
  .refine((b) => b.password === b.passwordRepeat, { path: ["passwordRepeat"], error: "passwordRepeat" });

export const USER_DATA_TYPES = ["profile"] as const;
export const UserDataTypeParams = z.object({ type: z.enum(USER_DATA_TYPES).default("profile") });
