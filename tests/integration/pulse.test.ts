/**
 * `GET /user/pulse` (docs/decisions.md#live-money), what the open cabinet polls: its version moves when the operator
 * credits a refill (an operation and a notification) or rejects one (a notification only), not for
 * another user's events and not when notifications are read; `unread` counts. The cost of one poll is
 * measured and printed.
 *
 * Rerun: npx vitest run --project integration tests/integration/pulse.test.ts
 */

import { performance } from "node:perf_hooks";
import { routes } from "@contract";
import { describe, expect, it } from "vitest";
import { systemClock } from "../../server/src/clock";
import { confirmRefill, createRefill, rejectRefill } from "../../server/src/services/refills";
import { callRoute, injectRoute, serverForTests, type TestServer } from "./helpers";
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

  it("is cheap: the time of one poll, measured", async () => {
    const investor = await newInvestor(server.handle.db, clock);
    await fund(server.handle.db, clock, investor.id, "USDT", "100");
    for (let i = 0; i < 20; i++) {
      const refill = await createRefill({ db: server.handle.db, clock }, investor.id, {
        paymentSystemId: PAYMENT_SYSTEM.USDT,
        amount: "1",
      });
      await confirmRefill({ db: server.handle.db, clock }, refill.id);
    }
    const runs = 300;
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      const res = await server.app.inject({
        method: "GET",
        url: "/api/user/pulse",
        headers: { authorization: `Bearer ${investor.token}` },
      });
      times.push(performance.now() - started);
      bytes = res.body.length;
    }
    times.sort((a, b) => a - b);
    const p50 = times[Math.floor(runs * 0.5)] ?? 0;
    const p95 = times[Math.floor(runs * 0.95)] ?? 0;
    console.log(
      `[kassa] GET /user/pulse on ${server.handle.kind}: ${runs} calls, p50 ${p50.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms ` +
        `(session lookup included), reply ${bytes} bytes`,
    );
    expect(p95).toBeLessThan(250);
  });
});
