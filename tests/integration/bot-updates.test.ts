/**
 * The bot's updates against the Bot API stand-in: the webhook answers Telegram promptly however slow
 * the Bot API is and handles the update from what it stored; a stored update whose handling never
 * ran is handled when the next server is ready, once; seen updates are pruned after a week; a reply
 * lost on one 500 is sent again; a 429 during the set-up at start waits and the set-up goes on.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { telegramUpdates } from "../../server/src/db/schema";
import { SECRET_HEADER } from "../../server/src/telegram/bot";
import { type BotApiStandIn, textUpdate } from "../e2e/support/bot-api";
import { botOf, serverWithBotApi } from "./bot-server";
import { createTestServer, type TestServer } from "./helpers";

const PUBLIC_URL = "https://kassa.example";
const DAY = 86_400_000;

describe("bot updates", () => {
  let api: BotApiStandIn, server: TestServer;
  let nextUpdateId = 700_000;
  const env = () => ({ TELEGRAM_API_ROOT: api.url, PUBLIC_URL });

  const bot = () => botOf(server);
  const webhook = (update: Record<string, unknown>) =>
    server.app.inject({
      method: "POST",
      url: "/api/telegram/webhook",
      headers: { [SECRET_HEADER]: bot().secret },
      payload: update,
    });
  const help = (chatId: number) => ({
    update_id: nextUpdateId++,
    ...textUpdate({ id: chatId, first_name: "Ann", language_code: "en" }, "/help"),
  });
  const to = (chatId: number) => api.callsOf("sendMessage").filter((c) => c.params.chat_id === chatId);

  serverWithBotApi((made) => ({ api, server } = made), { env: { PUBLIC_URL }, seed: false });

  it("answers the webhook while the Bot API hangs, and handles the update from what it stored", async () => {
    api.override("sendMessage", () => "hang");
    const update = help(41);
    // The Bot API never answers here: any answer to the webhook is one that did not wait for it (60 s: a ceiling).
    const answered = await Promise.race([
      webhook(update).then((r) => r.statusCode),
      new Promise<string>((resolve) => setTimeout(() => resolve("no answer in 60 s"), 60_000)),
    ]);
    expect(answered).toBe(200);
    const [row] = await server.handle.db
      .select()
      .from(telegramUpdates)
      .where(eq(telegramUpdates.updateId, update.update_id));
    // Taken by the handler, which still waits for the Bot API.
    expect(row?.handledAt).not.toBeNull();
    expect(to(41)).toHaveLength(1);
    api.dropHung();
  });

  it("a reply lost on one 500 is sent again", async () => {
    let refused = 0;
    api.override("sendMessage", () =>
      refused++ === 0
        ? { status: 500, body: { ok: false, error_code: 500, description: "Internal Server Error" } }
        : undefined,
    );
    expect((await webhook(help(42))).statusCode).toBe(200);
    await api.waitForCall("sendMessage", (c) => c.params.chat_id === 42 && c.status === 200, 30_000);
    expect(to(42).map((c) => c.status)).toEqual([500, 200]);
  });

  it("a stored update whose handling never ran is handled once when the next server is ready; week-old updates are pruned", async () => {
    const db = server.handle.db;
    const now = Date.now();
    const stored = help(43);
    // Stored by the webhook a minute ago; the process died before handling it.
    await db.insert(telegramUpdates).values([
      { updateId: stored.update_id, receivedAt: new Date(now - 60_000), payload: stored },
      { updateId: nextUpdateId++, receivedAt: new Date(now - 8 * DAY), handledAt: new Date(now - 8 * DAY) },
      { updateId: nextUpdateId++, receivedAt: new Date(now - DAY), handledAt: new Date(now - DAY) },
    ]);
    const before = (await db.select().from(telegramUpdates)).length;
    const next = await createTestServer({ env: env(), seed: false, handle: server.handle });
    try {
      await api.waitForCall("sendMessage", (c) => c.params.chat_id === 43, 10_000);
      // Telegram resends it: answered, not handled again.
      expect((await webhook(stored)).statusCode).toBe(200);
      await new Promise((r) => setTimeout(r, 300));
      expect(to(43)).toHaveLength(1);
      const rows = await db.select().from(telegramUpdates);
      expect(rows.find((r) => r.updateId === stored.update_id)?.handledAt).not.toBeNull();
      expect(rows.filter((r) => r.receivedAt.getTime() < now - 7 * DAY)).toHaveLength(0);
      expect(rows.length).toBe(before - 1);
    } finally {
      await next.close();
    }
  });

  it("a 429 during the set-up at start waits retry_after and the set-up goes on to the end", async () => {
    // More refusals than the per-call auto-retry takes: the set-up call itself fails.
    let refused = 0;
    api.override("setMyName", () =>
      refused++ < 4
        ? {
            status: 429,
            body: { ok: false, error_code: 429, description: "Too Many Requests", parameters: { retry_after: 1 } },
          }
        : undefined,
    );
    await bot().start();
    try {
      await api.waitForCall("setChatMenuButton", (c) => c.params.chat_id === undefined, 20_000);
      expect(api.callsOf("setMyShortDescription").filter((c) => c.status === 200)).toHaveLength(5);
    } finally {
      await bot().stop();
    }
  }, 30_000);
});
