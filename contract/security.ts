/** The security setting of the Settings screen: how verification codes reach the user. */
import * as z from "zod/mini";
import { deferred } from "./deferred";
import { CodeChannel } from "./enums";
import { CodeField, NewPasswordField, PasswordField, text } from "./validation";

/**
 * One channel and whether the user may choose it (only channels the user has confirmed), with the user's
 * address on it masked (`a***@example.com`, `+7******4567`; none for Telegram or without an address).
 */
export const SecurityChannel = deferred(() =>
  z.object({
    channel: CodeChannel,
    available: z.boolean(),
    destination: z.optional(z.string()),
  }),
);
export type SecurityChannel = z.infer<typeof SecurityChannel>;

/** `GET` / `PATCH /user/settings/security`. */
export const SecuritySettings = deferred(() =>
  z.object({
    /** The channel the user chose. */
    codeChannel: CodeChannel,
    /**
     * Where the next code really goes: the chosen channel when the server can deliver there, else the
     * channel it falls back to; null when no channel of the user can take a code now.
     */
    codesGoTo: z.nullable(CodeChannel),
    /** The address on `codesGoTo`, masked as in `channels`. */
    destination: z.optional(z.string()),
    /** Every channel, in the order telegram, email, sms. */
    channels: z.array(SecurityChannel),
    /** Notifications also go to the Telegram chat (only for an account linked to Telegram). */
    chatNotifications: z.boolean(),
    /** The account is linked to Telegram (signed in with it once), so the bot can write to it. */
    chatLinked: z.boolean(),
  }),
);
export type SecuritySettings = z.infer<typeof SecuritySettings>;

/** One or both: the code channel, and whether notifications also go to the Telegram chat. */
export const SecurityUpdateBody = deferred(() =>
  z.object({ codeChannel: z.optional(CodeChannel), chatNotifications: z.optional(z.boolean()) }).check(
    z.refine((body) => body.codeChannel !== undefined || body.chatNotifications !== undefined, {
      message: "required",
      path: ["codeChannel"],
    }),
  ),
);
export type SecurityUpdateBody = z.infer<typeof SecurityUpdateBody>;

/**
 * `POST /user/settings/security/telegram`: a one-time link that opens the bot (`/start link_<token>`)
 * and links this account to the Telegram account that starts it.
 */
export const TelegramLinkReply = deferred(() =>
  z.object({
    /** `https://t.me/<bot>?start=link_<token>`. */
    url: z.string(),
    /** How long the link works (seconds). */
    expiresInSeconds: z.int().check(z.positive()),
  }),
);
export type TelegramLinkReply = z.infer<typeof TelegramLinkReply>;

/** `POST /user/settings/security/email/confirm`: the code sent to the e-mail. */
export const EmailConfirmBody = deferred(() => z.object({ code: CodeField }));
export type EmailConfirmBody = z.infer<typeof EmailConfirmBody>;

/**
 * `PATCH /user/password`. The repeat is compared by the server (NEW_PASSWORDS_MISMATCH,
 * docs/cabinet-rules.md#messages), not by the schema, so the app gets the catalogue's message.
 */
export const ChangePasswordBody = deferred(() =>
  z.object({
    oldPassword: PasswordField,
    password: NewPasswordField,
    passwordRepeat: text().check(z.minLength(1, { error: "required" })),
  }),
);
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;
