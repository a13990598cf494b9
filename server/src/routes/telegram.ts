/**
 * The bot's webhook (`POST /api/telegram/webhook`), registered when the bot runs. Telegram sends
 * `X-Telegram-Bot-Api-Secret-Token` with the secret given to `setWebhook`; a call without it (or with
 * another) is refused as if the route did not exist, compared in constant time. An accepted update
 * is stored, then handled from what was stored; Telegram gets its answer when the handling is done
 * or after `WEBHOOK_ANSWER_MS`, whichever comes first, so a slow Bot API never holds Telegram's call
 * (the handling goes on after the answer). Every minute, and when the server is ready, stored
 * updates whose handling never ran (a crash) are handled and old ones pruned.
 */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Update } from "grammy/types";
import { z } from "zod";
import { sendError } from "../errors";
import { type KassaBot, SECRET_HEADER, secretMatches, WEBHOOK_PATH } from "../telegram/bot";
import { handleStoredUpdates, pruneUpdates, STORED_GRACE_MS, storeUpdate } from "../telegram/updates";

const UpdateBody = z.looseObject({ update_id: z.number().int().nonnegative() });
const CHORES_INTERVAL_MS = 60_000;
/** The longest Telegram waits for the webhook's answer. */
export const WEBHOOK_ANSWER_MS = 2_000;

export const telegramRoutes: FastifyPluginAsyncZod<{ bot: KassaBot }> = async (app, { bot }) => {
  const handle = (update: Update) =>
    bot.handleUpdate(update).catch((error: unknown) => {
      // Not taken (the Bot API unreachable for getMe): it stays stored and the chores retry it.
      app.log.warn({ err: error, updateId: update.update_id }, "stored bot update not handled yet");
    });
  // What an earlier process stored and did not handle, at start; then every minute what is older than the grace.
  let graceMs = 0;
  app.jobs.add({
    name: "bot-updates",
    everyMs: CHORES_INTERVAL_MS,
    timeoutMs: CHORES_INTERVAL_MS,
    run: async () => {
      const now = app.clock.now();
      await handleStoredUpdates(app.db, new Date(now.getTime() - graceMs), handle);
      await pruneUpdates(app.db, now);
      graceMs = STORED_GRACE_MS;
    },
  });

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
      const update = parsed.data as unknown as Update;
      // A resend of an update already stored is answered the same and not handled again.
      if (await storeUpdate(app.db, update, app.clock.now())) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          handle(update),
          new Promise<void>((resolve) => {
            timer = setTimeout(resolve, WEBHOOK_ANSWER_MS);
          }),
        ]);
        clearTimeout(timer);
      }
      // A failing handler is logged by the bot and still answered 200: Telegram must not resend it forever.
      return reply.code(200).send({ ok: true });
    },
  );
};
