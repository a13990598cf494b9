/**
 * The chats' menu buttons after a language changed in the app. `/start` and `/language` set a chat's
 * menu button in its language (`conversation.ts`, kept in `bot_chats.menu_language`); an investor who
 * changes language in the app's settings changes `users.language` only. The lease holder compares the
 * two for the chats flagged as possibly stale, every 15 s (`syncMenus`, the `chat-menus` job), and sets the button
 * again where they differ, through the bot's
 * client (per-call time-out, 429 waited). A chat whose menu button was never set is left to the
 * default one. A refusal for good (400, 403) forgets the chat's menu language, so the sweep stops
 * asking and the next `/start` sets it; a 403 also marks the chat blocked, as the outbox does. A
 * busy or absent Telegram is tried again by the next sweep.
 */
import { LANGUAGES } from "@contract";
import { and, eq, inArray, isNull, not, type SQL, sql } from "drizzle-orm";
import { type Api, GrammyError } from "grammy";
import type { Clock } from "../clock";
import { userChanging } from "../db/change-feed";
import type { Database } from "../db/client";
import { botChats, users } from "../db/schema";
import { userLanguage } from "../services/users";
import { botText } from "../texts/bot";
import { miniAppUrl } from "./outbox";

/** Chats set per sweep (the rest wait for the next one). */
const MENUS_PER_SWEEP = 50;

export interface MenuSyncDeps {
  db: Database;
  clock: Clock;
  api: Pick<Api, "setChatMenuButton">;
  miniAppUrl: string;
  log: { warn(obj: object, msg: string): void };
}

/** Whether the account behind the chat asks for a menu in another language than `menu`: its own, known to the app. */
const accountDiffers = (menu: SQL | string) => sql`exists (
  select 1 from ${users} where ${users.telegramId} = ${botChats.chatId} and ${users.language} is distinct from ${menu}
    and ${inArray(users.language, [...LANGUAGES])} and ${isNull(users.botBlockedAt)})`;

/**
 * Sets the menu button again in every linked chat whose account's language changed; returns how many. Reads only the
 * chats flagged `menu_stale` (migration 0027's triggers flag them): first every flagged chat whose menu already
 * matches (or that has no account, a language the app does not know, a blocked bot) is settled in one statement,
 * then up to `MENUS_PER_SWEEP` of the rest get their button.
 */
export async function syncMenus(deps: MenuSyncDeps): Promise<number> {
  const { db } = deps;
  await db
    .update(botChats)
    .set({ menuStale: false })
    .where(and(eq(botChats.menuStale, true), not(accountDiffers(sql`${botChats.menuLanguage}`))));
  const stale = await db
    .select({ chatId: botChats.chatId, userId: users.id, language: users.language })
    .from(botChats)
    .innerJoin(users, eq(users.telegramId, botChats.chatId))
    .where(eq(botChats.menuStale, true))
    .orderBy(botChats.chatId)
    .limit(MENUS_PER_SWEEP);
  let set = 0;
  for (const chat of stale) {
    const language = userLanguage(chat);
    try {
      await deps.api.setChatMenuButton({
        chat_id: chat.chatId,
        menu_button: {
          type: "web_app",
          text: botText(language, "menuButton"),
          web_app: { url: miniAppUrl(deps.miniAppUrl, null) },
        },
      });
    } catch (error) {
      deps.log.warn({ err: error, chatId: chat.chatId }, "chat menu button not set");
      if (error instanceof GrammyError && (error.error_code === 400 || error.error_code === 403)) {
        await db
          .update(botChats)
          .set({ menuLanguage: null, menuStale: false, updatedAt: deps.clock.now() })
          .where(eq(botChats.chatId, chat.chatId));
        if (error.error_code === 403) {
          userChanging(chat.userId);
          await db.update(users).set({ botBlockedAt: deps.clock.now() }).where(eq(users.id, chat.userId));
        }
        continue;
      }
      // Telegram busy or down: the next sweep tries again.
      break;
    }
    // Still flagged when the account changed language again meanwhile.
    await db
      .update(botChats)
      .set({ menuLanguage: language, menuStale: accountDiffers(language), updatedAt: deps.clock.now() })
      .where(eq(botChats.chatId, chat.chatId));
    set++;
  }
  return set;
}
