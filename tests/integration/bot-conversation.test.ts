/**
 * What the chat bot says, against the Bot API stand-in (which refuses `web_app` buttons outside
 * private chats, as Telegram does): groups get one line pointing to a private chat and never an
 * amount; a user marked as having blocked the bot is unmarked by any message; production refuses to
 * start without an https Mini App address; `/language` is kept per chat without an account; unknown
 * buttons are answered; inviters are checked; the chat's menu button is set once; a registered
 * investor following a referral link is not offered to register; unknown commands, text and media
 * get a short help; `/support`, `/settings` (news and the daily accruals, opt-in), `/invite` (the
 * link as `<code>` with a share button). Last, the recorded Bot API calls for `/start`, a group
 * command and one notification in each language are printed and saved to artifacts/bot-api-calls.txt.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { LANGUAGES, type Language, routes } from "@contract";
import { eq, sql } from "drizzle-orm";
import type { Update } from "grammy/types";
import { describe, expect, it } from "vitest";
import { type Clock, fixedClock, systemClock } from "../../server/src/clock";
import { accruals, botChats, chatOutbox, deposits, users } from "../../server/src/db/schema";
import { loadEnv } from "../../server/src/env";
import { queueDigests } from "../../server/src/services/broadcasts";
import { addNews } from "../../server/src/services/news";
import { confirmRefill, createRefill } from "../../server/src/services/refills";
import { setSetting } from "../../server/src/services/settings";
import { miniAppAddressProblem } from "../../server/src/telegram/conversation";
import { syncMenus } from "../../server/src/telegram/menus";
import { deliverDue, Pacer } from "../../server/src/telegram/outbox";
import { botText, formatAmount } from "../../server/src/texts/bot";
import {
  BOT_USER,
  type BotApiStandIn,
  callbackUpdate,
  groupUpdate,
  photoUpdate,
  type RecordedCall,
  textUpdate,
} from "../e2e/support/bot-api";
import { spawnBuiltServer } from "../e2e/support/server";
import { botOf, serverWithBotApi } from "./bot-server";
import { injectRoute, type TestServer } from "./helpers";
import { type Investor, newInvestor } from "./money";

const MINI_APP = "https://kassa.example/";
const silent = { info: () => {}, warn: () => {}, error: () => {} };
const GROUP = -1_001_234_567;

type Keyboard = {
  inline_keyboard: { text: string; web_app?: { url: string }; url?: string; callback_data?: string }[][];
};
const buttons = (call: RecordedCall | undefined) =>
  ((call?.params.reply_markup as Keyboard | undefined)?.inline_keyboard ?? []).flat();

describe("the bot's conversation", () => {
  let api: BotApiStandIn, server: TestServer, investor: Investor;
  let nextUpdate = 900_000_000 + Math.floor(Math.random() * 1e6);
  const telegramId = 555_000_222;
  const investorFrom = { id: telegramId, first_name: "Inv", language_code: "ru" };

  const bot = () => botOf(server);
  /** Hands one update to the bot (as polling does) and waits for its handler. */
  const send = async (update: Record<string, unknown>) => {
    await bot().init();
    await bot().bot.handleUpdate({ update_id: nextUpdate++, ...update } as unknown as Update);
  };
  const deliver = (clock: Clock = systemClock) =>
    deliverDue({
      db: server.handle.db,
      clock,
      sender: bot().bot.api,
      miniAppUrl: server.env.MINI_APP_URL,
      log: silent,
      // Each pass its own pace: these tests are about what is said, not how fast.
      pacer: new Pacer(),
    });
  const sentTo = (chatId: number) => api.callsOf("sendMessage").filter((c) => c.params.chat_id === chatId);
  const lastTo = (chatId: number) => sentTo(chatId).at(-1);
  const newChat = (() => {
    let id = 700_000_000;
    return (language_code = "en") => ({ id: id++, first_name: "Dana", language_code });
  })();

  serverWithBotApi((made) => ({ api, server, investor } = made), { env: { MINI_APP_URL: MINI_APP }, telegramId });

  describe("groups and channels", () => {
    it("a command in a group gets one line with a link to a private chat: no amount, no web_app button", async () => {
      await server.handle.db.update(users).set({ language: "en" }).where(eq(users.id, investor.id));
      const deps = { db: server.handle.db, clock: systemClock };
      const refill = await createRefill(deps, investor.id, { paymentSystemId: "usdt-trc20", amount: "25" });
      await confirmRefill(deps, refill.id);

      const command = groupUpdate(investorFrom, GROUP, "/balance");
      await send(command);
      const replies = sentTo(GROUP);
      expect(replies).toHaveLength(1);
      expect(replies[0]?.status).toBe(200);
      // A reply to the command, so the group sees whom it answers.
      expect(replies[0]?.params.reply_parameters).toMatchObject({ message_id: command.message.message_id });
      expect(replies[0]?.params.text).toBe(
        "I only answer in a private chat, so that nothing about your account ends up in a group.",
      );
      expect(replies[0]?.params.text).not.toMatch(/USDT|\d/);
      expect(buttons(replies[0])).toEqual([{ text: "Open a private chat", url: `https://t.me/${BOT_USER.username}` }]);
      expect(JSON.stringify(replies)).not.toContain("web_app");
      // Nothing went to the member's private chat either.
      expect(sentTo(telegramId)).toHaveLength(0);
      // In the private chat the balance is there, as an exact decimal the language's way.
      await send(textUpdate(investorFrom, "/balance"));
      expect(lastTo(telegramId)?.params.text).toBe("Your balance:\n25.00 USDT");
    });

    it("says nothing in a group to plain text, another bot's command or an unknown command; a button there is answered", async () => {
      await send(groupUpdate(investorFrom, GROUP, "hello everyone"));
      await send(groupUpdate(investorFrom, GROUP, "/balance@SomeOtherBot"));
      await send(groupUpdate(investorFrom, GROUP, "/weather"));
      await send(groupUpdate(investorFrom, GROUP, `/start@${BOT_USER.username}`));
      expect(sentTo(GROUP)).toHaveLength(1);
      const tap = callbackUpdate(investorFrom, "lang:de");
      await send({
        callback_query: {
          ...tap.callback_query,
          message: { ...tap.callback_query.message, chat: { id: GROUP, type: "supergroup" } },
        },
      });
      expect(api.callsOf("answerCallbackQuery")).toHaveLength(1);
      expect(api.callsOf("editMessageText")).toHaveLength(0);
      const [user] = await server.handle.db.select().from(users).where(eq(users.id, investor.id));
      expect(user?.language).toBe("en");
    });

    it("sets its commands for private chats only (scope all_private_chats) and clears the default scope's", async () => {
      await bot().configure();
      const set = api.callsOf("setMyCommands");
      expect(set.map((c) => c.params.language_code ?? "default")).toEqual(["default", ...LANGUAGES]);
      for (const call of set) expect(call.params.scope).toEqual({ type: "all_private_chats" });
      const deleted = api.callsOf("deleteMyCommands");
      expect(deleted.map((c) => c.params.language_code ?? "default")).toEqual(["default", ...LANGUAGES]);
      for (const call of deleted) expect(call.params.scope).toBeUndefined();
    });
  });

  it("a user marked as having blocked the bot is unmarked by any message, and notifications reach them again", async () => {
    await server.handle.db.update(users).set({ botBlockedAt: new Date() }).where(eq(users.id, investor.id));
    await send(textUpdate(investorFrom, "/start"));
    const [user] = await server.handle.db.select().from(users).where(eq(users.id, investor.id));
    expect(user?.botBlockedAt).toBeNull();
    await server.handle.db.update(chatOutbox).set({ failedAt: new Date() });
    const deps = { db: server.handle.db, clock: systemClock };
    const refill = await createRefill(deps, investor.id, { paymentSystemId: "usdt-trc20", amount: "7" });
    await confirmRefill(deps, refill.id);
    expect(await deliver()).toBe(1);
  });

  describe("production without an https Mini App address", () => {
    const production = {
      NODE_ENV: "production",
      TELEGRAM_BOT_TOKEN: "7000000001:AAF-real-looking-token-000000000",
      CODE_SECRET: randomBytes(32).toString("base64url"),
    };

    it("names the variable; an https address, or no bot in the process, will do", () => {
      expect(miniAppAddressProblem(loadEnv(production))).toMatch(/MINI_APP_URL \(or PUBLIC_URL\).*https/);
      expect(miniAppAddressProblem(loadEnv({ ...production, MINI_APP_URL: "http://kassa.example/" }))).toMatch(
        /http:\/\/kassa\.example\/.*MINI_APP_URL/,
      );
      expect(miniAppAddressProblem(loadEnv({ ...production, PUBLIC_URL: "https://kassa.example" }))).toBeNull();
      expect(miniAppAddressProblem(loadEnv({ ...production, MINI_APP_URL: "https://app.kassa.example/" }))).toBeNull();
      expect(miniAppAddressProblem(loadEnv({ ...production, TELEGRAM_BOT: "off" }))).toBeNull();
      expect(miniAppAddressProblem(loadEnv({}))).toBeNull();
    });

    it("the server refuses to start, and says which variable to set", async () => {
      const server = await spawnBuiltServer({
        ...production,
        DATA_DIR: "memory",
        STATIC_DIR: "",
        TELEGRAM_API_ROOT: api.url,
        ACCRUAL_INTERVAL_SECONDS: "0",
      });
      const outcome = await new Promise<number | "running">((resolve) => {
        server.child.on("exit", (code) => resolve(code ?? -1));
        const timer = setInterval(() => {
          if (server.output().includes("Kassa is running")) {
            clearInterval(timer);
            resolve("running");
          }
        }, 50);
        server.child.on("exit", () => clearInterval(timer));
      });
      // Killed if it runs; either way its whole output read.
      await server.kill();
      const output = server.output();
      expect(outcome).toBe(1);
      expect(output).toContain("Kassa could not start");
      expect(output).toMatch(/MINI_APP_URL \(or PUBLIC_URL\)/);
      expect(api.callsOf("getMe")).toHaveLength(0);
    }, 60_000);
  });

  it("/language without an account is kept for the chat and used in every reply", async () => {
    const from = newChat("en");
    await send(textUpdate(from, "/language"));
    await send(callbackUpdate(from, "lang:de"));
    expect(api.callsOf("editMessageText").at(-1)?.params.text).toBe("Erledigt: Die Sprache ist jetzt Deutsch.");
    await send(textUpdate(from, "/help"));
    expect(lastTo(from.id)?.params.text).toMatch(/^\/cabinet öffnet Ihr Konto/);
    await send(textUpdate(from, "/start"));
    expect(lastTo(from.id)?.params.text).toBe(
      "Willkommen bei Kassa, Dana. Ihr Konto öffnen Sie direkt hier in Telegram.",
    );
    expect(buttons(lastTo(from.id))).toEqual([{ text: "Konto öffnen", web_app: { url: MINI_APP } }]);
    const [chat] = await server.handle.db.select().from(botChats).where(eq(botChats.chatId, from.id));
    expect(chat?.language).toBe("de");
  });

  describe("smaller points", () => {
    it("a button the bot no longer knows is answered, so it stops spinning", async () => {
      const from = newChat("en");
      const tap = callbackUpdate(from, "an-old-button:42");
      await send(tap);
      expect(api.callsOf("answerCallbackQuery")).toEqual([
        expect.objectContaining({
          params: { callback_query_id: tap.callback_query.id, text: "This button no longer works." },
        }),
      ]);
    });

    it("names only an inviter whose account exists, in its own spelling", async () => {
      const stranger = newChat("en");
      await send(textUpdate(stranger, "/start ref_Kassa_Support"));
      const reply = lastTo(stranger.id);
      expect(reply?.params.text).toBe("Welcome to Kassa, Dana. Your cabinet opens right here in Telegram.");
      expect(buttons(reply)).toEqual([{ text: "Open my cabinet", web_app: { url: MINI_APP } }]);

      const invited = newChat("en");
      await send(textUpdate(invited, `/start ref_${investor.login.toUpperCase()}`));
      expect(lastTo(invited.id)?.params.text).toContain(`${investor.login} invited you.`);
      expect(buttons(lastTo(invited.id))).toEqual([
        { text: "Sign up", web_app: { url: `${MINI_APP}?startapp=ref_${investor.login}` } },
      ]);
    });

    it("an investor who already has an account and follows a referral link is not offered to register", async () => {
      await send(textUpdate(investorFrom, "/start ref_demo"));
      const reply = lastTo(telegramId);
      expect(reply?.params.text).not.toContain("invited");
      expect(buttons(reply)).toEqual([{ text: "Open my cabinet", web_app: { url: MINI_APP } }]);
    });

    it("sets a chat's menu button once, and again only when its language changes", async () => {
      const from = newChat("en");
      await send(textUpdate(from, "/start"));
      await send(textUpdate(from, "/start"));
      await send(textUpdate(from, "/start"));
      const menus = () => api.callsOf("setChatMenuButton").filter((c) => c.params.chat_id === from.id);
      expect(menus()).toHaveLength(1);
      expect(menus()[0]?.params.menu_button).toMatchObject({ type: "web_app", text: "Cabinet" });
      await send(callbackUpdate(from, "lang:kk"));
      await send(textUpdate(from, "/start"));
      expect(menus()).toHaveLength(2);
      expect(menus()[1]?.params.menu_button).toMatchObject({ text: "Кабинет" });
    });
    it("a language changed in the app's settings reaches the chat's menu button, once", async () => {
      const other = await newInvestor(server.handle.db, systemClock);
      const from = newChat("en");
      await server.handle.db.update(users).set({ telegramId: from.id }).where(eq(users.id, other.id));
      await send(textUpdate(from, "/start"));
      const menus = () => api.callsOf("setChatMenuButton").filter((c) => c.params.chat_id === from.id);
      expect(menus().map((c) => (c.params.menu_button as { text: string }).text)).toEqual(["Cabinet"]);
      const changed = await injectRoute(server, routes.updateProfile, {
        token: other.token,
        body: { language: "de" },
      });
      expect(changed.status).toBe(200);
      const sync = () =>
        syncMenus({ db: server.handle.db, clock: systemClock, api: bot().bot.api, miniAppUrl: MINI_APP, log: silent });
      await sync();
      expect(menus()).toHaveLength(2);
      expect(menus()[1]?.params.menu_button).toMatchObject({
        type: "web_app",
        text: botText("de", "menuButton"),
        web_app: { url: MINI_APP },
      });
      // Set in the new language: neither the next sweep nor /start sets it again.
      await sync();
      await send(textUpdate(from, "/start"));
      expect(menus()).toHaveLength(2);
    });

    it("the menu sweep reads the flagged chats only: 5,000 chats in step are settled at once, one change flags one", async () => {
      const db = server.handle.db;
      const flagged = async () =>
        (await db.select({ chatId: botChats.chatId }).from(botChats).where(eq(botChats.menuStale, true))).length;
      const sync = () => syncMenus({ db, clock: systemClock, api: bot().bot.api, miniAppUrl: MINI_APP, log: silent });
      // 5,000 linked investors (a hundred sweeps' worth) whose chats' menus are in their language, written as the bot writes them.
      const first = 7_100_000_000;
      await db.execute(sql`
        insert into users (login, language, telegram_id)
        select 'menu' || g, 'de', ${first}::bigint + g
        from generate_series(1, 5000) g`);
      await db.execute(sql`
        insert into bot_chats (chat_id, language, menu_language, updated_at)
        select ${first}::bigint + g, 'de', 'de', now() from generate_series(1, 5000) g`);
      expect(await flagged()).toBeGreaterThanOrEqual(5_000);
      const calls = () => api.callsOf("setChatMenuButton").length;
      const before = calls();
      // One sweep settles them all, and asks Telegram for nothing: every menu already matches.
      expect(await sync()).toBe(0);
      expect(await flagged()).toBe(0);
      expect(calls()).toBe(before);
      // An account that changes language flags its own chat, and the sweep sets that button alone.
      await db
        .update(users)
        .set({ language: "kk" })
        .where(eq(users.telegramId, first + 777));
      expect(await flagged()).toBe(1);
      // (A dropped connection to the Bot API leaves the chat flagged for the next sweep.)
      await expect.poll(sync).toBe(1);
      expect(
        api
          .callsOf("setChatMenuButton")
          .slice(before)
          .map((c) => c.params.chat_id),
      ).toEqual([first + 777]);
      expect(await flagged()).toBe(0);
      // A blocked chat is settled without a call; coming back flags it again.
      await db
        .update(users)
        .set({ language: "en", botBlockedAt: new Date() })
        .where(eq(users.telegramId, first + 5));
      expect(await sync()).toBe(0);
      expect(await flagged()).toBe(0);
      await db
        .update(users)
        .set({ botBlockedAt: null })
        .where(eq(users.telegramId, first + 5));
      expect(await sync()).toBe(1);
      expect(await flagged()).toBe(0);
      await db.delete(botChats).where(sql`${botChats.chatId} > ${first}`);
      await db.delete(users).where(sql`${users.telegramId} > ${first}`);
    });
  });

  describe("what users expect", () => {
    it("an unknown command, plain text and a photo get a short help with the button", async () => {
      const from = newChat("en");
      for (const update of [textUpdate(from, "/weather"), textUpdate(from, "hi there"), photoUpdate(from)]) {
        await send(update);
        const reply = lastTo(from.id);
        expect(reply?.params.text).toMatch(/^Sorry, I didn't get that\. Here is what I can do:\n\n\/cabinet opens/);
        expect(buttons(reply)).toEqual([{ text: "Open my cabinet", web_app: { url: MINI_APP } }]);
      }
      expect(sentTo(from.id)).toHaveLength(3);
    });

    it("/support answers with the contact the operator set", async () => {
      const from = newChat("ru");
      await send(textUpdate(from, "/support"));
      expect(lastTo(from.id)?.params.text).toBe("Вопросы по кабинету или платежу? Напишите в поддержку.");
      expect(buttons(lastTo(from.id))).toEqual([{ text: "Написать в поддержку", url: "https://t.me/KassaSupport" }]);
      await setSetting(server.handle.db, systemClock, "supportUrl", "https://t.me/KassaHelpDesk");
      await send(textUpdate(from, "/support"));
      expect(buttons(lastTo(from.id))).toEqual([{ text: "Написать в поддержку", url: "https://t.me/KassaHelpDesk" }]);
    });

    it("/invite gives the referral link as <code> with a button to Telegram's share sheet", async () => {
      await send(textUpdate(investorFrom, "/invite"));
      const reply = lastTo(telegramId);
      const link = `https://t.me/${BOT_USER.username}?startapp=ref_${investor.login}`;
      expect(reply?.params).toMatchObject({ parse_mode: "HTML" });
      expect(reply?.params.text).toContain(`<code>${link}</code>`);
      const [share] = buttons(reply);
      expect(share?.text).toBe("Share link");
      const url = new URL(share?.url ?? "");
      expect(`${url.origin}${url.pathname}`).toBe("https://t.me/share/url");
      expect(url.searchParams.get("url")).toBe(link);
      expect(url.searchParams.get("text")).toBe("Join me on Kassa");
      // Without an account there is no link to give.
      const from = newChat("en");
      await send(textUpdate(from, "/invite"));
      expect(lastTo(from.id)?.params.text).toBe("Sign in to Kassa with Telegram and your invite link will show here.");
    });

    it("news comes to the chats that opted in with /settings, and only to them", async () => {
      await server.handle.db.update(chatOutbox).set({ failedAt: new Date() });
      await send(textUpdate(investorFrom, "/settings"));
      expect(buttons(lastTo(telegramId)).map((b) => [b.text, b.callback_data])).toEqual([
        ["News: off", "opt:news"],
        ["Daily accruals summary: off", "opt:digest"],
        ["Language", "opt:language"],
      ]);
      await send(callbackUpdate(investorFrom, "opt:news"));
      expect(api.callsOf("answerCallbackQuery").at(-1)?.params.text).toBe("You will now receive news in this chat.");
      expect(buttons(api.callsOf("editMessageReplyMarkup").at(-1))[0]?.text).toBe("News: on");

      const item = await addNews(server.handle.db, systemClock, {
        title: { en: "New plan: Gold & Silver", ru: "Новый тариф" },
        body: { en: "<p>From Monday the <b>Gold</b> plan pays 1.2% a day.</p>", ru: "<p>С понедельника…</p>" },
      });
      expect(await deliver()).toBe(1);
      const [message] = sentTo(telegramId).slice(-1);
      expect(message?.params.text).toBe(
        "<b>New plan: Gold &amp; Silver</b>\nFrom Monday the Gold plan pays 1.2% a day.",
      );
      expect(buttons(message)).toEqual([
        { text: "Read the news", web_app: { url: `${MINI_APP}?startapp=news_${item.id}` } },
      ]);

      // Turned off: the next item does not come.
      await send(callbackUpdate(investorFrom, "opt:news"));
      await addNews(server.handle.db, systemClock, { title: { en: "Another" }, body: { en: "Text" } });
      expect(await deliver()).toBe(0);
    });

    it("the daily accruals come once a day to the chats that opted in, as exact decimals", async () => {
      await server.handle.db.update(chatOutbox).set({ failedAt: new Date() });
      await send(callbackUpdate(investorFrom, "opt:digest"));
      expect(api.callsOf("answerCallbackQuery").at(-1)?.params.text).toBe(
        "Every day after midnight UTC you will get a summary of the previous day's accruals.",
      );
      const now = new Date();
      // Turned on today: nothing about yesterday.
      expect(await queueDigests(server.handle.db, now)).toBe(0);

      const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 9));
      const earlier = new Date(today.getTime() - 5 * 86_400_000);
      // Accruals held in two running deposits (the summary reads the accruals, by the day each was due).
      const deposit = async (currency: string) => {
        const [row] = await server.handle.db
          .insert(deposits)
          .values({
            userId: investor.id,
            planId: "start",
            currency,
            amount: "100",
            dailyYieldPercent: "1",
            durationDays: 30,
            dailyIncome: "1",
            startedAt: earlier,
            endsAt: new Date(earlier.getTime() + 30 * 86_400_000),
            createdAt: earlier,
          })
          .returning({ id: deposits.id });
        if (!row) throw new Error("no deposit");
        return row.id;
      };
      const [usdt, btc] = [await deposit("USDT"), await deposit("BTC")];
      await server.handle.db.insert(accruals).values([
        { depositId: usdt, dayIndex: 1, amount: "1231.56", dueAt: earlier, createdAt: earlier },
        { depositId: usdt, dayIndex: 2, amount: "1.25", dueAt: today, createdAt: today },
        { depositId: usdt, dayIndex: 3, amount: "1.75", dueAt: today, createdAt: today },
        { depositId: btc, dayIndex: 1, amount: "0.00012345", dueAt: earlier, createdAt: earlier },
      ]);
      const tomorrow = new Date(today.getTime() + 86_400_000);
      expect(await queueDigests(server.handle.db, tomorrow)).toBe(1);
      expect(await queueDigests(server.handle.db, new Date(tomorrow.getTime() + 3_600_000))).toBe(0);
      expect(await deliver(fixedClock(tomorrow))).toBe(1);
      const day = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", timeZone: "UTC" }).format(today);
      expect(lastTo(telegramId)?.params.text).toBe(`<b>Accruals on ${day}</b>\n+3.00 USDT (1,234.56 USDT in total)`);
    });

    it("writes amounts as each language does, from the exact decimal", () => {
      expect(LANGUAGES.map((l) => formatAmount("1234567.890000000000000000", l))).toEqual([
        "1,234,567.89",
        "1\u00a0234\u00a0567,89",
        "1.234.567,89",
        "1\u00a0234\u00a0567,89",
      ]);
      expect(formatAmount("0.000000000000000001", "en")).toBe("0.000000000000000001");
      expect(formatAmount("3", "de")).toBe("3,00");
    });
  });

  it("records the Bot API calls for /start, a group command and one notification in each language", async () => {
    const transcript: string[] = [];
    // One line per call: the method, Telegram's status and the parameters as sent.
    const show = (calls: RecordedCall[]) =>
      calls.map(({ method, status, params }) => `${method} ${status} ${JSON.stringify(params)}`).join("\n");
    await server.handle.db.update(chatOutbox).set({ failedAt: new Date() });
    const deps = { db: server.handle.db, clock: systemClock };
    for (const language of LANGUAGES as readonly Language[]) {
      const from = newChat(language);
      api.calls.length = 0;
      await send(textUpdate(from, "/start"));
      transcript.push(`## ${language}: /start in a private chat\n${show(api.calls)}`);

      api.calls.length = 0;
      await send(groupUpdate(from, GROUP, "/balance"));
      transcript.push(`## ${language}: /balance in a group\n${show(api.calls)}`);

      await server.handle.db.update(users).set({ language }).where(eq(users.id, investor.id));
      const refill = await createRefill(deps, investor.id, { paymentSystemId: "usdt-trc20", amount: "25" });
      await confirmRefill(deps, refill.id);
      api.calls.length = 0;
      expect(await deliver()).toBe(1);
      transcript.push(`## ${language}: a refill credited (one notification)\n${show(api.calls)}`);
      expect(api.calls.every((c) => c.status === 200)).toBe(true);
    }
    const text = transcript.join("\n\n");
    mkdirSync("artifacts", { recursive: true });
    writeFileSync("artifacts/bot-api-calls.txt", `${text}\n`);
    console.log(text);
    expect(transcript).toHaveLength(12);
  });
});
