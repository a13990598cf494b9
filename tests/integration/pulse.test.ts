/**
 * `GET /user/pulse` (docs/decisions.md#live-money), what the open cabinet polls: its version moves when the operator
 * credits a refill (an operation and a notification) or rejects one (a notification only), not for
 * another user's events and not when notifications are read; `unread` counts. A poll is answered from memory: no
 * statement reaches the database until the user's data changes.
 *
 * Rerun: npx vitest run --project integration tests/integration/pulse.test.ts
 */

import { routes } from "@contract";
import { describe, expect, it } from "vitest";
import { systemClock } from "../../server/src/clock";
import { confirmRefill, createRefill, rejectRefill } from "../../server/src/services/refills";
import { callRoute, countStatements, injectRoute, serverForTests, type TestServer } from "./helpers";
import { fund, newInvestor, PAYMENT_SYSTEM } from "./money";

const clock = systemClock;
let server: TestServer;
serverForTests({ clock }, (made) => {
  server = made;
});

async function pulseOf(token: string) {
  const res = await callRoute(server, "pulse", { token });
  return res as { version: string; unread: number };
}

describe("GET /user/pulse", () => {
  it("moves with the user's money and notifications, not with another user's or with reading", async () => {
    const investor = await newInvestor(server.handle.db, clock);
    const other = await newInvestor(server.handle.db, clock);
    const start = await pulseOf(investor.token);
    expect(start.unread).toBe(0);

    await fund(server.handle.db, clock, other.id, "USDT", "10");
    expect(await pulseOf(investor.token)).toEqual(start);

    await fund(server.handle.db, clock, investor.id, "USDT", "75");
    const credited = await pulseOf(investor.token);
    expect(credited.version).not.toBe(start.version);
    expect(credited.unread).toBe(1);

    const refill = await createRefill({ db: server.handle.db, clock }, investor.id, {
      paymentSystemId: PAYMENT_SYSTEM.USDT,
      amount: "5",
    });
    await rejectRefill({ db: server.handle.db, clock }, refill.id);
    const rejected = await pulseOf(investor.token);
    expect(rejected.version).not.toBe(credited.version);
    expect(rejected.unread).toBe(2);

    await callRoute(server, "readNotifications", { token: investor.token, body: {} });
    expect(await pulseOf(investor.token)).toEqual({ version: rejected.version, unread: 0 });
  });

  it("needs a session", async () => {
    const res = await injectRoute(server, routes.pulse);
    expect(res.status).toBe(401);
  });

  it("is cheap: a poll is answered from memory, no statement to the database, until the user's data changes", async () => {
    const investor = await newInvestor(server.handle.db, clock);
    await fund(server.handle.db, clock, investor.id, "USDT", "100");
    for (let i = 0; i < 20; i++) {
      const refill = await createRefill({ db: server.handle.db, clock }, investor.id, {
        paymentSystemId: PAYMENT_SYSTEM.USDT,
        amount: "1",
      });
      await confirmRefill({ db: server.handle.db, clock }, refill.id);
    }
    // The first poll fills the kept session and pulse; the rest are counted.
    await pulseOf(investor.token);
    const statements = countStatements(server.handle);
    const runs = 300;
    let bytes = 0;
    for (let i = 0; i < runs; i++) {
      const res = await server.app.inject({
        method: "GET",
        url: "/api/user/pulse",
        headers: { authorization: `Bearer ${investor.token}` },
      });
      expect(res.statusCode).toBe(200);
      bytes = res.body.length;
    }
    console.log(
      `[kassa] GET /user/pulse on ${server.handle.kind}: ${runs} calls after the first, ${statements()} statements to ` +
        `the database (session lookup included), reply ${bytes} bytes`,
    );
    // Answered from memory (the kept session and pulse, db/change-feed.ts) until something of the user's changes.
    expect(statements()).toBe(0);
  });
});
