// The launch's painted first screen (`GET /app/first-screen`): what the launcher asks for and what it gets.
import * as z from "zod/mini";
import { Language } from "./enums";
import { OverviewReply } from "./home";
import { User } from "./user";

/**
 * The look the app will have on the device: telegram-ui's platform and the light or dark appearance (light when not
 * said); inside Telegram the client's platform (`tgWebAppPlatform`) and its theme (`tgWebAppThemeParams`, as the
 * client passed it), which decides the appearance as it does the app's.
 */
export const FirstScreenQuery = z.object({
  language: Language,
  platform: z.enum(["base", "ios"]),
  appearance: z.optional(z.enum(["light", "dark"])),
  telegram: z.optional(z.string().check(z.regex(/^[a-z_]{1,32}$/))),
  theme: z.optional(z.string().check(z.maxLength(4096))),
});
export type FirstScreenQuery = z.infer<typeof FirstScreenQuery>;

/**
 * The cabinet's first screen as markup, or null when the app will show another first (or is not built there), with
 * the replies it was rendered from, as `GET /user/me` and `GET /user/overview` give them: the app takes them as its
 * own calls' (the launcher does not send those).
 */
export const FirstScreenReply = z.object({ markup: z.nullable(z.string()), user: User, overview: OverviewReply });
export type FirstScreenReply = z.infer<typeof FirstScreenReply>;
