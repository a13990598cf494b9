/**
 * Withdrawal codes cannot be guessed (docs/decisions.md#withdrawal-code-guessing). The attack: request an
 * application → wrong codes (5, voiding the code, or 4, keeping it alive) → cancel → a new application,
 * over and over. Wrong codes are counted per user and per client address across applications, so the
 * loop meets 429 after RATE_LIMIT_WITHDRAWAL_CODE_ACCOUNT (10 an hour); the 15th wrong code within a
 * day, whatever ended the applications, locks the user's withdrawals for 24 h (403 WITHDRAWALS_LOCKED)
 * and the user gets a notification. A right code costs nothing of the budget. Figures are printed.
 */
import { routes } from "@contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "../../server/src/clock";
import { DEFAULT_RATE_LIMITS } from "../../server/src/env";
import { WITHDRAWAL_WRONG_CODES_PER_DAY } from "../../server/src/services/withdrawals";
import { callRoute, createTestServer, injectRoute, lastCode, type TestServer } from "./helpers";
import { balanceOf, expectLedgerConsistent, type Investor, withdrawalReadyInvestor } from "./money";

const HOUR = 3600_000;
const clock = fixedClock(new Date());
let server: TestServer;
let ipCounter = 0;
const freshIp = () => `198.51.100.${++ipCounter}`;

beforeAll(async () => {
  server = await createTestServer({ clock });
});
afterAll(async () => {
  await server.close();
});

const eligible = () => withdrawalReadyInvestor(server, clock);

const apply = async (investor: Investor, ip: string) => {
  const res = await injectRoute(server, routes.requestWithdrawal, {
    token: investor.token,
    ip,
    body: { paymentSystemId: "usdt-trc20", amount: "50" },
  });
  return { ...res, id: (res.body.withdrawal as { id?: string } | undefined)?.id ?? "" };
};
const validate = (investor: Investor, withdrawalId: string, code: string, ip: string) =>
  injectRoute(server, routes.validateWithdrawal, { token: investor.token, ip, body: { withdrawalId, code } });
const cancel = (investor: Investor, id: string) =>
  injectRoute(server, routes.cancelWithdrawal, { token: investor.token, params: { id } });
const wrongFor = (code: string, n: number) => {
  const guess = String(n % 1_000_000).padStart(6, "0");
  return guess === code ? String((n + 1) % 1_000_000).padStart(6, "0") : guess;
};

/**
 * The finding's loop: apply, 5 wrong codes, cancel, again, until a reply is neither 400 nor 200.
 * Returns the wrong codes the server answered CODE_MISMATCH to and the reply that stopped it.
 */
async function guessLoop(investor: Investor, ip: string | (() => string), maxRounds: number, perApplication = 5) {
  const address = typeof ip === "string" ? () => ip : ip;
  let wrong = 0;
  for (let round = 0; round < maxRounds; round++) {
    const app = await apply(investor, address());
    if (app.status !== 200) return { wrong, stop: app };
    const code = await lastCode(server, investor.login, "withdrawal");
    for (let i = 0; i < perApplication; i++) {
      const res = await validate(investor, app.id, wrongFor(code, wrong * 7 + i), address());
      if (res.status !== 400) {
        await cancel(investor, app.id);
        return { wrong, stop: res };
      }
      expect(res.body.code).toBe("CODE_MISMATCH");
      wrong += 1;
    }
    expect((await cancel(investor, app.id)).status).toBe(200);
  }
  throw new Error(`no limit met in ${maxRounds} rounds (${wrong} wrong codes)`);
}

describe("withdrawal code guessing", () => {
  it("meets 429 after 10 wrong codes per user however many applications it spreads them over", async () => {
    const investor = await eligible();
    const { wrong, stop } = await guessLoop(investor, freshIp(), 10);
    console.log(`[kassa] withdrawal guessing loop: ${wrong} wrong codes, then ${stop.status} ${stop.body.code}`);
    expect(wrong).toBe(DEFAULT_RATE_LIMITS.withdrawalCodeAccount?.max);
    expect(stop.status).toBe(429);
    expect(stop.body).toMatchObject({ code: "RATE_LIMITED", params: { retryAfter: "3600" } });
    expect(stop.headers["retry-after"]).toBe("3600");

    // From another address too: the budget is the user's.
    const app = await apply(investor, freshIp());
    expect(app.status).toBe(200);
    const code = await lastCode(server, investor.login, "withdrawal");
    expect((await validate(investor, app.id, wrongFor(code, 1), freshIp())).status).toBe(429);
    // Every cancelled application gave its amount back.
    expect((await cancel(investor, app.id)).status).toBe(200);
    expect((await balanceOf(server, investor)).USDT).toBe("500");
    await expectLedgerConsistent(server.handle.db);
    clock.advance(HOUR);
  });

  it("limits wrong codes per client address across users (20 an hour)", async () => {
    const ip = freshIp();
    let wrong = 0;
    let stop: Awaited<ReturnType<typeof guessLoop>>["stop"] | null = null;
    for (let n = 0; n < 6 && !stop; n++) {
      const user = await eligible();
      const app = await apply(user, ip);
      const code = await lastCode(server, user.login, "withdrawal");
      for (let i = 0; i < 4; i++) {
        const res = await validate(user, app.id, wrongFor(code, i), ip);
        if (res.status !== 400) {
          stop = res;
          break;
        }
        wrong += 1;
      }
      const res = await validate(user, app.id, wrongFor(code, 9), ip);
      if (!stop && res.status !== 400) stop = res;
      else if (!stop) wrong += 1;
      await cancel(user, app.id);
      // Below the per-user budget: 5 wrong codes each, the code voided once each.
    }
    console.log(`[kassa] withdrawal guessing from one address: ${wrong} wrong codes, then ${stop?.status}`);
    expect(wrong).toBe(DEFAULT_RATE_LIMITS.withdrawalCodeIp?.max);
    expect(stop).toMatchObject({ status: 429, body: { code: "RATE_LIMITED" } });
    clock.advance(HOUR);
  });

  it("takes nothing of the budget for a right code", async () => {
    const investor = await eligible();
    const ip = freshIp();
    let wrong = 0;
    for (const misses of [4, 4, 1]) {
      const app = await apply(investor, ip);
      const code = await lastCode(server, investor.login, "withdrawal");
      for (let i = 0; i < misses; i++) {
        expect((await validate(investor, app.id, wrongFor(code, i), ip)).body.code).toBe("CODE_MISMATCH");
        wrong += 1;
      }
      expect((await validate(investor, app.id, code, ip)).status).toBe(200);
    }
    // Three right codes entered: the tenth wrong one is still answered, the eleventh entry is not.
    const app = await apply(investor, ip);
    const code = await lastCode(server, investor.login, "withdrawal");
    expect((await validate(investor, app.id, wrongFor(code, 0), ip)).body.code).toBe("CODE_MISMATCH");
    expect(wrong + 1).toBe(10);
    expect((await validate(investor, app.id, code, ip)).status).toBe(429);
    clock.advance(HOUR);
    expect((await validate(investor, app.id, code, ip)).status).toBe(410); // its 10 minutes are over
  });

  it(`locks withdrawals for 24 h at the ${WITHDRAWAL_WRONG_CODES_PER_DAY}th wrong code within a day, and tells the user`, async () => {
    const investor = await eligible();
    const ip = freshIp();
    let total = 0;
    let stop: Awaited<ReturnType<typeof guessLoop>>["stop"];
    for (;;) {
      const round = await guessLoop(investor, ip, 10);
      total += round.wrong;
      stop = round.stop;
      if (stop.status !== 429) break;
      // The hourly budget is spent: the attacker waits for the next hour.
      clock.advance(HOUR + 1000);
    }
    console.log(`[kassa] withdrawal guessing over hours: ${total} wrong codes, then ${stop.status} ${stop.body.code}`);
    expect(total).toBe(WITHDRAWAL_WRONG_CODES_PER_DAY - 1);
    expect(stop.status).toBe(403);
    expect(stop.body).toMatchObject({
      code: "WITHDRAWALS_LOCKED",
      message: "Withdrawals are locked for 24 hours after repeated wrong codes",
    });

    // Locked: no new application, whatever the address.
    const refused = await apply(investor, freshIp());
    expect(refused).toMatchObject({ status: 403, body: { code: "WITHDRAWALS_LOCKED" } });
    // Told: a notification in the user's language.
    const notes = await callRoute(server, "notifications", { token: investor.token });
    const locked = (notes.items as { kind: string; title: string; body: string }[]).find(
      (n) => n.kind === "withdrawals_locked",
    );
    expect(locked?.title).toBe("Withdrawals locked");
    expect(locked?.body).toContain("locked until");
    expect((await balanceOf(server, investor)).USDT).toBe("500");
    await expectLedgerConsistent(server.handle.db);

    clock.advance(23 * HOUR);
    expect((await apply(investor, freshIp())).status).toBe(403);
    clock.advance(HOUR);
    const again = await apply(investor, freshIp());
    expect(again.status).toBe(200);
    const code = await lastCode(server, investor.login, "withdrawal");
    expect((await validate(investor, again.id, code, freshIp())).status).toBe(200);
  });

  /**
   * The finding's loop: 4 wrong codes (the code stays alive, none is voided), cancel, apply again;
   * at each 429 the attacker waits an hour. Over one day on the test clock, every wrong code judged
   * (CODE_MISMATCH, or the one answered WITHDRAWALS_LOCKED) is counted.
   */
  async function guessesInADay(ipFor: () => string) {
    const investor = await eligible();
    const start = clock.now().getTime();
    let judged = 0;
    let stop: Awaited<ReturnType<typeof guessLoop>>["stop"] | undefined;
    while (clock.now().getTime() - start < 24 * HOUR) {
      const round = await guessLoop(investor, ipFor, 30, 4);
      judged += round.wrong;
      stop = round.stop;
      if (stop.status === 403 && stop.body.code === "WITHDRAWALS_LOCKED") {
        judged += 1; // the wrong code that spent the budget was judged too
        break;
      }
      expect(stop.status).toBe(429);
      clock.advance(HOUR + 1000);
    }
    // Locked for the rest of the day, whatever the address.
    expect(await apply(investor, ipFor())).toMatchObject({ status: 403, body: { code: "WITHDRAWALS_LOCKED" } });
    clock.advance(24 * HOUR);
    return { judged, stop };
  }

  it("counts wrong codes per day whatever ends the application (4 wrong, cancel, again)", async () => {
    const oneAddress = freshIp();
    const fromOne = await guessesInADay(() => oneAddress);
    const firstOfMany = ipCounter;
    const fromMany = await guessesInADay(freshIp);
    console.log(
      `[kassa] withdrawal code guesses per account per day (4 wrong, cancel, again): ${fromOne.judged} from one address, ${fromMany.judged} from ${ipCounter - firstOfMany} addresses`,
    );
    expect(fromOne.judged).toBe(WITHDRAWAL_WRONG_CODES_PER_DAY);
    expect(fromMany.judged).toBe(WITHDRAWAL_WRONG_CODES_PER_DAY);
    expect(fromMany.stop).toMatchObject({ status: 403, body: { code: "WITHDRAWALS_LOCKED" } });
  });
});
