/** User data of `GET /user-data/byType/{type}` (the settings data, docs/cabinet-rules.md#entities). */
import * as z from "zod/mini";
import { CodeSentReply } from "./auth";
import { CurrencyAmounts } from "./balance";
import { deferred } from "./deferred";
import { CodeChannel, Language, VerificationStatus } from "./enums";
import { User } from "./user";
import { CodeField, PhoneField, requiredText, text } from "./validation";

export const USER_DATA_TYPES = ["profile"] as const;
export const UserDataType = deferred(() => z.enum(USER_DATA_TYPES));
export type UserDataType = z.infer<typeof UserDataType>;
export const DEFAULT_USER_DATA_TYPE: UserDataType = "profile";

export const UserDataTypeParams = deferred(() => z.object({ type: UserDataType }));

/** The profile the Settings screen shows: full name, city, country, phone, registration date and more. */
export const Profile = deferred(() =>
  z.object({
    login: z.string(),
    fullName: z.nullable(z.string()),
    email: z.nullable(z.string()),
    emailConfirmed: z.boolean(),
    phone: z.nullable(z.string()),
    phoneConfirmed: z.boolean(),
    city: z.nullable(z.string()),
    country: z.nullable(z.string()),
    /** ISO 8601. */
    registeredAt: z.string(),
    language: Language,
    /** How verification codes reach the user (the security setting). */
    codeChannel: CodeChannel,
    telegramLinked: z.boolean(),
    /** The login of who invited the user; null for accounts without an inviter. */
    inviter: z.nullable(z.string()),
    /** A new phone waiting for its code (`POST /user-data/phone/confirm`); null when none. */
    pendingPhone: z.nullable(z.string()),
    /** Null when verification was never requested. */
    verificationStatus: z.nullable(VerificationStatus),
    avatarUrl: z.nullable(z.string()),
  }),
);
export type Profile = z.infer<typeof Profile>;

/**
 * `PATCH /user-data` and `POST /user/profile`: the editable settings data. Absent fields stay as
 * they are; `null` or "" clears full name, city or country. The registration date is read-only.
 * A different phone is not stored at once: it waits as `pendingPhone` until its code is confirmed.
 * `language` is the interface language the user chose: the server writes notifications, the bot's messages and
 * the codes' texts in it.
 */
export const ProfileUpdateBody = deferred(() =>
  z.object({
    fullName: z.optional(z.nullable(text().check(z.trim(), z.maxLength(200)))),
    city: z.optional(z.nullable(text().check(z.trim(), z.maxLength(100)))),
    country: z.optional(z.nullable(text().check(z.trim(), z.maxLength(100)))),
    phone: z.optional(PhoneField),
    language: z.optional(Language),
  }),
);
export type ProfileUpdateBody = z.infer<typeof ProfileUpdateBody>;

export const ProfileUpdateReply = deferred(() =>
  z.object({
    profile: Profile,
    user: User,
    /** Set when a code went out to confirm a new phone. */
    phoneCode: z.nullable(CodeSentReply),
  }),
);
export type ProfileUpdateReply = z.infer<typeof ProfileUpdateReply>;

/** `POST /user-data/phone/confirm`: the code sent for the pending phone. */
export const PhoneChangeConfirmBody = deferred(() => z.object({ code: CodeField }));
export type PhoneChangeConfirmBody = z.infer<typeof PhoneChangeConfirmBody>;
export const PhoneChangeConfirmReply = deferred(() => z.object({ profile: Profile, user: User }));
export type PhoneChangeConfirmReply = z.infer<typeof PhoneChangeConfirmReply>;

/** `POST /user/subscription`: pay one option from the balance. */
export const SubscriptionBody = deferred(() => z.object({ optionId: requiredText().check(z.maxLength(64)) }));
export type SubscriptionBody = z.infer<typeof SubscriptionBody>;
export const SubscriptionReply = deferred(() => z.object({ user: User, currencies: CurrencyAmounts }));
export type SubscriptionReply = z.infer<typeof SubscriptionReply>;

/** `PATCH /user/avatar` (multipart). */
export const AvatarReply = deferred(() => z.object({ user: User }));
export type AvatarReply = z.infer<typeof AvatarReply>;
