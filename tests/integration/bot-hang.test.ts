/**
 * One hung Bot API call against the stand-in (it never answers one chat's `sendMessage`): on long
 * polling, on the webhook and in the chat outbox every other chat is answered while that call still
 * hangs (the figures are printed); a per-call timeout ends the hung call as a network error, and the
 * outbox tries that message again later, once. Also: `TELEGRAM_ENV=test` sends every call to the test
 * environment's path, and a refused `setWebhook` shows in readiness, is logged once, is tried again
 * with a back-off, and leaves the chat outbox running.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { systemClock } from "../../server/src/clock";
import { chatOutbox, users } from "../../server/src/db/schema";
import { TelegramCodeSender } from "../../server/src/delivery/telegram-code-sender";
import { notify } from "../../server/src/services/notifications";
import { type KassaBot, SECRET_HEADER } from "../../server/src/telegram/bot";
import { ChatsInFlight, deliverDue, Pacer } from "../../server/src/telegram/outbox";
import { type BotApiStandIn, callbackUpdate, startBotApiStandIn, textUpdate } from "../e2e/support/bot-api";
import { createTestServer, type TestServer, until } from "./helpers";

const silent = { info: () => {}, warn: () => {}, error: () => {} };
let nextTelegramId = 661_000_000;

const linkedUser = async (server: TestServer) => {
  const telegramId = nextTelegramId++;
  const [row] = await server.handle.db
    .insert(users)
    .values({
      login: `hang${randomUUID().slice(0, 8)}`,
      fullName: "Hang Test",
      language: "en",
      telegramId,
      createdAt: new Date(),
    })
    .returning({ id: users.id });
  if (!row) throw new Error("user not created");
  return { id: row.id, telegramId };
};

describe("one hung Bot API call", () => {
  let api: BotApiStandIn;
  const servers: TestServer[] = [];
  const bots: KassaBot[] = [];
  const HUNG = 661_999_001;

  const serve = async (env: Record<string, string>, botOptions: Parameters<typeof createTestServer>[0] = {}) => {
    const server = await createTestServer({ env: { TELEGRAM_API_ROOT: api.url, ...env }, seed: false, ...botOptions });
    servers.push(server);
    if (server.app.bot) bots.push(server.app.bot);
    return server;
  };
  const bot = (server: TestServer) => {
    if (!server.app.bot) throw new Error("no bot");
    return server.app.bot;
  };
  const hungCall = () => api.calls.find((c) => c.method === "sendMessage" && c.params.chat_id === HUNG);

  beforeAll(async () => {
    api = await startBotApiStandIn();
  });
  afterEach(async () => {
    for (const b of bots.splice(0)) await b.stop();
    api.override("sendMessage", null);
    api.override("setWebhook", null);
    api.dropHung();
    for (const s of servers.splice(0)) await s.close();
    api.calls.length = 0;
  });
  afterAll(async () => {
    await api?.close();
  });

  it("long polling: other chats are answered while one chat's reply hangs, and a button press too", async () => {
    // The call timeout far beyond the test: the others must not wait for it.
    const server = await serve({}, { botOptions: { callTimeoutMs: 300_000 } });
    api.override("sendMessage", (params) => (params.chat_id === HUNG ? "hang" : undefined));
    await bot(server).start();
    await until("the bot's set-up", () => bot(server).health().state === "ready");
    api.pushUpdate(textUpdate({ id: HUNG, first_name: "Hung", language_code: "en" }, "/help"));
    await until("the hung reply is asked for", () => hungCall() !== undefined);
    const hungAt = Date.now();
    api.pushUpdate(textUpdate({ id: 661_999_002, first_name: "Bea", language_code: "en" }, "/help"));
    api.pushUpdate(callbackUpdate({ id: 661_999_003, first_name: "Cid", language_code: "en" }, "opt:language"));
    const other = await api.waitForCall("sendMessage", (c) => c.params.chat_id === 661_999_002, 90_000);
    const pressed = await api.waitForCall(
      "answerCallbackQuery",
      (c) => String(c.params.callback_query_id ?? "") !== "",
      90_000,
    );
    // Answered while the first chat's call still hangs.
    expect(hungCall()?.status).toBe(0);
    console.log(
      `polling, one call hung: another chat answered ${other.at - hungAt} ms after, a button press ${pressed.at - hungAt} ms after`,
    );
  }, 240_000);

  it("webhook: other chats are answered while one chat's reply hangs", async () => {
    const server = await serve({ PUBLIC_URL: "https://kassa.example" }, { botOptions: { callTimeoutMs: 300_000 } });
    await bot(server).init();
    api.override("sendMessage", (params) => (params.chat_id === HUNG ? "hang" : undefined));
    const post = (update: Record<string, unknown>) =>
      server.app.inject({
        method: "POST",
        url: "/api/telegram/webhook",
        headers: { [SECRET_HEADER]: bot(server).secret },
        payload: { update_id: Math.floor(Math.random() * 1e9), ...update },
      });
    expect((await post(textUpdate({ id: HUNG, first_name: "Hung", language_code: "en" }, "/help"))).statusCode).toBe(
      200,
    );
    await until("the hung reply is asked for", () => hungCall() !== undefined);
    const hungAt = Date.now();
    expect(
      (await post(textUpdate({ id: 661_999_004, first_name: "Dee", language_code: "en" }, "/help"))).statusCode,
    ).toBe(200);
    const other = await api.waitForCall("sendMessage", (c) => c.params.chat_id === 661_999_004, 90_000);
    expect(hungCall()?.status).toBe(0);
    console.log(`webhook, one call hung: another chat answered ${other.at - hungAt} ms after`);
  }, 240_000);

  it("chat outbox: the other chats get their messages while one chat's send hangs; that chat is skipped, not sent twice", async () => {
    const server = await serve({ PUBLIC_URL: "https://kassa.example" }, { botOptions: { callTimeoutMs: 300_000 } });
    const hung = await linkedUser(server);
    const others = [await linkedUser(server), await linkedUser(server)];
    api.override("sendMessage", (params) => (params.chat_id === hung.telegramId ? "hang" : undefined));
    const db = server.handle.db;
    const credit = (userId: string, amount: string) =>
      notify(db, userId, "refill_credited", { amount, currency: "USDT" }, new Date());
    await credit(hung.id, "1");
    for (const o of others) await credit(o.id, "2");
    const inFlight = new ChatsInFlight();
    const pacer = new Pacer();
    // As the bot runs its passes: the next may start once one has dispatched its sends.
    const passes: Promise<number>[] = [];
    const pass = async () => {
      let dispatched = false;
      const running = deliverDue({
        db,
        clock: systemClock,
        sender: bot(server).bot.api,
        miniAppUrl: "https://kassa.example/",
        log: silent,
        pacer,
        inFlight,
        onDispatched: () => {
          dispatched = true;
        },
      });
      passes.push(running);
      await until("the pass dispatches its sends", () => dispatched);
    };
    const sentTo = async (userId: string) =>
      (await db.select().from(chatOutbox)).filter((r) => r.userId === userId && r.sentAt !== null).length;
    const started = Date.now();
    await pass();
    const firstPass = Date.now() - started;
    await until(
      "the others' messages",
      async () => (await sentTo(others[0]?.id ?? "")) === 1 && (await sentTo(others[1]?.id ?? "")) === 1,
    );
    // A second message for the others goes in the next passes; the hung chat is left out, not sent again.
    for (const o of others) await credit(o.id, "3");
    await until("the others' second messages", async () => {
      await pass();
      return (await sentTo(others[0]?.id ?? "")) === 2 && (await sentTo(others[1]?.id ?? "")) === 2;
    });
    const toHung = api.callsOf("sendMessage").filter((c) => c.params.chat_id === hung.telegramId);
    expect(toHung).toHaveLength(1);
    expect(toHung[0]?.status).toBe(0);
    expect(inFlight.size).toBe(1);
    console.log(`outbox, one send hung: the pass dispatched after ${firstPass} ms, the other chats' messages sent`);
    // The hung call ends (a lost connection) and its pass records the failed attempt before the database closes.
    api.dropHung();
    await Promise.all(passes);
    const [row] = await db.select().from(chatOutbox).where(eq(chatOutbox.userId, hung.id));
    expect(row?.attempts).toBe(1);
    expect(row?.sentAt).toBeNull();
  }, 240_000);

  it("stopping the bot ends a send under way as a failed attempt, recorded before stop() returns", async () => {
    const server = await serve({ PUBLIC_URL: "https://kassa.example" }, { botOptions: { callTimeoutMs: 300_000 } });
    const user = await linkedUser(server);
    api.override("sendMessage", (params) => (params.chat_id === user.telegramId ? "hang" : undefined));
    await notify(server.handle.db, user.id, "refill_credited", { amount: "5", currency: "USDT" }, new Date());
    await bot(server).start();
    await until("the send is under way", () =>
      api.callsOf("sendMessage").some((c) => c.params.chat_id === user.telegramId),
    );
    await bot(server).stop();
    const [row] = await server.handle.db.select().from(chatOutbox).where(eq(chatOutbox.userId, user.id));
    expect(row?.sentAt).toBeNull();
    expect(row?.attempts).toBe(1);
    expect(row?.lastError).toMatch(/sendMessage/);
    // Due again for the next deliverer (this instance after a restart, or another one).
    expect(row?.failedAt).toBeNull();
  }, 240_000);

  it("a per-call timeout ends the hung call as a network error; the message is tried again later", async () => {
    const server = await serve({ PUBLIC_URL: "https://kassa.example" }, { botOptions: { callTimeoutMs: 300 } });
    const user = await linkedUser(server);
    api.override("sendMessage", (params) => (params.chat_id === user.telegramId ? "hang" : undefined));
    await notify(server.handle.db, user.id, "refill_credited", { amount: "5", currency: "USDT" }, new Date());
    const inFlight = new ChatsInFlight();
    await Promise.race([
      deliverDue({
        db: server.handle.db,
        clock: systemClock,
        sender: bot(server).bot.api,
        miniAppUrl: "https://kassa.example/",
        log: silent,
        pacer: new Pacer(),
        inFlight,
      }),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error("the call was never ended")), 90_000)),
    ]);
    const [row] = await server.handle.db.select().from(chatOutbox).where(eq(chatOutbox.userId, user.id));
    expect(row?.sentAt).toBeNull();
    expect(row?.failedAt).toBeNull();
    expect(row?.attempts).toBe(1);
    expect(row?.lastError).toMatch(/sendMessage/);
    expect(row?.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
  }, 240_000);
});

describe("Telegram's test environment and the bot's set-up", () => {
  let api: BotApiStandIn;
  let server: TestServer | undefined;

  beforeAll(async () => {
    api = await startBotApiStandIn();
  });
  afterEach(async () => {
    await server?.app.bot?.stop();
    await server?.close();
    server = undefined;
    api.override("setWebhook", null);
    api.calls.length = 0;
  });
  afterAll(async () => {
    await api?.close();
  });

  it("TELEGRAM_ENV=test sends every Bot API call (set-up, replies, outbox, codes) to the test path", async () => {
    server = await createTestServer({
      env: { TELEGRAM_API_ROOT: api.url, TELEGRAM_ENV: "test", PUBLIC_URL: "https://kassa.example" },
      seed: false,
    });
    const bot = server.app.bot;
    if (!bot) throw new Error("no bot");
    await bot.start();
    await api.waitForCall("setChatMenuButton", () => true, 90_000);
    await bot.handleUpdate({
      update_id: 5_000_001,
      ...textUpdate({ id: 661_888_001, first_name: "Tess", language_code: "en" }, "/help"),
    } as never);
    const user = await linkedUser(server);
    await notify(server.handle.db, user.id, "refill_credited", { amount: "1", currency: "USDT" }, new Date());
    await until("the outbox's message", () =>
      api.callsOf("sendMessage").some((c) => c.params.chat_id === user.telegramId),
    );
    // The code sender as the server builds it.
    await new TelegramCodeSender({
      botToken: server.env.TELEGRAM_BOT_TOKEN,
      apiBase: server.env.TELEGRAM_API_ROOT,
      environment: server.env.TELEGRAM_ENV,
    }).tell({ telegramId: user.telegramId, text: "code" } as never);
    const methods = new Set(api.calls.map((c) => c.method));
    for (const method of ["getMe", "setWebhook", "setMyCommands", "sendMessage"]) expect(methods).toContain(method);
    expect(api.calls.filter((c) => c.environment !== "test").map((c) => c.path)).toEqual([]);
    expect(api.calls[0]?.path).toMatch(/^\/bot\d+:[\w-]+\/test\/\w+$/);
  }, 240_000);

  it("a refused setWebhook: logged once with what to change, readiness says failing, tried again with a back-off, the outbox still sends", async () => {
    const logged: string[] = [];
    const log = { info: () => {}, warn: () => {}, error: (_: object, msg: string) => void logged.push(msg) };
    server = await createTestServer({
      env: { TELEGRAM_API_ROOT: api.url, PUBLIC_URL: "https://kassa.example:8080" },
      seed: false,
      botOptions: { log, setUpRetryMs: { first: 500, max: 1_000 } },
    });
    api.override("setWebhook", () => ({
      status: 400,
      body: {
        ok: false,
        error_code: 400,
        description: "Bad Request: bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443",
      },
    }));
    const user = await linkedUser(server);
    await notify(server.handle.db, user.id, "refill_credited", { amount: "9", currency: "USDT" }, new Date());
    const bot = server.app.bot;
    if (!bot) throw new Error("no bot");
    await bot.start();
    await until("three tries of setWebhook", () => api.callsOf("setWebhook").length >= 3);
    const ready = await server.app.inject({ method: "GET", url: "/api/health/ready" });
    expect(ready.statusCode).toBe(200);
    const body = ready.json() as { bot: { state: string; problem: string; outbox: string } };
    expect(body.bot).toMatchObject({ state: "failing", outbox: "running" });
    expect(body.bot.problem).toMatch(/setWebhook: 400 .*ports 80, 88, 443 or 8443.*PUBLIC_URL/);
    expect(logged.filter((m) => m.includes("set-up refused"))).toHaveLength(1);
    // Backing off: the tries are further apart each time, and the whole set-up is not repeated.
    const tries = api.callsOf("setWebhook").map((c) => c.at);
    expect((tries[2] ?? 0) - (tries[1] ?? 0)).toBeGreaterThan((tries[1] ?? 0) - (tries[0] ?? 0));
    expect(api.callsOf("setMyCommands")).toHaveLength(0);
    // The chat outbox does not wait for the webhook.
    await until("the outbox's message", () =>
      api.callsOf("sendMessage").some((c) => c.params.chat_id === user.telegramId && c.status === 200),
    );
    // Telegram takes it at last: ready.
    api.override("setWebhook", null);
    await until("ready after the refusal ends", () => bot.health().state === "ready");
    const after = await server.app.inject({ method: "GET", url: "/api/health/ready" });
    expect(after.json()).toMatchObject({ bot: { state: "ready", problem: null } });
  }, 240_000);
});
