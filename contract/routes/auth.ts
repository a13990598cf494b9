// The route table's calls for sign-in, registration, codes, the session and the signed-in user (`contract/routes.ts` joins the areas).
import {
  CodeBody,
  CodeSentReply,
  InviterParams,
  LoginBody,
  OkReply,
  PhoneConfirmReply,
  RegisterBody,
  ResetPasswordBody,
  ResetPasswordValidateBody,
  ResetPasswordValidateReply,
  SessionReply,
  SetPasswordBody,
  TelegramAuthBody,
} from "../auth";
import { Profile, UserDataTypeParams } from "../profile";
import { User } from "../user";
import { route } from "./route";

export const authRoutes = {
  // Auth (docs/decisions.md#d4-identity-and-sessions, #d5-codes)
  login: route({
    method: "POST",
    path: "/auth/login",
    auth: false,
    tags: ["auth"],
    body: LoginBody,
    response: SessionReply,
  }),
  /** The path segment is the inviter's login (docs/decisions.md#d4-identity-and-sessions). */
  register: route({
    method: "POST",
    path: "/auth/register/:inviter",
    auth: false,
    tags: ["auth"],
    params: InviterParams,
    body: RegisterBody,
    response: SessionReply,
  }),
  /** Telegram sign-in without a referral in the path (the inviter may come from `start_param`). */
  telegramAuth: route({
    method: "POST",
    path: "/auth/telegram",
    auth: false,
    tags: ["auth"],
    body: TelegramAuthBody,
    response: SessionReply,
  }),
  /** Telegram sign-in invited by `inviter` (used only when the account is created). */
  telegramAuthInvited: route({
    method: "POST",
    path: "/auth/telegram/:inviter",
    auth: false,
    tags: ["auth"],
    params: InviterParams,
    body: TelegramAuthBody,
    response: SessionReply,
  }),
  phoneConfirm: route({
    method: "POST",
    path: "/auth/phone/confirm",
    auth: true,
    tags: ["auth"],
    body: CodeBody,
    response: PhoneConfirmReply,
  }),
  phoneResend: route({
    method: "POST",
    path: "/auth/phone/resend",
    auth: true,
    tags: ["auth"],
    response: CodeSentReply,
  }),
  resetPassword: route({
    method: "POST",
    path: "/auth/reset-password",
    auth: false,
    tags: ["auth"],
    body: ResetPasswordBody,
    response: CodeSentReply,
  }),
  resetPasswordValidate: route({
    method: "POST",
    path: "/auth/reset-password/validate",
    auth: false,
    tags: ["auth"],
    body: ResetPasswordValidateBody,
    response: ResetPasswordValidateReply,
  }),
  setPassword: route({
    method: "POST",
    path: "/auth/set-password",
    auth: false,
    tags: ["auth"],
    body: SetPasswordBody,
    response: OkReply,
  }),
  /** Added beside the cabinet's calls (docs/decisions.md#added-calls): revokes the caller's token. */
  logout: route({
    method: "POST",
    path: "/auth/logout",
    auth: "optional",
    tags: ["auth", "service"],
    response: OkReply,
  }),

  // User
  userDataByType: route({
    method: "GET",
    path: "/user-data/byType/:type",
    auth: true,
    tags: ["user"],
    params: UserDataTypeParams,
    response: Profile,
  }),
  /** The same as `userDataByType` with the default type, `profile`. */
  userData: route({ method: "GET", path: "/user-data/byType", auth: true, tags: ["user"], response: Profile }),
  /** Added beside the cabinet's calls: the signed-in user, to refresh the saved user object. */
  currentUser: route({ method: "GET", path: "/user/me", auth: true, tags: ["user", "service"], response: User }),
} as const;
