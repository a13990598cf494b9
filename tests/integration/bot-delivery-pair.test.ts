/**
 * Two servers with their bots on one PostgreSQL, in real time: one of them holds the bot's lease and
 * is the only one that sends the chat outbox, so the pace holds across the pair; every message goes
 * out once, each chat's in order.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../../server/src/db/schema";
import { notify } from "../../server/src/services/notifications";
import { PACE } from "../../server/src/telegram/outbox";
import { type BotApiStandIn, peakPerSecond, startBotApiStandIn } from "../e2e/support/bot-api";
import { createTestServer, TEST_CODE_SECRET, type TestServer } from "./helpers";
import { freshPostgres, POSTGRES_SKIP_REASON, TEST_DATABASE_URL } from "./money";

describe.skipIf(!TEST_DATABASE_URL)(
  `two bots on one database${TEST_DATABASE_URL ? "" : ` (skipped: ${POSTGRES_SKIP_REASON})`}`,
  () => {
    let database: Awaited<ReturnType<typeof freshPostgres>>;
    let api: BotApiStandIn;
    let a: TestServer;
    let b: TestServer;

    beforeAll(async () => {
      database = await freshPostgres("botpair");
      api = await startBotApiStandIn();
      const env = {
        DATABASE_URL: database.url,
        CODE_SECRET: TEST_CODE_SECRET,
        TELEGRAM_API_ROOT: api.url,
        PUBLIC_URL: "https://kassa.example",
      };
      a = await createTestServer({ env, seed: false });
      b = await createTestServer({ env, seed: false });
    });
    afterAll(async () => {
      await a?.app.bot?.stop();
      await b?.app.bot?.stop();
      await a?.close();
      await b?.close();
      await api?.close();
      await database?.drop();
    });

    it("one deliverer: each message once, in order per chat, one chat paced and the pair below 30 a second", async () => {
      const db = a.handle.db;
      const chats: { id: string; telegramId: number }[] = [];
      for (let i = 0; i < 21; i++) {
        const telegramId = 990_000_000 + i;
        const [row] = await db
          .insert(users)
          .values({
            login: `pair${randomUUID().slice(0, 8)}`,
            fullName: "Pair",
            language: "en",
            telegramId,
            createdAt: new Date(),
          })
          .returning({ id: users.id });
        if (row) chats.push({ id: row.id, telegramId });
      }
      const [busy, ...crowd] = chats;
      if (!busy) throw new Error("no chat");
      for (let i = 1; i <= 8; i++)
        await notify(db, busy.id, "refill_credited", { amount: String(i), currency: "USDT" }, new Date());
      for (const chat of crowd)
        for (const amount of ["1", "2"])
          await notify(db, chat.id, "refill_credited", { amount, currency: "USDT" }, new Date());

      await Promise.all([a.app.bot?.start(), b.app.bot?.start()]);
      const total = 8 + crowd.length * 2;
      const sent = () => api.callsOf("sendMessage").filter((c) => c.status === 200);
      const deadline = Date.now() + 30_000;
      while (sent().length < total && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));

      const all = sent();
      expect(all).toHaveLength(total);
      const amounts = (chatId: number) =>
        all.filter((c) => c.params.chat_id === chatId).map((c) => /(\d+)[.,]00 USDT/.exec(String(c.params.text))?.[1]);
      expect(amounts(busy.telegramId)).toEqual(["1", "2", "3", "4", "5", "6", "7", "8"]);
      for (const chat of crowd) expect(amounts(chat.telegramId)).toEqual(["1", "2"]);
      const busyPeak = peakPerSecond(all.filter((c) => c.params.chat_id === busy.telegramId).map((c) => c.at));
      const pairPeak = peakPerSecond(all.map((c) => c.at));
      console.log(`two bots on one database: ${total} messages, busy chat peak ${busyPeak}/s, pair peak ${pairPeak}/s`);
      expect(busyPeak).toBeLessThanOrEqual(PACE.chat.burst + 1);
      expect(pairPeak).toBeLessThan(30);
    }, 60_000);
  },
);
