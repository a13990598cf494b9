/** User data of spec §7 `GET /user-data/byType/{type}` (spec §3 "Settings data"). */
import { z } from "zod";
import { CodeChannel, Language } from "./enums";

export const USER_DATA_TYPES = ["profile"] as const;
export const UserDataType = z.enum(USER_DATA_TYPES);
export type UserDataType = z.infer<typeof UserDataType>;
export const DEFAULT_USER_DATA_TYPE: UserDataType = "profile";

export const UserDataTypeParams = z.object({ type: UserDataType });

/** The profile the Settings screen shows: full name, city, country, phone, registration date and more. */
export const Profile = z.object({
  login: z.string(),
  fullName: z.string().nullable(),
  email: z.string().nullable(),
  emailConfirmed: z.boolean(),
  phone: z.string().nullable(),
  phoneConfirmed: z.boolean(),
  city: z.string().nullable(),
  country: z.string().nullable(),
  /** ISO 8601. */
  registeredAt: z.string(),
  language: Language,
  /** How verification codes reach the user (the security setting). */
  codeChannel: CodeChannel,
  telegramLinked: z.boolean(),
  /** The login of who invited the user; null for accounts without an inviter. */
  inviter: z.string().nullable(),
});
export type Profile = z.infer<typeof Profile>;
