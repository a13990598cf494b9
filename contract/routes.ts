/**
 * The route table: every call the app makes, with its method, path (relative to the API base) and
 * schemas. The server registers these paths; the app's API client builds URLs from them.
 * Paths use `:param` for path segments, as Fastify does.
 */
import * as z from "zod/mini";
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
import {
  BalanceQuery,
  BalanceReply,
  CaseOperationsQuery,
  ExchangeBody,
  ExchangeRateReply,
  ExchangeReply,
  OperationsQuery,
  OperationsReply,
  SetCurrentCurrencyBody,
  StatisticsReply,
} from "./balance";
import { NewsIdParams, NewsOneReply, NewsQuery, NewsReply } from "./content";
import {
  CryptoCasesReply,
  Deposit,
  DepositCloseBody,
  DepositCloseReply,
  DepositCreateBody,
  DepositsQuery,
  DepositsReply,
  IdParams,
  Refill,
  RefillCreateBody,
  RefillsQuery,
  RefillsReply,
  RefillUpdateBody,
} from "./funds";
import {
  IncomeQuery,
  IncomeReply,
  OverviewReply,
  StatementFileQuery,
  StatementLinkReply,
  StatementQuery,
  StatementReply,
} from "./home";
import {
  NotificationIdParams,
  NotificationsInboxQuery,
  NotificationsInboxReply,
  NotificationsReadBody,
  NotificationsReadReply,
  NotificationsReply,
  PulseReply,
} from "./notifications";
import { BonusReply, PartnerInviteReply, ReferralDetail, ReferralsQuery, ReferralsReply } from "./partners";
import {
  AvatarReply,
  PhoneChangeConfirmBody,
  PhoneChangeConfirmReply,
  Profile,
  ProfileUpdateBody,
  ProfileUpdateReply,
  SubscriptionBody,
  SubscriptionReply,
  UserDataTypeParams,
} from "./profile";
import {
  ChangePasswordBody,
  EmailConfirmBody,
  SecuritySettings,
  SecurityUpdateBody,
  TelegramLinkReply,
} from "./security";
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
import { VerificationState } from "./verification";
import { WalletsReply, WalletsUpdateBody, WalletsUpdateReply } from "./wallets";
import {
  Withdrawal,
  WithdrawalRequestBody,
  WithdrawalRequestReply,
  WithdrawalsQuery,
  WithdrawalsReply,
  WithdrawalValidateBody,
} from "./withdrawals";

export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/**
 * Whether the call needs `Authorization: Bearer <refreshToken>`: `true` refuses a call without a
 * live session (401 SESSION_TIMEOUT); `"optional"` reads the session when there is one (logout);
 * `"operator"` needs the server's operator token (404 without it: see `operator.ts`).
 * The server authenticates a route because its entry here says so.
 */
export type RouteAuth = boolean | "optional" | "operator";

export interface RouteDef {
  method: HttpMethod;
  path: string;
  auth: RouteAuth;
  /** OpenAPI groups of the call. */
  tags: readonly string[];
  params?: z.ZodMiniType;
  query?: z.ZodMiniType;
  body?: z.ZodMiniType;
  response: z.ZodMiniType;
  /**
   * A money call: it takes an `Idempotency-Key` header, and a repeat with the same key gets the
   * first reply instead of spending again (docs/decisions.md#exactly-once-money-calls; the server's
   * `plugins/idempotency.ts`).
   */
  idempotent?: boolean;
}

function route<const R extends RouteDef>(def: R): R {
  return def;
}

export const routes = {
  // Settings (docs/cabinet-rules.md#api-calls)
  telegramAuthAvailable: route({
    method: "GET",
    path: "/settings/telegramAuthAvailable",
    auth: false,
    tags: ["settings"],
    response: TelegramAuthAvailableReply,
  }),
  technicalWork: route({
    method: "GET",
    path: "/settings/technical_work",
    auth: false,
    tags: ["settings"],
    response: TechnicalWorkReply,
  }),
  subscriptionOptions: route({
    method: "GET",
    path: "/settings/subscription/options",
    auth: false,
    tags: ["settings"],
    response: SubscriptionOptionsReply,
  }),
  setting: route({
    method: "GET",
    path: "/settings/:key",
    auth: false,
    tags: ["settings"],
    params: z.object({ key: PublicSettingKey }),
    response: SettingReply,
  }),
  plansAvailable: route({
    method: "GET",
    path: "/settings_other/plans/available",
    auth: false,
    tags: ["settings"],
    response: PlansReply,
  }),
  paymentSystems: route({
    method: "GET",
    path: "/payment-systems",
    auth: false,
    tags: ["settings"],
    response: PaymentSystemsReply,
  }),

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

  // Balance, statistics, exchange, operations (docs/decisions.md#d3-money)
  balance: route({
    method: "GET",
    path: "/user/balance",
    auth: true,
    tags: ["user"],
    query: BalanceQuery,
    response: BalanceReply,
  }),
  /** Chooses the current currency. */
  setBalanceCurrency: route({
    method: "POST",
    path: "/user/balance",
    auth: true,
    tags: ["user"],
    body: SetCurrentCurrencyBody,
    response: BalanceReply,
  }),
  statistics: route({ method: "GET", path: "/user/statistics", auth: true, tags: ["user"], response: StatisticsReply }),
  exchangeRate: route({
    method: "GET",
    path: "/user/exchange-rate",
    auth: true,
    tags: ["user"],
    response: ExchangeRateReply,
  }),
  exchange: route({
    method: "POST",
    path: "/user/exchange",
    auth: true,
    tags: ["user"],
    idempotent: true,
    body: ExchangeBody,
    response: ExchangeReply,
  }),
  /** The caller's operations, newest first (the path without the slash answers the same). */
  operations: route({
    method: "GET",
    path: "/user/operations/",
    auth: true,
    tags: ["user"],
    query: OperationsQuery,
    response: OperationsReply,
  }),
  /**
   * Added: the caller's operations of a period (UTC days, both included, at most a year) as a CSV file
   * (`text/csv; charset=utf-8`, an attachment), oldest first (contract/home.ts).
   */
  statement: route({
    method: "GET",
    path: "/user/operations/statement",
    auth: true,
    tags: ["user", "service"],
    query: StatementQuery,
    response: StatementReply,
  }),
  /** Added: a link that opens the same statement file for 5 minutes without the session header. */
  statementLink: route({
    method: "POST",
    path: "/user/operations/statement/link",
    auth: true,
    tags: ["user", "service"],
    body: StatementQuery,
    response: StatementLinkReply,
  }),
  /** Added: the statement file of a link (no session header: the signed link is the permission). */
  statementFile: route({
    method: "GET",
    path: "/user/operations/statement/file",
    auth: false,
    tags: ["user", "service"],
    query: StatementFileQuery,
    response: StatementReply,
  }),
  /** Added: everything the caller holds in USDT at the operator's rates, each currency's line beneath. */
  overview: route({
    method: "GET",
    path: "/user/overview",
    auth: true,
    tags: ["user", "service"],
    response: OverviewReply,
  }),
  /** Added: accruals and partner income by day, in USDT, for the cabinet's chart. */
  income: route({
    method: "GET",
    path: "/user/income",
    auth: true,
    tags: ["user", "service"],
    query: IncomeQuery,
    response: IncomeReply,
  }),
  /** The caller's operations on deposits opened through a crypto case. */
  caseOperations: route({
    method: "GET",
    path: "/user/case-operations",
    auth: true,
    tags: ["user"],
    query: CaseOperationsQuery,
    response: OperationsReply,
  }),
  cryptoCases: route({
    method: "GET",
    path: "/crypto-cases/all",
    auth: false,
    tags: ["funds"],
    response: CryptoCasesReply,
  }),

  // Funds (docs/decisions.md#d6-funds)
  refills: route({
    method: "GET",
    path: "/funds/refills",
    auth: true,
    tags: ["funds"],
    query: RefillsQuery,
    response: RefillsReply,
  }),
  createRefill: route({
    method: "POST",
    path: "/funds/refills",
    auth: true,
    tags: ["funds"],
    idempotent: true,
    body: RefillCreateBody,
    response: Refill,
  }),
  /** One of the caller's refills; another user's (or an unknown id) is 404. */
  refill: route({
    method: "GET",
    path: "/funds/refills/:id",
    auth: true,
    tags: ["funds"],
    params: IdParams,
    response: Refill,
  }),
  /** Added beside the cabinet's calls: attach the transaction hash while the refill waits. */
  updateRefill: route({
    method: "PATCH",
    path: "/funds/refills/:id",
    auth: true,
    tags: ["funds", "service"],
    params: IdParams,
    body: RefillUpdateBody,
    response: Refill,
  }),
  deposits: route({
    method: "GET",
    path: "/funds/deposits",
    auth: true,
    tags: ["funds"],
    query: DepositsQuery,
    response: DepositsReply,
  }),
  createDeposit: route({
    method: "POST",
    path: "/funds/deposits",
    auth: true,
    tags: ["funds"],
    idempotent: true,
    body: DepositCreateBody,
    response: Deposit,
  }),
  /** Closes the caller's own active deposit early: principal back, held accruals forfeited. */
  closeDeposit: route({
    method: "POST",
    path: "/funds/deposits/client/close/:id",
    auth: true,
    tags: ["funds"],
    idempotent: true,
    params: IdParams,
    body: DepositCloseBody,
    response: DepositCloseReply,
  }),

  // Partners (docs/decisions.md#d6-partners)
  referrals: route({
    method: "GET",
    path: "/user/referrals",
    auth: true,
    tags: ["partners"],
    query: ReferralsQuery,
    response: ReferralsReply,
  }),
  /** One member of the caller's downline; anyone else is 404. */
  referral: route({
    method: "GET",
    path: "/user/referral/:id",
    auth: true,
    tags: ["partners"],
    params: IdParams,
    response: ReferralDetail,
  }),
  bonus: route({ method: "GET", path: "/user/bonus", auth: true, tags: ["partners"], response: BonusReply }),
  /**
   * An invitation with the caller's referral button, prepared by the bot for the caller's Telegram account, to
   * send from the Mini App to a chat of their choice. 404 without a bot or for an account not linked to Telegram.
   */
  partnerInvite: route({
    method: "POST",
    path: "/user/referral/invite",
    auth: true,
    tags: ["partners"],
    response: PartnerInviteReply,
  }),

  // Wallets
  wallets: route({ method: "GET", path: "/user-data/wallets", auth: true, tags: ["user"], response: WalletsReply }),
  updateWallets: route({
    method: "PATCH",
    path: "/user-data/wallets/update",
    auth: true,
    tags: ["user"],
    body: WalletsUpdateBody,
    response: WalletsUpdateReply,
  }),

  // Withdrawals (docs/decisions.md#d6-withdrawals, #d5-codes)
  /** Creates the application, reserves the amount and sends a code. */
  requestWithdrawal: route({
    method: "POST",
    path: "/funds/payments/request",
    auth: true,
    tags: ["funds"],
    idempotent: true,
    body: WithdrawalRequestBody,
    response: WithdrawalRequestReply,
  }),
  /** The older one-step variant: the same as `requestWithdrawal`. */
  createWithdrawal: route({
    method: "POST",
    path: "/funds/payments",
    auth: true,
    tags: ["funds"],
    idempotent: true,
    body: WithdrawalRequestBody,
    response: WithdrawalRequestReply,
  }),
  validateWithdrawal: route({
    method: "POST",
    path: "/funds/payments/validate",
    auth: true,
    tags: ["funds"],
    idempotent: true,
    body: WithdrawalValidateBody,
    response: Withdrawal,
  }),
  withdrawals: route({
    method: "GET",
    path: "/funds/payments",
    auth: true,
    tags: ["funds"],
    query: WithdrawalsQuery,
    response: WithdrawalsReply,
  }),
  /**
   * Added: one of the caller's withdrawals, with its transaction hash and payment system (what a history row
   * opens); another user's, a cancelled one or an unknown id is 404.
   */
  withdrawal: route({
    method: "GET",
    path: "/funds/payments/:id",
    auth: true,
    tags: ["funds", "service"],
    params: IdParams,
    response: Withdrawal,
  }),
  /** Added: a new code for an application awaiting one, after the resend wait. */
  resendWithdrawalCode: route({
    method: "POST",
    path: "/funds/payments/:id/resend",
    auth: true,
    tags: ["funds", "service"],
    params: IdParams,
    response: CodeSentReply,
  }),
  /** Added: cancels an application still awaiting its code; the amount returns to the balance. */
  cancelWithdrawal: route({
    method: "POST",
    path: "/funds/payments/:id/cancel",
    auth: true,
    tags: ["funds", "service"],
    params: IdParams,
    response: Withdrawal,
  }),

  // Settings screen
  /** The old password, the new one twice; every other session of the user is signed out. */
  changePassword: route({
    method: "PATCH",
    path: "/user/password",
    auth: true,
    tags: ["user", "settings"],
    body: ChangePasswordBody,
    response: OkReply,
  }),
  /** Settings data: full name, city, country, phone (a new phone waits for its code). */
  updateUserData: route({
    method: "PATCH",
    path: "/user-data",
    auth: true,
    tags: ["user", "settings"],
    body: ProfileUpdateBody,
    response: ProfileUpdateReply,
  }),
  /**
   * The same as `updateUserData` (the cabinet lists both calls; older clients POST;
   * docs/decisions.md#two-settings-data-calls).
   */
  updateProfile: route({
    method: "POST",
    path: "/user/profile",
    auth: true,
    tags: ["user", "settings"],
    body: ProfileUpdateBody,
    response: ProfileUpdateReply,
  }),
  /** Added: confirms the pending phone with its code; the phone switches. */
  confirmPhoneChange: route({
    method: "POST",
    path: "/user-data/phone/confirm",
    auth: true,
    tags: ["user", "settings"],
    body: PhoneChangeConfirmBody,
    response: PhoneChangeConfirmReply,
  }),
  securitySettings: route({
    method: "GET",
    path: "/user/settings/security",
    auth: true,
    tags: ["user", "settings"],
    response: SecuritySettings,
  }),
  /** Chooses where codes go; only a confirmed channel (else 400 VALIDATION_FAILED on codeChannel). */
  updateSecuritySettings: route({
    method: "PATCH",
    path: "/user/settings/security",
    auth: true,
    tags: ["user", "settings"],
    body: SecurityUpdateBody,
    response: SecuritySettings,
  }),
  /** Added: a code to the e-mail only, to confirm it as a channel for codes. */
  requestEmailCode: route({
    method: "POST",
    path: "/user/settings/security/email",
    auth: true,
    tags: ["user", "settings"],
    response: CodeSentReply,
  }),
  /**
   * Added: a one-time link (10 minutes, single use) that opens the bot and links this password account
   * to the Telegram account that starts it. An account linked already is 400 VALIDATION_FAILED.
   */
  createTelegramLink: route({
    method: "POST",
    path: "/user/settings/security/telegram",
    auth: true,
    tags: ["user", "settings"],
    response: TelegramLinkReply,
  }),
  /** Added: the e-mail's code; the e-mail is confirmed and may be chosen for codes. */
  confirmEmail: route({
    method: "POST",
    path: "/user/settings/security/email/confirm",
    auth: true,
    tags: ["user", "settings"],
    body: EmailConfirmBody,
    response: SecuritySettings,
  }),
  /** Multipart, one file in the field `avatar` (JPEG or PNG by content, at most 5 MB). */
  updateAvatar: route({
    method: "PATCH",
    path: "/user/avatar",
    auth: true,
    tags: ["user", "settings"],
    response: AvatarReply,
  }),
  /**
   * Multipart: fields fullName, dateOfBirth, familyStatus, documentNumber; one file each in
   * documentPhoto, loginPhoto, walletPhoto. Status becomes in_process.
   */
  requestVerification: route({
    method: "PATCH",
    path: "/user-data/verification",
    auth: true,
    tags: ["user", "settings"],
    response: VerificationState,
  }),
  /** The verification request and its status (static path beside `/user-data/byType/:type`). */
  userDataVerification: route({
    method: "GET",
    path: "/user-data/byType/verification",
    auth: true,
    tags: ["user", "settings"],
    response: VerificationState,
  }),
  /** Pays a subscription option from the balance and extends `subscription.until`. */
  subscribe: route({
    method: "POST",
    path: "/user/subscription",
    auth: true,
    tags: ["user"],
    idempotent: true,
    body: SubscriptionBody,
    response: SubscriptionReply,
  }),

  // Other
  notifications: route({
    method: "GET",
    path: "/notification",
    auth: true,
    tags: ["notifications"],
    response: NotificationsReply,
  }),
  /**
   * Added (docs/decisions.md#live-money): the cheap call the open cabinet polls; a new `version` means money or
   * news moved.
   */
  pulse: route({
    method: "GET",
    path: "/user/pulse",
    auth: true,
    tags: ["notifications", "service"],
    response: PulseReply,
  }),
  /** Marks `ids` (every notification when absent) read. */
  readNotifications: route({
    method: "POST",
    path: "/notification/read",
    auth: true,
    tags: ["notifications"],
    body: NotificationsReadBody,
    response: NotificationsReadReply,
  }),
  /** Added: the inbox, every notification read and unread, a page at a time, with what each concerns. */
  notificationsInbox: route({
    method: "GET",
    path: "/notification/inbox",
    auth: true,
    tags: ["notifications", "service"],
    query: NotificationsInboxQuery,
    response: NotificationsInboxReply,
  }),
  /** Added: marks one of the caller's notifications read (another's or an unknown id is 404). */
  readNotification: route({
    method: "POST",
    path: "/notification/:id/read",
    auth: true,
    tags: ["notifications", "service"],
    params: NotificationIdParams,
    response: NotificationsReadReply,
  }),
  news: route({
    method: "GET",
    path: "/content/news",
    auth: false,
    tags: ["content"],
    query: NewsQuery,
    response: NewsReply,
  }),
  newsOne: route({
    method: "GET",
    path: "/content/news/one/:id",
    auth: false,
    tags: ["content"],
    params: NewsIdParams,
    query: NewsQuery,
    response: NewsOneReply,
  }),
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

/** The URL of a call (relative to the API base): `:params` filled, the defined query values appended. */
export function routeUrl(
  route: Pick<RouteDef, "path">,
  params: Record<string, unknown> = {},
  query: Record<string, unknown> = {},
): string {
  const path = buildPath(route.path, Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])));
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) search.set(k, String(v));
  return search.size > 0 ? `${path}?${search}` : path;
}
