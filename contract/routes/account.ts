// The route table's calls for the settings screen: profile, security, verification and notifications (`contract/routes.ts` joins the areas).
import { CodeSentReply, OkReply } from "../auth";
import {
  AvatarReply,
  PhoneChangeConfirmBody,
  PhoneChangeConfirmReply,
  ProfileUpdateBody,
  ProfileUpdateReply,
  SubscriptionBody,
  SubscriptionReply,
} from "../profile";
import {
  ChangePasswordBody,
  EmailConfirmBody,
  SecuritySettings,
  SecurityUpdateBody,
  TelegramLinkReply,
} from "../security";
import { VerificationState } from "../verification";
import { route } from "./route";

export const accountRoutes = {
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
} as const;
