/**
 * The chat outbox at the edges: a wall-clock step back (an NTP step, a restored snapshot, the
 * development clock reset) does not stop delivery, because the pace runs on a monotonic clock; a
 * message longer than Telegram's 4,096 characters is cut, with its HTML intact, not given up; the
 * operator API refuses a news title too long for a headline.
 */
import { randomUUID } from "node:crypto";
import { eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "../../server/src/clock";
import { chatOutbox, users } from "../../server/src/db/schema";
import { notify } from "../../server/src/services/notifications";
import { ChatsInFlight, deliverDue, fitMessage, MESSAGE_MAX_CHARS, Pacer } from "../../server/src/telegram/outbox";
import { type BotApiStandIn, parsedText, startBotApiStandIn } from "../e2e/support/bot-api";
import { createTestServer, TEST_OPERATOR_TOKEN, type TestServer } from "./helpers";

const silent = { info: () => {}, warn: () => {}, error: () => {} };
const DAY = 86_400_000;

/** Whether `html` is well formed as Telegram reads it: only <b>…</b>, closed in order, entities whole. */
function wellFormed(html: string): boolean {
  const stack: string[] = [];
  for (const m of html.matchAll(/<(\/?)(\w+)>|&(\w*);?|[<>]/g)) {
    if (m[0] === "<" || m[0] === ">") return false;
    if (m[0].startsWith("&")) {
      if (!/^&(amp|lt|gt|quot);$/.test(m[0])) return false;
      continue;
    }
    if (m[1]) {
      if (stack.pop() !== m[2]) return false;
    } else stack.push(m[2] ?? "");
  }
  return stack.length === 0;
}

describe("chat outbox limits", () => {
  let api: BotApiStandIn;
  let server: TestServer;
  const clock = fixedClock("2026-03-02T09:00:00Z");
  let next = 772_000_000;

  const chatUser = async () => {
    const telegramId = next++;
    const [row] = await server.handle.db
      .insert(users)
      .values({
        login: `lim${randomUUID().slice(0, 8)}`,
        fullName: "L",
        language: "en",
        telegramId,
        createdAt: clock.now(),
      })
      .returning({ id: users.id });
    if (!row) throw new Error("no user");
    return { id: row.id, telegramId };
  };
  const pass = (pacer: Pacer, inFlight: ChatsInFlight) =>
    deliverDue({
      db: server.handle.db,
      clock,
      sender: server.app.bot?.bot.api ?? (undefined as never),
      miniAppUrl: "https://kassa.example/",
      log: silent,
      pacer,
      inFlight,
    });

  beforeAll(async () => {
    api = await startBotApiStandIn();
    server = await createTestServer({
      env: { TELEGRAM_API_ROOT: api.url, PUBLIC_URL: "https://kassa.example" },
      clock,
      seed: false,
    });
  });
  afterAll(async () => {
    await server?.close();
    await api?.close();
  });

  it("a wall-clock step back does not stop delivery", async () => {
    const pacer = new Pacer();
    const inFlight = new ChatsInFlight();
    const busy = await chatUser();
    const others = await Promise.all(Array.from({ length: 10 }, () => chatUser()));
    const credit = (userId: string, amount: string) =>
      notify(server.handle.db, userId, "refill_credited", { amount, currency: "USDT" }, clock.now());
    // The clock a day ahead (the development clock advanced), a message goes; then the clock is back.
    clock.set(new Date(Date.parse("2026-03-02T09:00:00Z") + DAY));
    await credit(busy.id, "1");
    expect(await pass(pacer, inFlight)).toBe(1);
    clock.set("2026-03-02T09:00:00Z");
    for (const amount of ["2", "3", "4", "5", "6"]) await credit(busy.id, amount);
    for (const [i, other] of others.entries()) await credit(other.id, String(100 + i));
    const waiting = async () =>
      (await server.handle.db.select().from(chatOutbox)).filter((r) => r.sentAt === null && r.failedAt === null).length;
    const deadline = Date.now() + 200_000;
    while ((await waiting()) > 0 && Date.now() < deadline) {
      await pass(pacer, inFlight);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(await waiting()).toBe(0);
    const amounts = api
      .callsOf("sendMessage")
      .filter((c) => c.params.chat_id === busy.telegramId)
      .map((c) => /(\d+)[.,]00 USDT/.exec(String(c.params.text))?.[1]);
    expect(amounts).toEqual(["1", "2", "3", "4", "5", "6"]);
  }, 240_000);

  it("cuts a message to 4,096 characters without breaking its HTML", async () => {
    const title = `Fish & <Chips> ${"é&<".repeat(1500)}`;
    const body = `Body & more ${"x".repeat(5000)}`;
    const fitted = fitMessage(title, body);
    expect(fitted.length).toBeLessThanOrEqual(MESSAGE_MAX_CHARS);
    expect(wellFormed(fitted)).toBe(true);
    expect(fitted).toMatch(/^<b>Fish &amp; &lt;Chips&gt; .*…<\/b>\n/s);
    // A short message is left as it was.
    expect(fitMessage("A & B", "C < D")).toBe("<b>A &amp; B</b>\nC &lt; D");
    // The 4,413-character title of a news item queued before titles were limited: delivered, cut.
    const chat = await chatUser();
    const long = `Big news & more: ${"a".repeat(4396)}`;
    expect(long.length).toBe(4413);
    await server.handle.db.insert(chatOutbox).values({
      userId: chat.id,
      kind: "news",
      params: { title_en: long, excerpt_en: "Read on <here> & there" },
      startParam: null,
      createdAt: clock.now(),
      nextAttemptAt: clock.now(),
    });
    expect(await pass(new Pacer(), new ChatsInFlight())).toBe(1);
    const [sent] = api.callsOf("sendMessage").filter((c) => c.params.chat_id === chat.telegramId);
    expect(sent?.status).toBe(200);
    expect(parsedText(sent?.params ?? {}).length).toBeLessThanOrEqual(4096);
    expect(wellFormed(String(sent?.params.text))).toBe(true);
    const [row] = await server.handle.db.select().from(chatOutbox).where(eq(chatOutbox.userId, chat.id));
    expect(row?.sentAt).not.toBeNull();
  });

  it("keeps the account's notices while the bot is blocked and sends them when the investor is back", async () => {
    const chat = await chatUser();
    const db = server.handle.db;
    // Only this test's messages wait.
    await db.update(chatOutbox).set({ failedAt: clock.now() }).where(isNull(chatOutbox.sentAt));
    await db.update(users).set({ botBlockedAt: clock.now() }).where(eq(users.id, chat.id));
    await notify(db, chat.id, "refill_credited", { amount: "3", currency: "USDT" }, clock.now());
    await notify(
      db,
      chat.id,
      "wallet_changed",
      { systems: "USDT (TRC20)", date: "2 March 2026", time: "09:00" },
      clock.now(),
    );
    expect(await pass(new Pacer(), new ChatsInFlight())).toBe(0);
    const rows = async () => db.select().from(chatOutbox).where(eq(chatOutbox.userId, chat.id)).orderBy(chatOutbox.seq);
    expect((await rows()).map((r) => [r.kind, r.failedAt === null])).toEqual([
      ["refill_credited", false],
      ["wallet_changed", true],
    ]);
    // Held notices are not a backlog of the outbox.
    const ready = await server.app.inject({ method: "GET", url: "/api/health/ready" });
    expect((ready.json() as { chatOutbox: { waiting: number } }).chatOutbox.waiting).toBe(0);
    // The investor writes to the bot again (any sign of life unblocks): the notice goes.
    await db.update(users).set({ botBlockedAt: null }).where(eq(users.id, chat.id));
    expect(await pass(new Pacer(), new ChatsInFlight())).toBe(1);
    expect((await rows())[1]?.sentAt).not.toBeNull();
    expect(api.callsOf("sendMessage").filter((c) => c.params.chat_id === chat.telegramId)).toHaveLength(1);
  });

  it("a 403 while sending an account notice marks the chat and keeps the notice for when the investor is back", async () => {
    const chat = await chatUser();
    const db = server.handle.db;
    await db.update(chatOutbox).set({ failedAt: clock.now() }).where(isNull(chatOutbox.sentAt));
    await notify(db, chat.id, "withdrawal_status", { amount: "10", currency: "USDT", status: "success" }, clock.now());
    api.override("sendMessage", (params) =>
      params.chat_id === chat.telegramId
        ? { status: 403, body: { ok: false, error_code: 403, description: "Forbidden: bot was blocked by the user" } }
        : undefined,
    );
    expect(await pass(new Pacer(), new ChatsInFlight())).toBe(0);
    api.override("sendMessage", null);
    const [user] = await db.select().from(users).where(eq(users.id, chat.id));
    expect(user?.botBlockedAt).not.toBeNull();
    const rows = () => db.select().from(chatOutbox).where(eq(chatOutbox.userId, chat.id));
    expect((await rows()).map((r) => [r.kind, r.failedAt, r.sentAt])).toEqual([["withdrawal_status", null, null]]);
    // Any sign of life unblocks: the kept notice goes on the next pass.
    await db.update(users).set({ botBlockedAt: null }).where(eq(users.id, chat.id));
    await db.update(chatOutbox).set({ nextAttemptAt: clock.now() }).where(eq(chatOutbox.userId, chat.id));
    expect(await pass(new Pacer(), new ChatsInFlight())).toBe(1);
    expect((await rows())[0]?.sentAt).not.toBeNull();
  });

  it("the operator API refuses a news title longer than a headline, in any language", async () => {
    const res = await server.app.inject({
      method: "POST",
      url: "/api/operator/news",
      headers: { authorization: `Bearer ${TEST_OPERATOR_TOKEN}` },
      payload: { title: { en: "Short", de: "T".repeat(4413) }, body: { en: "<p>Body</p>" } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "VALIDATION_FAILED", fields: { "title.de": "textTooLong" } });
  });
});
