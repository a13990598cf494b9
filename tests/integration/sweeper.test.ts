/**
 * The sweeper (docs/decisions.md#the-sweeper): withdrawal applications whose code expired give their funds
 * back without the user cancelling; an application whose code is still live (a fresh one, or one
 * resent) is left alone; the scheduler runs it on its turn. Balance = Σ operations throughout.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { fixedClock } from "../../server/src/clock";
import * as schema from "../../server/src/db/schema";
import { Jobs } from "../../server/src/jobs";
import { addSchedulerJobs, sweep } from "../../server/src/scheduler";
import { callRoute, lastCode, serverForTests, type TestServer } from "./helpers";
import { balanceOf, expectLedgerConsistent, type Investor, withdrawalReadyInvestor } from "./money";

const MINUTE = 60_000;
const clock = fixedClock(new Date());
let server: TestServer;
serverForTests({ clock }, (made) => {
  server = made;
});

const eligible = () => withdrawalReadyInvestor(server, clock);

const apply = async (investor: Investor, amount: string) => {
  const res = await callRoute(server, "requestWithdrawal", {
    token: investor.token,
    body: { paymentSystemId: "usdt-trc20", amount },
  });
  return (res.withdrawal as { id: string }).id;
};
const stateOf = async (id: string) => {
  const [row] = await server.handle.db
    .select({ status: schema.withdrawals.status, note: schema.withdrawals.note })
    .from(schema.withdrawals)
    .where(eq(schema.withdrawals.id, id));
  return row;
};

describe("sweeper", () => {
  it("returns the funds of applications whose code expired, and only those", async () => {
    const investor = await eligible();
    const stale = await apply(investor, "100");
    clock.advance(5 * MINUTE);
    const resent = await apply(investor, "50");
    clock.advance(2 * MINUTE);
    expect((await balanceOf(server, investor)).USDT).toBe("350");

    // Nothing has expired yet.
    expect((await sweep({ db: server.handle.db, clock })).withdrawalsExpired).toBe(0);

    clock.advance(4 * MINUTE); // the first code is 11 minutes old, the second 6
    await callRoute(server, "resendWithdrawalCode", { token: investor.token, params: { id: resent } });
    const run = await sweep({ db: server.handle.db, clock, limiter: server.app.limiter });
    expect(run.withdrawalsExpired).toBe(1);
    expect(await stateOf(stale)).toEqual({ status: "cancelled", note: "code expired" });
    expect((await stateOf(resent))?.status).toBe("awaiting_code");
    expect((await balanceOf(server, investor)).USDT).toBe("450");
    await expectLedgerConsistent(server.handle.db);

    // Its code is refused as expired (it was anyway), the other application is still confirmable.
    const code = await lastCode(server, investor.login, "withdrawal");
    await callRoute(server, "validateWithdrawal", { token: investor.token, body: { withdrawalId: resent, code } });
    // A second sweep finds nothing more.
    expect((await sweep({ db: server.handle.db, clock })).withdrawalsExpired).toBe(0);
  });

  it("runs on the scheduler's turn", async () => {
    const investor = await eligible();
    const id = await apply(investor, "100");
    clock.advance(10 * MINUTE + 1000);
    const jobs = new Jobs(server.handle.db, "pglite", server.app.log);
    addSchedulerJobs(jobs, {
      db: server.handle.db,
      clock,
      intervalSeconds: 3600,
      log: server.app.log,
      limiter: server.app.limiter,
    });
    try {
      jobs.start();
      const sweep = await jobs.runNow("sweeper"); // joins the turn made at start
      expect(sweep).toMatchObject({ ran: true, value: { withdrawalsExpired: 1 } });
      expect(await jobs.runNow("accruals")).toMatchObject({ ran: true });
    } finally {
      await jobs.stop();
    }
    expect((await stateOf(id))?.status).toBe("cancelled");
    expect((await balanceOf(server, investor)).USDT).toBe("500");
    await expectLedgerConsistent(server.handle.db);
  });
});
