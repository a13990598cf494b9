/** The signed-in user as the app keeps it (docs/cabinet-rules.md#sessions). */
import { z } from "zod";
import { Language } from "./enums";

export const User = z.object({
  id: z.string(),
  login: z.string(),
  fullName: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  /** The phone was confirmed by a code (the phone verification screen). */
  phoneConfirmed: z.boolean(),
  /** The account signs in through Telegram. */
  telegramLinked: z.boolean(),
  language: Language,
  avatarUrl: z.string().nullable(),
  createdAt: z.string(),
  /** Updated in place by the app (docs/cabinet-rules.md#sessions). */
  subscription: z.object({ active: z.boolean(), until: z.string().nullable() }),
  /** Updated in place by the app (docs/cabinet-rules.md#sessions). */
  notifications: z.object({ unread: z.number().int().nonnegative() }),
});
export type User = z.infer<typeof User>;
