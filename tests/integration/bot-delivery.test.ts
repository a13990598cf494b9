/**
 * Delivery of the chat outbox against the Bot API stand-in, on the server's clock (a test clock, so
 * hours pass in seconds): an outage of three hours loses nothing and keeps each chat's order; a
 * burst of 500 notifications is paced per chat and overall (the figures are printed); the backlog
 * shows in readiness.
 */
import { randomUUID } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { Api } from "grammy";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fixedClock } from "../../server/src/clock";
import { chatOutbox, users } from "../../server/src/db/schema";
import { notify } from "../../server/src/services/notifications";
import { type ChatSender, deliverDue, OUTBOX_GIVE_UP_MS, Pacer } from "../../server/src/telegram/outbox";
import { type BotApiStandIn, peakPerSecond, startBotApiStandIn } from "../e2e/support/bot-api";
import { kassa } from "./cli";
import { createTestServer, TEST_OPERATOR_TOKEN, type TestServer } from "./helpers";

const PUBLIC_URL = "https://kassa.example";
const silent = { info: () => {}, warn: () => {}, error: () => {} };
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

describe("chat outbox delivery", () => {
  let api: BotApiStandIn;
  let server: TestServer;
  const clock = fixedClock("2026-03-02T09:00:00Z");
  let nextTelegramId = 880_000_000;

  /** A user linked to Telegram (chat notifications on); returns its id and chat id. */
  const chatUser = async () => {
    const telegramId = nextTelegramId++;
    const [row] = await server.handle.db
      .insert(users)
      .values({
        login: `chat${randomUUID().slice(0, 8)}`,
        fullName: "Chat Test",
        language: "en",
        telegramId,
        createdAt: clock.now(),
      })
      .returning({ id: users.id });
    if (!row) throw new Error("user not created");
    return { id: row.id, telegramId };
  };
  const credited = (userId: string, amount: string) =>
    notify(server.handle.db, userId, "refill_credited", { amount, currency: "USDT" }, clock.now());

  /** Sends through the stand-in (no retries of its own) and notes each message at the server's time. */
  const sent: { chatId: number; text: string; at: number; ok: boolean }[] = [];
  let rawApi: Api;
  const sender: ChatSender = {
    async sendMessage(chatId, text, other) {
      const note = { chatId, text, at: clock.now().getTime(), ok: false };
      sent.push(note);
      const result = await rawApi.sendMessage(chatId, text, other);
      note.ok = true;
      return result;
    },
  };
  const pass = (pacer: Pacer) =>
    deliverDue({
      db: server.handle.db,
      clock,
      sender,
      miniAppUrl: PUBLIC_URL,
      log: silent,
      pacer,
      // The pass waits, and paces, on the test's clock.
      sleep: async (ms) => clock.advance(ms),
      monotonic: () => clock.now().getTime(),
    });
  /** The server's address for the operator CLI (it listens once, for every test that needs it). */
  let address: Promise<string> | undefined;
  const listening = () => {
    address ??= server.app.listen({ host: "127.0.0.1", port: 0 });
    return address;
  };
  /** Messages neither sent nor given up, counted by the database (the table holds every test's rows). */
  const waitingCount = async () =>
    await server.handle.db.$count(chatOutbox, and(isNull(chatOutbox.sentAt), isNull(chatOutbox.failedAt)));

  beforeAll(async () => {
    api = await startBotApiStandIn();
    server = await createTestServer({ env: { TELEGRAM_API_ROOT: api.url, PUBLIC_URL }, clock, seed: false });
    rawApi = new Api("123:TEST", { apiRoot: api.url });
  });
  afterAll(async () => {
    await server?.close();
    await api?.close();
  });
  beforeEach(async () => {
    sent.length = 0;
    api.calls.length = 0;
    api.override("sendMessage", null);
    await server.handle.db.update(chatOutbox).set({ failedAt: clock.now() });
  });

  it("an outage of three hours loses nothing, and each chat gets its messages in the order they were queued", async () => {
    const pacer = new Pacer();
    const chats = await Promise.all([chatUser(), chatUser(), chatUser()]);
    const queued = new Map<number, string[]>(chats.map((c) => [c.telegramId, []]));
    const queue = async (chat: { id: string; telegramId: number }, amount: string) => {
      await credited(chat.id, amount);
      queued.get(chat.telegramId)?.push(amount);
    };
    // Telegram answers 500 to everything for three hours.
    api.override("sendMessage", () => ({
      status: 500,
      body: { ok: false, error_code: 500, description: "Internal Server Error" },
    }));
    const outageEnds = clock.now().getTime() + 3 * HOUR;
    let step = 0;
    while (clock.now().getTime() < outageEnds) {
      // Events keep coming during the outage: each chat gets three credits an hour, 31, 32, 33, …
      if (step % 40 === 0) for (const chat of chats) await queue(chat, String(31 + step / 40));
      await pass(pacer);
      clock.advance(30 * SECOND);
      step++;
    }
    expect(sent.filter((s) => s.ok)).toHaveLength(0);
    expect(sent.length).toBeGreaterThan(12);
    api.override("sendMessage", null);
    // Telegram is back: the outbox drains within the capped back-off.
    for (let i = 0; i < 20 * 60 && (await waitingCount()) > 0; i++) {
      await pass(pacer);
      clock.advance(SECOND);
    }
    for (const chat of chats) {
      const delivered = sent
        .filter((s) => s.ok && s.chatId === chat.telegramId)
        .map((s) => /(\d+)[.,]00 USDT/.exec(s.text)?.[1]);
      expect(delivered, `chat ${chat.telegramId}`).toEqual(queued.get(chat.telegramId));
    }
    const given = await server.handle.db.select().from(chatOutbox);
    expect(given.filter((r) => chats.some((c) => c.id === r.userId) && r.failedAt !== null)).toHaveLength(0);
    console.log(
      `outage of 3 h (test clock): ${sent.length} sends tried, ${sent.filter((s) => s.ok).length} delivered, ` +
        `${[...queued.values()].flat().length} queued, order kept in ${chats.length} chats`,
    );
  }, 120_000);

  it(`gives a message up only ${OUTBOX_GIVE_UP_MS / HOUR} hours after it was queued`, async () => {
    const chat = await chatUser();
    await credited(chat.id, "7");
    api.override("sendMessage", () => ({
      status: 502,
      body: { ok: false, error_code: 502, description: "Bad Gateway" },
    }));
    const pacer = new Pacer();
    const end = clock.now().getTime() + OUTBOX_GIVE_UP_MS + 10 * MINUTE;
    let givenUpAfter: number | null = null;
    const queuedAt = clock.now().getTime();
    while (clock.now().getTime() < end && givenUpAfter === null) {
      await pass(pacer);
      const [row] = await server.handle.db.select().from(chatOutbox).where(eq(chatOutbox.userId, chat.id));
      if (row?.failedAt) givenUpAfter = row.failedAt.getTime() - queuedAt;
      // An hour a pass while the limit is far off (each pass tries the message again), five minutes around it.
      const left = queuedAt + OUTBOX_GIVE_UP_MS - clock.now().getTime();
      clock.advance(left > 2 * HOUR ? HOUR : 5 * MINUTE);
    }
    expect(givenUpAfter).not.toBeNull();
    expect(givenUpAfter ?? 0).toBeGreaterThanOrEqual(OUTBOX_GIVE_UP_MS);
    expect(givenUpAfter ?? 0).toBeLessThan(OUTBOX_GIVE_UP_MS + 10 * MINUTE);
  }, 120_000);

  it("paces a burst of 500: about one a second per chat after a short burst, below 30 a second overall", async () => {
    const pacer = new Pacer();
    const crowd = await Promise.all(Array.from({ length: 240 }, () => chatUser()));
    const busy = await chatUser();
    for (const [i, chat] of crowd.entries()) {
      await credited(chat.id, String(i));
      await credited(chat.id, String(i + 1000));
    }
    for (let i = 0; i < 20; i++) await credited(busy.id, String(i + 1));
    const started = clock.now().getTime();
    for (let i = 0; i < 600 && (await waitingCount()) > 0; i++) {
      await pass(pacer);
      // The bot starts a pass every second.
      clock.advance(SECOND);
    }
    expect(sent.filter((s) => s.ok)).toHaveLength(500);
    const all = sent.map((s) => s.at);
    const busyTimes = sent.filter((s) => s.chatId === busy.telegramId).map((s) => s.at);
    const seconds = ((all.at(-1) ?? started) - started) / SECOND;
    const crowdIds = new Set(crowd.map((c) => c.telegramId));
    const crowdSeconds = ((sent.filter((s) => crowdIds.has(s.chatId)).at(-1)?.at ?? started) - started) / SECOND;
    const busySeconds = ((busyTimes.at(-1) ?? 0) - (busyTimes[0] ?? 0)) / SECOND;
    const figures = {
      overallPeakPerSecond: peakPerSecond(all),
      /** The 480 messages of the 240 chats with two each. */
      overallMeanPerSecond: Number((480 / crowdSeconds).toFixed(1)),
      busyChatPeakPerSecond: peakPerSecond(busyTimes),
      busyChatMeanPerSecond: Number(((busyTimes.length - 1) / busySeconds).toFixed(2)),
      otherChatsPeakPerSecond: Math.max(
        ...crowd.map((c) => peakPerSecond(sent.filter((s) => s.chatId === c.telegramId).map((s) => s.at))),
      ),
      secondsForAll: seconds,
    };
    console.log(`pacing of a burst of 500 (test clock): ${JSON.stringify(figures)}`);
    expect(figures.overallPeakPerSecond).toBeLessThan(30);
    expect(figures.overallMeanPerSecond).toBeGreaterThan(15);
    expect(figures.busyChatPeakPerSecond).toBeLessThanOrEqual(4);
    expect(figures.busyChatMeanPerSecond).toBeLessThanOrEqual(1.2);
    // Each chat's messages in order.
    const busyAmounts = sent
      .filter((s) => s.chatId === busy.telegramId)
      .map((s) => /(\d+)[.,]00 USDT/.exec(s.text)?.[1]);
    expect(busyAmounts).toEqual(Array.from({ length: 20 }, (_, i) => String(i + 1)));
  }, 120_000);

  it("a 429 pauses every chat for its retry_after, then the refused message goes first", async () => {
    const pacer = new Pacer();
    const [first, second] = [await chatUser(), await chatUser()];
    await credited(first.id, "51");
    await credited(second.id, "52");
    let refused = 0;
    api.override("sendMessage", () =>
      refused++ === 0
        ? {
            status: 429,
            body: { ok: false, error_code: 429, description: "Too Many Requests", parameters: { retry_after: 3 } },
          }
        : undefined,
    );
    const refusedAt = clock.now().getTime();
    for (let i = 0; i < 10 && (await waitingCount()) > 0; i++) {
      await pass(pacer);
      clock.advance(SECOND);
    }
    const delivered = sent.filter((s) => s.ok);
    expect(delivered.map((s) => s.chatId)).toEqual([first.telegramId, second.telegramId]);
    for (const s of delivered) expect(s.at - refusedAt).toBeGreaterThanOrEqual(3 * SECOND);
  });

  it("readiness and the operator CLI show the backlog and its oldest age; `kassa outbox retry` sends now", async () => {
    const chat = await chatUser();
    await credited(chat.id, "41");
    await credited(chat.id, "42");
    api.override("sendMessage", () => ({ status: 500, body: { ok: false, error_code: 500, description: "boom" } }));
    await pass(new Pacer());
    clock.advance(10 * MINUTE);
    const ready = await server.app.inject({ method: "GET", url: "/api/health/ready" });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({
      ok: true,
      database: "up",
      chatOutbox: { waiting: 2, oldestWaitingSeconds: 600 },
    });

    const url = await listening();
    const cli = (...args: string[]) => kassa(["--server", url, "--token", TEST_OPERATOR_TOKEN, ...args], {});
    const list = await cli("outbox", "list");
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain("2 chat message(s) waiting, the oldest for 10 min 00 s.");
    expect(list.stdout).toMatch(/refill_credited .* tries 1 .* last error: 500: boom/);
    console.log(`kassa outbox list:\n${list.stdout}`);

    // The head waits out its back-off (5 s, then longer); `retry` makes both due now.
    api.override("sendMessage", null);
    clock.advance(-10 * MINUTE + SECOND);
    expect(await pass(new Pacer())).toBe(0);
    const retry = await cli("outbox", "retry");
    expect(retry.stdout).toContain("2 chat message(s) due now");
    // One chat's messages go a second apart (the pace runs on the monotonic clock): a pass each.
    expect((await pass(new Pacer())) + (await pass(new Pacer()))).toBe(2);
    expect((await cli("outbox", "retry", randomUUID())).code).not.toBe(0);
    const empty = await server.app.inject({ method: "GET", url: "/api/health/ready" });
    expect(empty.json()).toMatchObject({ chatOutbox: { waiting: 0, oldestWaitingSeconds: null } });
  });

  it("`kassa outbox list --given-up` shows given-up messages and `kassa outbox resend` queues one again", async () => {
    const chat = await chatUser();
    await credited(chat.id, "77");
    // Telegram refuses it for good (400): given up at once.
    api.override("sendMessage", () => ({
      status: 400,
      body: { ok: false, error_code: 400, description: "Bad Request: chat not found" },
    }));
    await pass(new Pacer());
    api.override("sendMessage", null);
    const [row] = await server.handle.db.select().from(chatOutbox).where(eq(chatOutbox.userId, chat.id));
    expect(row?.failedAt).not.toBeNull();
    const id = String(row?.id);

    const url = await listening();
    const cli = (...args: string[]) => kassa(["--server", url, "--token", TEST_OPERATOR_TOKEN, ...args], {});
    expect((await cli("outbox", "list")).stdout).not.toContain(id);
    // Other tests' messages are given up too: this one's line is looked for among them.
    const givenUp = await cli("outbox", "list", "--given-up", "--limit", "1000");
    expect(givenUp.code, givenUp.stderr).toBe(0);
    const line = givenUp.stdout.split("\n").find((l) => l.startsWith(id));
    expect(line).toMatch(/ refill_credited .* tries 1 .* given up \S+ .*last error: 400: Bad Request: chat not found$/);

    const resend = await cli("outbox", "resend", id);
    expect(resend.code, resend.stderr).toBe(0);
    expect(resend.stdout).toContain("queued again");
    expect((await cli("outbox", "list")).stdout).toContain(id);
    expect((await cli("outbox", "list", "--given-up", "--limit", "1000")).stdout).not.toContain(id);
    expect(await pass(new Pacer())).toBe(1);
    const delivered = api
      .callsOf("sendMessage")
      .filter((c) => c.params.chat_id === chat.telegramId && c.status === 200);
    expect(delivered).toHaveLength(1);
    // Only a given-up message can be resent: not one already sent, nor one that does not exist.
    expect((await cli("outbox", "resend", id)).code).not.toBe(0);
    expect((await cli("outbox", "resend", randomUUID())).code).not.toBe(0);
  });
});
