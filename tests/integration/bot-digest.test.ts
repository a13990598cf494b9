/**
 * The daily accruals message through the real accrual run, day after day on a test clock: two
 * deposits running (their accruals held), one of them ending (paid out) midway; each day's message
 * says that day's accruals and the total so far, from the accruals themselves.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "../../server/src/clock";
import { botChats, chatOutbox, users } from "../../server/src/db/schema";
import { runAccruals } from "../../server/src/services/accruals";
import { queueDigests } from "../../server/src/services/broadcasts";
import { openDeposit } from "../../server/src/services/deposits";
import { createTestServer, type TestServer } from "./helpers";
import { addPlan, fund, newInvestor } from "./money";

const DAY = 86_400_000;

describe("daily accruals message", () => {
  let server: TestServer;
  const clock = fixedClock("2026-03-02T09:00:00Z");

  beforeAll(async () => {
    server = await createTestServer({ clock });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("reports running deposits' held accruals and an ending deposit's last day, day after day", async () => {
    const db = server.handle.db;
    const deps = { db, clock };
    await addPlan(db, {
      id: "digest3",
      currency: "USDT",
      dailyYieldPercent: "2",
      durationDays: 3,
      minAmount: "10",
      maxAmount: "10000",
    });
    await addPlan(db, {
      id: "digest10",
      currency: "USDT",
      dailyYieldPercent: "1",
      durationDays: 10,
      minAmount: "10",
      maxAmount: "10000",
    });
    const investor = await newInvestor(db, clock);
    const telegramId = 771_000_001;
    await db.update(users).set({ telegramId }).where(eq(users.id, investor.id));
    await db
      .insert(botChats)
      .values({ chatId: telegramId, digest: true, digestDay: "2026-03-02", updatedAt: clock.now() });
    await fund(db, clock, investor.id, "USDT", "1000");
    // 2.00 a day for three days; 5.00 a day for ten days.
    await openDeposit(deps, investor.id, { planId: "digest3", currency: "USDT", amount: "100", autoInvest: false });
    await openDeposit(deps, investor.id, { planId: "digest10", currency: "USDT", amount: "500", autoInvest: false });

    const messages: string[] = [];
    for (let day = 1; day <= 5; day++) {
      // The accrual run a minute after the day was due (09:00), then the digest after midnight (UTC).
      clock.set(new Date(Date.parse("2026-03-02T09:01:00Z") + day * DAY));
      await runAccruals(db, clock);
      clock.set(new Date(Date.parse("2026-03-03T00:05:00Z") + day * DAY));
      expect(await queueDigests(db, clock.now()), `day ${day}`).toBe(1);
      const [row] = await db
        .select()
        .from(chatOutbox)
        .where(eq(chatOutbox.userId, investor.id))
        .orderBy(chatOutbox.seq)
        .then((rows) => rows.filter((r) => r.kind === "accruals_digest").slice(-1));
      messages.push(`${row?.params.day_en}: ${row?.params.lines_en}`);
    }
    expect(messages).toEqual([
      "3 March: +7.00 USDT (7.00 USDT in total)",
      "4 March: +7.00 USDT (14.00 USDT in total)",
      // The three-day deposit's last day: accrued and paid out the same day, counted once.
      "5 March: +7.00 USDT (21.00 USDT in total)",
      "6 March: +5.00 USDT (26.00 USDT in total)",
      "7 March: +5.00 USDT (31.00 USDT in total)",
    ]);
  });
});
