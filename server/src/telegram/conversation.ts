/**
 * What the bot says in chats. Private chats only: in a group or channel it answers a command of
 * its own with one line pointing to a private chat (a link, never an amount nor a `web_app`
 * button, which Telegram refuses there) and says nothing otherwise. In a private chat: `/start`
 * (an inviter named only when such an account exists, and never to someone who already has an
 * account), `/cabinet`, `/balance`, `/invite` (the referral link as `<code>` with a share button),
 * `/settings` (news and the daily accruals, opt-in), `/language` (kept per chat, also without an
 * account), `/support` (the operator's `supportUrl` setting) and `/help`; anything else (unknown
 * commands, text, media) gets a short help with the button; a button the bot no longer knows is
 * answered, so it stops spinning. Any message from a user marked as having blocked the bot clears
 * the mark. The chat's menu button is set once, and again only when its language changes.
 */
import {
  CURRENCY_CODES,
  FALLBACK_LANGUAGE,
  LANGUAGES,
  type Language,
  parseStartParam,
  referralStartParam,
} from "@contract";
import { and, eq, isNotNull } from "drizzle-orm";
import { type Bot, type Context, InlineKeyboard } from "grammy";
import type { Clock } from "../clock";
import { userChanging } from "../db/change-feed";
import type { Database } from "../db/client";
import { botChats, users } from "../db/schema";
import { normalizeDecimal } from "../decimal";
import type { Env } from "../env";
import { digestDay } from "../services/broadcasts";
import { getBalances } from "../services/ledger";
import { getSetting } from "../services/settings";
import { findUserByLogin, findUserByTelegramId, type UserRow, userLanguage } from "../services/users";
import { botText, formatAmount } from "../texts/bot";
import { answerLinkStart, isLinkStart } from "./link-start";
import { escapeHtml, miniAppUrl, webAppKeyboard } from "./outbox";

export const BOT_COMMANDS = [
  "start",
  "cabinet",
  "balance",
  "invite",
  "settings",
  "language",
  "support",
  "help",
] as const;

export interface ConversationDeps {
  env: Env;
  db: Database;
  clock: Clock;
}

type BotChat = typeof botChats.$inferSelect;
type ChatChange = Partial<Pick<BotChat, "language" | "menuLanguage" | "news" | "digest" | "digestDay">>;

/** Who writes: the linked account (if any), the chat's row (if any) and the language to answer in. */
interface Who {
  user: UserRow | undefined;
  chat: BotChat | undefined;
  language: Language;
}

/** A Telegram `language_code` as one of ours; Russian (the fallback) otherwise. */
export function languageOf(code: string | undefined): Language {
  const short = code?.slice(0, 2).toLowerCase();
  return (LANGUAGES as readonly string[]).includes(short ?? "") ? (short as Language) : FALLBACK_LANGUAGE;
}

/**
 * Production refuses to run the bot without an https Mini App address: Telegram opens only https
 * `web_app` buttons, so every reply and notification would fail. Null when the address will do.
 */
export function miniAppAddressProblem(env: Env): string | null {
  if (env.NODE_ENV !== "production" || !env.TELEGRAM_BOT_ENABLED) return null;
  if (new URL(env.MINI_APP_URL).protocol === "https:") return null;
  return `the bot's Mini App address is ${env.MINI_APP_URL}, and Telegram opens only https:// ones: set MINI_APP_URL (or PUBLIC_URL) to the app's public https:// address, or TELEGRAM_BOT=off`;
}

/** The Telegram link of a private chat with the bot. */
function privateChatLink(ctx: Context): string {
  return `https://t.me/${ctx.me.username}`;
}

export function registerConversation(bot: Bot, deps: ConversationDeps): void {
  const { db, clock, env } = deps;
  const keyboard = (language: Language, startParam: string | null = null) =>
    webAppKeyboard(language, env.MINI_APP_URL, startParam);

  const chatOf = async (chatId: number): Promise<BotChat | undefined> =>
    (await db.select().from(botChats).where(eq(botChats.chatId, chatId)).limit(1))[0];

  const saveChat = async (chatId: number, change: ChatChange): Promise<BotChat> => {
    const now = clock.now();
    const [row] = await db
      .insert(botChats)
      .values({ chatId, ...change, updatedAt: now })
      .onConflictDoUpdate({ target: botChats.chatId, set: { ...change, updatedAt: now } })
      .returning();
    if (!row) throw new Error("bot chat not stored");
    return row;
  };

  const who = async (ctx: Context): Promise<Who> => {
    const from = ctx.from;
    if (!from) return { user: undefined, chat: undefined, language: FALLBACK_LANGUAGE };
    const [user, chat] = await Promise.all([findUserByTelegramId(db, from.id), chatOf(from.id)]);
    const language = user ? userLanguage(user) : (chat?.language ?? languageOf(from.language_code));
    return { user, chat, language };
  };

  /** This chat's menu button in `language`, unless it already is. */
  const ensureMenu = async (ctx: Context, language: Language, chat: BotChat | undefined): Promise<void> => {
    if (ctx.chat?.type !== "private" || chat?.menuLanguage === language) return;
    await ctx.api.setChatMenuButton({
      chat_id: ctx.chat.id,
      menu_button: {
        type: "web_app",
        text: botText(language, "menuButton"),
        web_app: { url: miniAppUrl(env.MINI_APP_URL, null) },
      },
    });
    await saveChat(ctx.chat.id, { menuLanguage: language });
  };

  const settingsKeyboard = (language: Language, chat: BotChat | undefined, linked: boolean) => {
    const state = (on: boolean | undefined) => botText(language, on ? "settings.on" : "settings.off");
    const board = new InlineKeyboard();
    if (linked) {
      board.text(botText(language, "settings.news", { state: state(chat?.news) }), "opt:news").row();
      board.text(botText(language, "settings.digest", { state: state(chat?.digest) }), "opt:digest").row();
    }
    board.text(botText(language, "buttons.language"), "opt:language");
    return board;
  };

  const languagePicker = () => {
    const board = new InlineKeyboard();
    for (const lng of LANGUAGES) board.text(botText(lng, "language.name"), `lang:${lng}`);
    return board;
  };

  // Outside private chats: one line to a private chat for our own commands, else silence.
  bot.use(async (ctx, next) => {
    if (!ctx.chat || ctx.chat.type === "private") return next();
    if (ctx.callbackQuery) return void (await ctx.answerCallbackQuery());
    const message = ctx.message;
    const entity = message?.entities?.[0];
    if (!message?.text || entity?.type !== "bot_command" || entity.offset !== 0) return;
    const [name = "", mention] = message.text.slice(1, entity.length).toLowerCase().split("@");
    if (mention !== undefined && mention !== ctx.me.username.toLowerCase()) return;
    if (!(BOT_COMMANDS as readonly string[]).includes(name)) return;
    const { language } = await who(ctx);
    await ctx.reply(botText(language, "group.privateOnly"), {
      // As a reply to the command, so the group sees whom it answers.
      reply_parameters: { message_id: message.message_id, allow_sending_without_reply: true },
      reply_markup: new InlineKeyboard().url(botText(language, "buttons.privateChat"), privateChatLink(ctx)),
    });
  });

  // A user who writes has not blocked the bot (any more): notifications may reach them again.
  bot.use(async (ctx, next) => {
    if (ctx.from && (ctx.message || ctx.callbackQuery)) {
      const back = await db
        .update(users)
        .set({ botBlockedAt: null })
        .where(and(eq(users.telegramId, ctx.from.id), isNotNull(users.botBlockedAt)))
        .returning({ id: users.id });
      for (const { id } of back) userChanging(id);
    }
    await next();
  });

  bot.command("start", async (ctx) => {
    const { user, chat, language } = await who(ctx);
    if (isLinkStart(ctx.match)) {
      await answerLinkStart(ctx, { db, clock }, ctx.match, language);
      return;
    }
    const target = parseStartParam(ctx.match.trim());
    const lines = [botText(language, "start.greeting", { name: ctx.from?.first_name ?? "" })];
    let startParam: string | null = null;
    if (target?.kind === "ref") {
      // Only an account that exists is named, and only to someone who has none yet.
      const inviter = user ? undefined : await findUserByLogin(db, target.login);
      if (inviter) {
        lines.push(botText(language, "start.invited", { inviter: inviter.login }));
        startParam = referralStartParam(inviter.login);
      }
    } else if (target) {
      startParam = ctx.match.trim();
    }
    await ctx.reply(lines.join("\n\n"), { reply_markup: keyboard(language, startParam) });
    await ensureMenu(ctx, language, chat);
  });

  bot.command("cabinet", async (ctx) => {
    const { language } = await who(ctx);
    await ctx.reply(botText(language, "cabinet"), { reply_markup: keyboard(language) });
  });

  bot.command("balance", async (ctx) => {
    const { user, language } = await who(ctx);
    if (!user) {
      await ctx.reply(botText(language, "balance.notLinked"), { reply_markup: keyboard(language) });
      return;
    }
    const balances = await getBalances(db, user.id);
    // Exact decimals, written as the language writes them (1,234.56 or 1 234,56).
    const lines = CURRENCY_CODES.filter((c) => normalizeDecimal(balances[c]) !== "0").map(
      (c) => `${formatAmount(balances[c], language)} ${c}`,
    );
    const text =
      lines.length > 0
        ? `${botText(language, "balance.title")}\n${lines.join("\n")}`
        : botText(language, "balance.empty");
    await ctx.reply(text, { reply_markup: keyboard(language) });
  });

  bot.command("invite", async (ctx) => {
    const { user, language } = await who(ctx);
    if (!user) {
      await ctx.reply(botText(language, "invite.notLinked"), { reply_markup: keyboard(language) });
      return;
    }
    const link = `https://t.me/${ctx.me.username}?startapp=${referralStartParam(user.login)}`;
    const share = `https://t.me/share/url?url=${encodeURIComponent(link)}&text=${encodeURIComponent(botText(language, "invite.shareText"))}`;
    await ctx.reply(botText(language, "invite.text", { link: escapeHtml(link) }), {
      parse_mode: "HTML",
      link_preview_options: { is_disabled: true },
      reply_markup: new InlineKeyboard().url(botText(language, "buttons.share"), share),
    });
  });

  bot.command("settings", async (ctx) => {
    const { user, chat, language } = await who(ctx);
    await ctx.reply(botText(language, user ? "settings.title" : "settings.notLinked"), {
      reply_markup: settingsKeyboard(language, chat, user !== undefined),
    });
  });

  bot.callbackQuery(/^opt:(news|digest)$/, async (ctx) => {
    const { user, chat, language } = await who(ctx);
    if (!user) {
      await ctx.answerCallbackQuery({ text: botText(language, "settings.notLinked") });
      return;
    }
    const what = ctx.match[1] === "news" ? "news" : "digest";
    const on = !(chat?.[what] ?? false);
    // Turned on today, the first accruals message comes after the next midnight (UTC).
    const change: ChatChange =
      what === "news" ? { news: on } : { digest: on, ...(on ? { digestDay: digestDay(clock.now()) } : {}) };
    const saved = await saveChat(ctx.from.id, change);
    await ctx.answerCallbackQuery({ text: botText(language, `settings.${what}${on ? "On" : "Off"}`) });
    await ctx.editMessageReplyMarkup({ reply_markup: settingsKeyboard(language, saved, true) });
  });

  bot.callbackQuery("opt:language", async (ctx) => {
    const { language } = await who(ctx);
    await ctx.answerCallbackQuery();
    await ctx.reply(botText(language, "language.prompt"), { reply_markup: languagePicker() });
  });

  bot.command("language", async (ctx) => {
    const { language } = await who(ctx);
    await ctx.reply(botText(language, "language.prompt"), { reply_markup: languagePicker() });
  });

  bot.callbackQuery(/^lang:(\w\w)$/, async (ctx) => {
    const language = languageOf(ctx.match[1]);
    const user = await findUserByTelegramId(db, ctx.from.id);
    if (user) {
      userChanging(user.id);
      await db.update(users).set({ language }).where(eq(users.id, user.id));
    }
    // Kept for the chat too: without an account it is the only place the choice lives.
    const before = await chatOf(ctx.from.id);
    await saveChat(ctx.from.id, { language });
    await ctx.answerCallbackQuery();
    await ctx.editMessageText(botText(language, "language.set"));
    await ensureMenu(ctx, language, before);
  });

  bot.command("support", async (ctx) => {
    const { language } = await who(ctx);
    const url = await getSetting(db, "supportUrl");
    await ctx.reply(botText(language, "support.text"), {
      reply_markup: new InlineKeyboard().url(botText(language, "buttons.support"), url),
    });
  });

  bot.command("help", async (ctx) => {
    const { language } = await who(ctx);
    await ctx.reply(botText(language, "help"), { reply_markup: keyboard(language) });
  });

  // Anything else in a private chat: an unknown command, text, a photo, a sticker…
  bot.on("message", async (ctx) => {
    const { language } = await who(ctx);
    await ctx.reply(`${botText(language, "fallback")}\n\n${botText(language, "help")}`, {
      reply_markup: keyboard(language),
    });
  });

  // A button of an old message the bot no longer knows: answered, so it stops spinning.
  bot.on("callback_query", async (ctx) => {
    const { language } = await who(ctx);
    await ctx.answerCallbackQuery({ text: botText(language, "staleButton") });
  });
}
