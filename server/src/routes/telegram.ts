/**
 * The bot's webhook (`POST /api/telegram/webhook`), registered when the bot runs. Telegram sends
 * `X-Telegram-Bot-Api-Secret-Token` with the secret given to `setWebhook`; a call without it (or with
 * another) is refused as if the route did not exist, compared in constant time.
 */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Update } from "grammy/types";
import { z } from "zod";
import { sendError } from "../errors";
import { type KassaBot, SECRET_HEADER, secretMatches, WEBHOOK_PATH } from "../telegram/bot";

const UpdateBody = z.looseObject({ update_id: z.number().int().nonnegative() });

export const telegramRoutes: FastifyPluginAsyncZod<{ bot: KassaBot }> = async (app, { bot }) => {
  app.post(
    WEBHOOK_PATH,
    {
      // Checked before the body is even parsed.
      onRequest: async (request, reply) => {
        const given = request.headers[SECRET_HEADER];
        if (!secretMatches(typeof given === "string" ? given : undefined, bot.secret)) {
          return sendError(reply, "NOT_FOUND");
        }
      },
      schema: {
        tags: ["telegram"],
        summary: "Telegram bot updates (webhook mode; secret header required)",
        hide: true,
      },
    },
    async (request, reply) => {
      const parsed = UpdateBody.safeParse(request.body);
      if (!parsed.success) return sendError(reply, "VALIDATION_FAILED");
      // A failing handler is logged by the bot and still answered 200: Telegram must not resend it forever.
      await bot.handleUpdate(parsed.data as unknown as Update);
      return reply.code(200).send({ ok: true });
    },
  );
};
