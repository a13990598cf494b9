/** The signed-in user as the app keeps it (spec §3 Session). Later slices extend it. */
import { z } from "zod";
import { Language } from "./enums";

export const User = z.object({
  id: z.string(),
  login: z.string(),
  fullName: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  /** The phone was confirmed by a code (spec §2 phone verification). */
  phoneConfirmed: z.boolean(),
  /** The account signs in through Telegram. */
  telegramLinked: z.boolean(),
  language: Language,
  avatarUrl: z.string().nullable(),
  createdAt: z.string(),
  /** Updated in place by the app (spec §3). */
  subscription: z.object({ active: z.boolean(), until: z.string().nullable() }),
  /** Updated in place by the app (spec §3). */
  notifications: z.object({ unread: z.number().int().nonnegative() }),
});
export type User = z.infer<typeof User>;
