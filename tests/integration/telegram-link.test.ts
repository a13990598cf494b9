/**
 * Linking a password account to Telegram (Settings → Security): the one-time link opens the bot with
 * `/start link_<token>` (against the Bot API stand-in); after it the chat hears of the account's
 * events, codes go to the chat, and Telegram sign-in reaches the same account. The link is single
 * use, expires, and a newer one voids it; a Telegram account that is another investor's is refused.
 */
import { routes } from "@contract";
import { sign } from "@telegram-apps/init-data-node";
import { eq } from "drizzle-orm";
import type { Update } from "grammy/types";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Clock } from "../../server/src/clock";
import * as schema from "../../server/src/db/schema";
import { ChannelCodeSender } from "../../server/src/delivery/code-sender";
import { TelegramCodeSender } from "../../server/src/delivery/telegram-code-sender";
import { DEV_BOT_TOKEN } from "../../server/src/env";
import { notify } from "../../server/src/services/notifications";
import { type BotApiStandIn, startBotApiStandIn, textUpdate } from "../e2e/support/bot-api";
import { botOf } from "./bot-server";
import { callRoute, createTestServer, injectRoute, type TestServer } from "./helpers";
import { newInvestor } from "./money";

describe("linking Telegram to a password account", () => {
  let api: BotApiStandIn;
  let server: TestServer;
  let shiftMs = 0;
  const clock: Clock = { now: () => new Date(Date.now() + shiftMs) };
  let nextUpdate = 800_000_000 + Math.floor(Math.random() * 1e6);
  let nextTelegramId = 6_100_000_000 + Math.floor(Math.random() * 1e6);
  const tgUser = (language_code = "en") => ({ id: nextTelegramId++, first_name: "Dana", language_code });

  const bot = () => botOf(server);
  const start = async (from: ReturnType<typeof tgUser>, payload: string) => {
    await bot().init();
    await bot().bot.handleUpdate({ update_id: nextUpdate++, ...textUpdate(from, `/start ${payload}`) } as Update);
    return String(
      api
        .callsOf("sendMessage")
        .filter((c) => c.params.chat_id === from.id)
        .at(-1)?.params.text,
    );
  };
  const newLink = async (token: string) => {
    const res = await injectRoute(server, routes.createTelegramLink, { token });
    expect(res.status).toBe(200);
    const url = String((res.body as { url: string }).url);
    return url.slice(url.indexOf("link_"));
  };
  const telegramIdOf = async (userId: string) =>
    (await server.handle.db.select().from(schema.users).where(eq(schema.users.id, userId)))[0]?.telegramId ?? null;

  beforeAll(async () => {
    api = await startBotApiStandIn();
    const codeSender = new ChannelCodeSender({
      telegram: new TelegramCodeSender({ botToken: DEV_BOT_TOKEN, apiBase: api.url }),
    });
    server = await createTestServer({ clock, seed: false, codeSender, env: { TELEGRAM_API_ROOT: api.url } });
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    await api?.close();
  });
  beforeEach(() => {
    shiftMs = 0;
  });

  it("the link opens the bot; then the chat hears of events, codes go there and Telegram sign-in reaches the account", async () => {
    const inv = await newInvestor(server.handle.db, clock);
    await server.handle.db.update(schema.users).set({ phone: "+77011112233" }).where(eq(schema.users.id, inv.id));
    expect(await callRoute(server, "securitySettings", { token: inv.token })).toMatchObject({ chatLinked: false });

    const res = await injectRoute(server, routes.createTelegramLink, { token: inv.token });
    expect(res.body).toMatchObject({ expiresInSeconds: 600 });
    const url = String((res.body as { url: string }).url);
    expect(url).toMatch(/^https:\/\/t\.me\/KassaCabinetBot\?start=link_[A-Za-z0-9_-]{43}$/);
    const payload = url.slice(url.indexOf("link_"));
    // Only the token's hash is kept.
    const stored = await server.handle.db.select().from(schema.telegramLinkTokens);
    expect(JSON.stringify(stored)).not.toContain(payload.slice(5));

    const from = tgUser();
    expect(await start(from, payload)).toBe(
      `Done: this Telegram account is now linked to your Kassa account ${inv.login}. Notifications and codes can come to this chat, and you can sign in with Telegram.`,
    );
    expect(await callRoute(server, "securitySettings", { token: inv.token })).toMatchObject({
      chatLinked: true,
      chatNotifications: true,
    });

    // Codes: the chat is a channel now.
    const chosen = await injectRoute(server, routes.updateSecuritySettings, {
      token: inv.token,
      body: { codeChannel: "telegram" },
    });
    expect(chosen.status).toBe(200);
    const resent = await injectRoute(server, routes.phoneResend, { token: inv.token });
    expect(resent.body).toMatchObject({ channel: "telegram" });
    expect(String(api.callsOf("sendMessage").at(-1)?.params.text)).toMatch(/<code>\d{6}<\/code>/);
    expect(api.callsOf("sendMessage").at(-1)?.params.chat_id).toBe(from.id);

    // Notifications: the account's events go to the chat's outbox.
    await notify(server.handle.db, inv.id, "verification_success", {}, clock.now());
    const queued = await server.handle.db.select().from(schema.chatOutbox).where(eq(schema.chatOutbox.userId, inv.id));
    expect(queued.map((q) => q.kind)).toContain("verification_success");

    // Telegram sign-in reaches the same account.
    const initData = sign(
      { user: from, query_id: "AAHdF6IQAAAAAN0XohDhrOrc" } as Parameters<typeof sign>[0],
      DEV_BOT_TOKEN,
      clock.now(),
    );
    const signIn = await injectRoute(server, routes.telegramAuth, { body: { initData } });
    expect(signIn.status).toBe(200);
    const profile = await callRoute(server, "userDataByType", {
      token: (signIn.body as { refreshToken: string }).refreshToken,
      params: { type: "profile" },
    });
    expect(profile).toMatchObject({ login: inv.login });
  });

  it("a link works once: pressed again (by anyone) it links nothing", async () => {
    const inv = await newInvestor(server.handle.db, clock);
    const payload = await newLink(inv.token);
    const first = tgUser();
    await start(first, payload);
    const second = tgUser("de");
    expect(await start(second, payload)).toBe(
      "Dieser Link funktioniert nicht mehr: Er wurde schon verwendet oder durch einen neueren ersetzt. Erstellen Sie in Ihrem Konto unter Einstellungen → Sicherheit einen neuen Link.",
    );
    expect(await telegramIdOf(inv.id)).toBe(first.id);
  });

  it("a link expires after 10 minutes, and a newer link voids the older", async () => {
    const inv = await newInvestor(server.handle.db, clock);
    const old = await newLink(inv.token);
    shiftMs = 601_000;
    const from = tgUser("kk");
    expect(await start(from, old)).toBe("Сілтеменің мерзімі өтті. Кабинетте жаңасын жасаңыз: Баптаулар → Қауіпсіздік.");
    expect(await telegramIdOf(inv.id)).toBeNull();

    const replaced = await newLink(inv.token);
    await newLink(inv.token);
    expect(await start(from, replaced)).toMatch(/^Бұл сілтеме енді жарамсыз/);
    expect(await telegramIdOf(inv.id)).toBeNull();
  });

  it("a Telegram account that is another investor's is refused with a clear message, in the chat's language", async () => {
    const owner = await newInvestor(server.handle.db, clock);
    const from = tgUser();
    await server.handle.db
      .update(schema.users)
      .set({ telegramId: from.id, language: "ru" })
      .where(eq(schema.users.id, owner.id));
    const other = await newInvestor(server.handle.db, clock);
    const payload = await newLink(other.token);
    expect(await start(from, payload)).toBe(
      "Этот аккаунт Telegram уже привязан к другому аккаунту Kassa, поэтому привязать его к этому нельзя. Откройте ссылку в том аккаунте Telegram, который хотите привязать, или напишите в поддержку.",
    );
    expect(await telegramIdOf(other.id)).toBeNull();
    expect(await telegramIdOf(owner.id)).toBe(from.id);
  });

  it("an account linked already gets no link", async () => {
    const inv = await newInvestor(server.handle.db, clock);
    await server.handle.db
      .update(schema.users)
      .set({ telegramId: nextTelegramId++ })
      .where(eq(schema.users.id, inv.id));
    const res = await injectRoute(server, routes.createTelegramLink, { token: inv.token });
    expect(res).toMatchObject({ status: 400, body: { code: "VALIDATION_FAILED" } });
  });

  it("prepares an invitation with the investor's referral button for the linked Telegram account, in their language", async () => {
    const inv = await newInvestor(server.handle.db, clock);
    // Not linked to Telegram: nothing to prepare (the app shares the link instead).
    const unlinked = await injectRoute(server, routes.partnerInvite, { token: inv.token });
    expect(unlinked.status).toBe(404);
    expect(api.callsOf("savePreparedInlineMessage")).toHaveLength(0);

    await server.handle.db.update(schema.users).set({ language: "de" }).where(eq(schema.users.id, inv.id));
    const from = tgUser("de");
    await start(from, await newLink(inv.token));
    const res = await injectRoute(server, routes.partnerInvite, { token: inv.token });
    expect(res.status).toBe(200);
    const call = api.callsOf("savePreparedInlineMessage").at(-1);
    expect((res.body as { preparedMessageId: string }).preparedMessageId).toMatch(/^prepared-/);
    expect(call?.params).toMatchObject({
      user_id: from.id,
      allow_user_chats: true,
      allow_group_chats: true,
      allow_bot_chats: false,
      result: {
        type: "article",
        title: "Einladung zu Kassa",
        input_message_content: { message_text: expect.stringContaining("Machen Sie mit bei Kassa") },
        reply_markup: {
          inline_keyboard: [[{ text: "Kassa öffnen", url: `https://t.me/KassaCabinetBot?startapp=ref_${inv.login}` }]],
        },
      },
    });

    // Telegram refuses: 503 BUSY, and the app falls back to sharing the link.
    api.override("savePreparedInlineMessage", () => ({
      status: 400,
      body: { ok: false, error_code: 400, description: "Bad Request: USER_ID_INVALID" },
    }));
    try {
      const refused = await injectRoute(server, routes.partnerInvite, { token: inv.token });
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({ code: "BUSY" });
    } finally {
      api.override("savePreparedInlineMessage", null);
    }
  });
});
