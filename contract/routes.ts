/**
 * The route table: every call the app makes, with its method, path (relative to the API base) and
 * schemas. The server registers these paths; the app's API client builds URLs from them.
 * Paths use `:param` for path segments, as Fastify does.
 */
import { z } from "zod";
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
} from "./auth";
import { Profile, UserDataTypeParams } from "./profile";
import {
  PaymentSystemsReply,
  PlansReply,
  PublicSettingKey,
  SettingReply,
  SubscriptionOptionsReply,
  TechnicalWorkReply,
  TelegramAuthAvailableReply,
} from "./settings";
import { User } from "./user";

export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

export interface RouteDef {
  method: HttpMethod;
  path: string;
  /** Whether the call needs `Authorization: Bearer <refreshToken>`. */
  auth: boolean;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
}

function route<const R extends RouteDef>(def: R): R {
  return def;
}

export const routes = {
  // Settings (spec §7)
  telegramAuthAvailable: route({
    method: "GET",
    path: "/settings/telegramAuthAvailable",
    auth: false,
    response: TelegramAuthAvailableReply,
  }),
  technicalWork: route({
    method: "GET",
    path: "/settings/technical_work",
    auth: false,
    response: TechnicalWorkReply,
  }),
  subscriptionOptions: route({
    method: "GET",
    path: "/settings/subscription/options",
    auth: false,
    response: SubscriptionOptionsReply,
  }),
  setting: route({
    method: "GET",
    path: "/settings/:key",
    auth: false,
    params: z.object({ key: PublicSettingKey }),
    response: SettingReply,
  }),
  plansAvailable: route({
    method: "GET",
    path: "/settings_other/plans/available",
    auth: false,
    response: PlansReply,
  }),
  paymentSystems: route({
    method: "GET",
    path: "/payment-systems",
    auth: false,
    response: PaymentSystemsReply,
  }),

  // Auth (spec §7; decisions D4, D5)
  login: route({ method: "POST", path: "/auth/login", auth: false, body: LoginBody, response: SessionReply }),
  /** The path segment is the inviter's login (D4). */
  register: route({
    method: "POST",
    path: "/auth/register/:inviter",
    auth: false,
    params: InviterParams,
    body: RegisterBody,
    response: SessionReply,
  }),
  /** Telegram sign-in without a referral in the path (the inviter may come from `start_param`). */
  telegramAuth: route({
    method: "POST",
    path: "/auth/telegram",
    auth: false,
    body: TelegramAuthBody,
    response: SessionReply,
  }),
  /** Telegram sign-in invited by `inviter` (used only when the account is created). */
  telegramAuthInvited: route({
    method: "POST",
    path: "/auth/telegram/:inviter",
    auth: false,
    params: InviterParams,
    body: TelegramAuthBody,
    response: SessionReply,
  }),
  phoneConfirm: route({
    method: "POST",
    path: "/auth/phone/confirm",
    auth: true,
    body: CodeBody,
    response: PhoneConfirmReply,
  }),
  phoneResend: route({ method: "POST", path: "/auth/phone/resend", auth: true, response: CodeSentReply }),
  resetPassword: route({
    method: "POST",
    path: "/auth/reset-password",
    auth: false,
    body: ResetPasswordBody,
    response: CodeSentReply,
  }),
  resetPasswordValidate: route({
    method: "POST",
    path: "/auth/reset-password/validate",
    auth: false,
    body: ResetPasswordValidateBody,
    response: ResetPasswordValidateReply,
  }),
  setPassword: route({
    method: "POST",
    path: "/auth/set-password",
    auth: false,
    body: SetPasswordBody,
    response: OkReply,
  }),
  /** Added beside the spec's calls: revokes the caller's token. */
  logout: route({ method: "POST", path: "/auth/logout", auth: true, response: OkReply }),

  // User (spec §7)
  userDataByType: route({
    method: "GET",
    path: "/user-data/byType/:type",
    auth: true,
    params: UserDataTypeParams,
    response: Profile,
  }),
  /** The same as `userDataByType` with the default type, `profile`. */
  userData: route({ method: "GET", path: "/user-data/byType", auth: true, response: Profile }),
  /** Added beside the spec's calls: the signed-in user, to refresh the saved user object. */
  currentUser: route({ method: "GET", path: "/user/me", auth: true, response: User }),
} as const;

export type Routes = typeof routes;
export type RouteName = keyof Routes;
export type RouteResponse<N extends RouteName> = z.infer<Routes[N]["response"]>;

/** Fills `:param` segments of a route path. */
export function buildPath(path: string, params: Record<string, string> = {}): string {
  return path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name}`);
    return encodeURIComponent(value);
  });
}
