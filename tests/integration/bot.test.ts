/**
 * The chat bot against a stand-in of the Bot API (a local HTTP server recording every call): its
 * commands, names, descriptions and menu button in the four languages; the webhook refusing a forged
 * call and handling each update once; `/start ref_<login>` and `/balance`; chat notifications through
 * the outbox (one message with the right web_app button, 429 retry_after honoured, a blocked bot
 * marked and not retried, the user's switch); one lease holder at a time.
 */
import { LANGUAGES } from "@contract";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { systemClock } from "../../server/src/clock";
import { tryLease } from "../../server/src/db/leader";
import { chatOutbox, users } from "../../server/src/db/schema";
import { confirmRefill, createRefill } from "../../server/src/services/refills";
import { SECRET_HEADER } from "../../server/src/telegram/bot";
import { deliverDue } from "../../server/src/telegram/outbox";
import { type BotApiStandIn, textUpdate } from "../e2e/support/bot-api";
import { botOf, serverWithBotApi } from "./bot-server";
import { callRoute, type TestServer } from "./helpers";
import type { Investor } from "./money";

const PUBLIC_URL = "https://kassa.example";
const silent = { info: () => {}, warn: () => {}, error: () => {} };

describe("chat bot", () => {
  let api: BotApiStandIn, server: TestServer, investor: Investor;
  const telegramId = 555_000_111;

  const bot = () => botOf(server);
  const webhook = (update: Record<string, unknown>, secret: string | null = bot().secret) =>
    server.app.inject({
      method: "POST",
      url: "/api/telegram/webhook",
      headers: secret === null ? {} : { [SECRET_HEADER]: secret },
      payload: update,
    });
  const deliver = () =>
    deliverDue({
      db: server.handle.db,
      clock: systemClock,
      sender: bot().bot.api,
      miniAppUrl: server.env.MINI_APP_URL,
      log: silent,
    });
  const refillCredited = async () => {
    const deps = { db: server.handle.db, clock: systemClock };
    const refill = await createRefill(deps, investor.id, { paymentSystemId: "usdt-trc20", amount: "25" });
    await confirmRefill(deps, refill.id);
    return refill.id;
  };

  serverWithBotApi((made) => ({ api, server, investor } = made), { env: { PUBLIC_URL }, telegramId });

  it("sets commands, name and descriptions in the four languages (Russian as the default) and the menu button", async () => {
    await bot().configure();
    const commands = api.callsOf("setMyCommands");
    expect(commands.map((c) => c.params.language_code ?? "default").sort()).toEqual(["default", ...LANGUAGES].sort());
    const byLanguage = Object.fromEntries(commands.map((c) => [c.params.language_code ?? "default", c.params]));
    const names = (p: Record<string, unknown>) => (p.commands as { command: string }[]).map((c) => c.command);
    expect(names(byLanguage.en ?? {})).toEqual([
      "start",
      "cabinet",
      "balance",
      "invite",
      "settings",
      "language",
      "support",
      "help",
    ]);
    expect((byLanguage.de?.commands as { description: string }[] | undefined)?.[2]?.description).toBe(
      "Guthaben anzeigen",
    );
    expect(byLanguage.default?.commands).toEqual(byLanguage.ru?.commands);
    for (const method of ["setMyName", "setMyDescription", "setMyShortDescription"]) {
      expect(
        api
          .callsOf(method)
          .map((c) => c.params.language_code ?? "default")
          .sort(),
        method,
      ).toEqual(["default", ...LANGUAGES].sort());
    }
    expect(api.callsOf("setMyShortDescription").find((c) => c.params.language_code === "kk")?.params).toMatchObject({
      short_description: expect.stringContaining("Telegram"),
    });
    const [menu] = api.callsOf("setChatMenuButton");
    expect(menu?.params).toEqual({
      menu_button: { type: "web_app", text: "Кабинет", web_app: { url: `${PUBLIC_URL}/` } },
    });
  });

  it("refuses a forged webhook call (no or wrong secret) and handles nothing", async () => {
    const update = { update_id: 1, ...textUpdate({ id: 42, first_name: "Eve" }, "/start") };
    const none = await webhook(update, null);
    const wrong = await webhook(update, `${bot().secret.slice(0, -1)}x`);
    expect(none.statusCode).toBe(404);
    expect(wrong.statusCode).toBe(404);
    expect(api.callsOf("sendMessage")).toHaveLength(0);
  });

  it("/start ref_demo answers in the user's language with a web_app button carrying the inviter, once per update_id", async () => {
    const update = {
      update_id: 2,
      ...textUpdate({ id: 4242, first_name: "Aliya", language_code: "en" }, "/start ref_demo"),
    };
    expect((await webhook(update)).statusCode).toBe(200);
    expect((await webhook(update)).statusCode).toBe(200);
    const sent = api.callsOf("sendMessage");
    expect(sent).toHaveLength(1);
    expect(sent[0]?.params).toMatchObject({
      chat_id: 4242,
      text: expect.stringContaining("demo invited you"),
      reply_markup: { inline_keyboard: [[{ text: "Sign up", web_app: { url: `${PUBLIC_URL}/?startapp=ref_demo` } }]] },
    });
    // This chat's menu button in the user's language.
    expect(api.callsOf("setChatMenuButton")[0]?.params).toMatchObject({
      chat_id: 4242,
      menu_button: { text: "Cabinet" },
    });
  });

  it("a failing handler does not stop the bot: the next update is handled", async () => {
    api.override("sendMessage", () => ({ status: 500, body: { ok: false, error_code: 500, description: "boom" } }));
    expect((await webhook({ update_id: 3, ...textUpdate({ id: 77, first_name: "A" }, "/help") })).statusCode).toBe(200);
    api.override("sendMessage", null);
    await webhook({ update_id: 4, ...textUpdate({ id: 77, first_name: "A", language_code: "de" }, "/help") });
    expect(api.callsOf("sendMessage").at(-1)?.params.text).toContain("/balance zeigt Ihr Guthaben");
  });

  it("/balance answers from the ledger for a linked account and offers the Mini App to anyone else", async () => {
    await webhook({ update_id: 5, ...textUpdate({ id: 99_999, first_name: "B", language_code: "ru" }, "/balance") });
    expect(api.callsOf("sendMessage").at(-1)?.params.text).toBe(
      "Войдите в кабинет через Telegram, и баланс будет виден здесь.",
    );
    await refillCredited();
    await webhook({
      update_id: 6,
      ...textUpdate({ id: telegramId, first_name: "Inv", language_code: "ru" }, "/balance"),
    });
    // The account's language (en), not the client's.
    expect(api.callsOf("sendMessage").at(-1)?.params.text).toMatch(/^Your balance:\n25\.00 USDT$/);
  });

  it("a credited refill goes to the chat once, with a web_app button to that refill", async () => {
    await server.handle.db.update(chatOutbox).set({ failedAt: new Date() });
    const refillId = await refillCredited();
    expect(await deliver()).toBe(1);
    expect(await deliver()).toBe(0);
    const sent = api.callsOf("sendMessage");
    expect(sent).toHaveLength(1);
    expect(sent[0]?.params).toMatchObject({
      chat_id: telegramId,
      parse_mode: "HTML",
      text: "<b>Refill credited</b>\n25.00 USDT has been credited to your balance.",
      reply_markup: {
        inline_keyboard: [
          [{ text: "View the refill", web_app: { url: `${PUBLIC_URL}/?startapp=refill_${refillId}` } }],
        ],
      },
    });
    // The in-app notification says the same, from the same locale file.
    const list = await callRoute(server, "notifications", { token: investor.token });
    expect((list.items as unknown[])[0]).toMatchObject({
      title: "Refill credited",
      body: "25.00 USDT has been credited to your balance.",
    });
  });

  it("honours 429 retry_after before sending again", async () => {
    let refused = 0;
    api.override("sendMessage", () =>
      refused++ === 0
        ? {
            status: 429,
            body: { ok: false, error_code: 429, description: "Too Many Requests", parameters: { retry_after: 2 } },
          }
        : undefined,
    );
    await refillCredited();
    expect(await deliver()).toBe(1);
    const [first, second] = api.callsOf("sendMessage");
    expect(first?.status).toBe(429);
    expect(second?.status).toBe(200);
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(2000);
  });

  it("a user who blocked the bot (403) is marked and not retried", async () => {
    api.override("sendMessage", () => ({
      status: 403,
      body: { ok: false, error_code: 403, description: "Forbidden: bot was blocked by the user" },
    }));
    await refillCredited();
    expect(await deliver()).toBe(0);
    const [user] = await server.handle.db.select().from(users).where(eq(users.id, investor.id));
    expect(user?.botBlockedAt).not.toBeNull();
    api.override("sendMessage", null);
    await refillCredited();
    await server.handle.db.update(chatOutbox).set({ nextAttemptAt: new Date(0) });
    expect(await deliver()).toBe(0);
    expect(api.callsOf("sendMessage")).toHaveLength(1);
    // Unblocking (my_chat_member "member") lets new notifications through.
    await webhook({
      update_id: 7,
      my_chat_member: {
        chat: { id: telegramId, type: "private", first_name: "Inv" },
        from: { id: telegramId, is_bot: false, first_name: "Inv" },
        date: Math.floor(Date.now() / 1000),
        old_chat_member: { status: "kicked", user: { id: 1, is_bot: true, first_name: "Kassa" }, until_date: 0 },
        new_chat_member: { status: "member", user: { id: 1, is_bot: true, first_name: "Kassa" } },
      },
    });
    await refillCredited();
    expect(await deliver()).toBe(1);
  });

  it("chat notifications switched off (PATCH /user/settings/security) queue nothing", async () => {
    await callRoute(server, "updateSecuritySettings", { token: investor.token, body: { chatNotifications: false } });
    const before = await server.handle.db.select().from(chatOutbox).where(eq(chatOutbox.userId, investor.id));
    await refillCredited();
    const after = await server.handle.db.select().from(chatOutbox).where(eq(chatOutbox.userId, investor.id));
    expect(after.length).toBe(before.length);
    await callRoute(server, "updateSecuritySettings", {
      token: investor.token,
      body: { chatNotifications: true },
    });
  });

  it("one lease holder at a time; an expired lease is taken over", async () => {
    const db = server.handle.db;
    const now = new Date();
    expect(await tryLease(db, "test-lease", "a", 30_000, now)).toBe(true);
    expect(await tryLease(db, "test-lease", "b", 30_000, now)).toBe(false);
    expect(await tryLease(db, "test-lease", "a", 30_000, new Date(now.getTime() + 10_000))).toBe(true);
    expect(await tryLease(db, "test-lease", "b", 30_000, new Date(now.getTime() + 41_000))).toBe(true);
    expect(await tryLease(db, "test-lease", "a", 30_000, new Date(now.getTime() + 42_000))).toBe(false);
  });
});
