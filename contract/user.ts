/** The signed-in user as the app keeps it (docs/cabinet-rules.md#sessions). */
import * as z from "zod/mini";
import { deferred } from "./deferred";
import { Language } from "./enums";

export const User = deferred(() =>
  z.object({
    id: z.string(),
    login: z.string(),
    fullName: z.nullable(z.string()),
    email: z.nullable(z.string()),
    phone: z.nullable(z.string()),
    /** The phone was confirmed by a code (the phone verification screen). */
    phoneConfirmed: z.boolean(),
    /** The account signs in through Telegram. */
    telegramLinked: z.boolean(),
    language: Language,
    avatarUrl: z.nullable(z.string()),
    createdAt: z.string(),
    /** Updated in place by the app (docs/cabinet-rules.md#sessions). */
    subscription: z.object({ active: z.boolean(), until: z.nullable(z.string()) }),
    /** Updated in place by the app (docs/cabinet-rules.md#sessions). */
    notifications: z.object({ unread: z.int().check(z.nonnegative()) }),
  }),
);
export type User = z.infer<typeof User>;
