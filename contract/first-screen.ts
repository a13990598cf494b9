// The launch's painted first screen (`GET /app/first-screen`): what the launcher asks for and what it gets.
import * as z from "zod/mini";
import { deferred } from "./deferred";
import { Language } from "./enums";

/**
 * The look the app will have on the device: on the web the light or dark appearance (light when not said) in
 * telegram-ui's base look; inside Telegram the client's platform (`tgWebAppPlatform`, whose look telegram-ui takes as
 * the app does: iOS's on Apple's clients) and its theme (`tgWebAppThemeParams`, as the client passed it), which
 * decides the appearance as it does the app's.
 */
export const FirstScreenQuery = deferred(() =>
  z.object({
    language: Language,
    appearance: z.optional(z.enum(["light", "dark"])),
    telegram: z.optional(z.string().check(z.regex(/^[a-z_]{1,32}$/))),
    theme: z.optional(z.string().check(z.maxLength(4096))),
  }),
);
export type FirstScreenQuery = z.infer<typeof FirstScreenQuery>;

/**
 * One launch call's reply as the call itself would give it: its URL (relative to the API's base, `LAUNCH_CALL_URLS`),
 * status and body. The app checks it against the call's route when it takes it (`lib/early-replies.ts`).
 */
export const CarriedReply = deferred(() => z.object({ url: z.string(), status: z.int(), body: z.unknown() }));

/**
 * The cabinet's first screen as markup, or null when the app will show another first (or is not built there), with
 * the replies of the launch's calls (`contract/launch-calls.ts`), the user and the overview it was rendered from
 * among them: the app takes them as its own calls' replies, and the launcher sends none of those calls.
 */
export const FirstScreenReply = deferred(() =>
  z.object({ markup: z.nullable(z.string()), replies: z.array(CarriedReply) }),
);
export type FirstScreenReply = z.infer<typeof FirstScreenReply>;
