/** Development-only calls; not registered when NODE_ENV=production. */
import { CodeChannel, Language } from "@contract";
import { z } from "zod";
import type { KassaApp } from "../../context";
import { CODE_PURPOSES } from "../../db/schema";
import { DEV_THEMES, devLaunchLocation, TELEGRAM_PLATFORMS } from "../../telegram/dev-launch";
import { defineRoute } from "../define";
import { withErrors } from "../responses";

const OutboxEntryReply = z.object({
  login: z.string(),
  purpose: z.enum(CODE_PURPOSES),
  code: z.string(),
  channel: CodeChannel,
  createdAt: z.string(),
});

/** Not in the contract: development tools call it, the app never does. */
const outbox = {
  method: "GET",
  path: "/dev/outbox",
  auth: false,
  tags: ["development"],
  query: z.object({
    login: z.string().max(254).optional(),
    purpose: z.enum(CODE_PURPOSES).optional(),
  }),
  response: z.array(OutboxEntryReply),
} as const;

export async function devRoutes(app: KassaApp) {
  defineRoute(
    app,
    outbox,
    {
      operationId: "devOutbox",
      summary: "Verification codes the server would have sent, newest first",
      description:
        "Outside production codes are not delivered: they go to the server log and to this outbox (the last " +
        "500, in memory). `login` filters by recipient (any letter case), `purpose` by phone, password_reset, " +
        "withdrawal or wallet (a withdrawal wallet's change). Absent in production.",
    },
    ({ query, reply }) => {
      reply.header("cache-control", "no-store");
      return app.devOutbox?.list({ login: query.login, purpose: query.purpose }) ?? [];
    },
  );

  app.get(
    "/dev/telegram-launch",
    {
      schema: {
        tags: ["development"],
        operationId: "devTelegramLaunch",
        security: [],
        // A redirect into the app, not an API reply: kept out of the document (its words are above).
        hide: true,
        summary: "Open the app as if launched from Telegram (init data signed by the bot token)",
        description:
          "Redirects to `/?tgDevMock=1#tgWebAppData=…&tgWebAppVersion=8.0&tgWebAppPlatform=…&tgWebAppThemeParams=…" +
          "[&tgWebAppStartParam=…]`. `login` is the Telegram username of the simulated user; the same username " +
          "always gets the same Telegram user id. `theme` is Telegram's day (`light`) or night (`dark`, the " +
          "default) theme; `platform` the client (`ios`, `android`, `tdesktop`, ...).",
        querystring: z.object({
          login: z
            .string()
            .regex(/^[A-Za-z0-9_]{1,32}$/)
            .optional(),
          startParam: z
            .string()
            .regex(/^[A-Za-z0-9_-]{1,512}$/)
            .optional(),
          platform: z.enum(TELEGRAM_PLATFORMS).optional(),
          theme: z.enum(Object.keys(DEV_THEMES) as [keyof typeof DEV_THEMES]).optional(),
          lang: z.optional(Language),
        }),
        response: withErrors({ 302: z.null().describe("Redirect to the app") }),
      },
    },
    async (request, reply) => {
      const { location } = devLaunchLocation({
        botToken: app.env.TELEGRAM_BOT_TOKEN,
        now: app.clock.now(),
        username: request.query.login,
        startParam: request.query.startParam,
        platform: request.query.platform,
        languageCode: request.query.lang,
        theme: request.query.theme,
      });
      return reply.header("cache-control", "no-store").redirect(location, 302);
    },
  );
}
