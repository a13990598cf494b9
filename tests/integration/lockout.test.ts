/**
 * An outsider who knows only a login cannot lock its owner out (docs/security.md, "Lock-out"): over several
 * simulated days an attacker from ever new addresses takes every turn the per-account wait gives and types
 * wrong reset codes on every hour's budget, and asks for resets; the owner, on the device they signed in on
 * before (its device cookie), gets in with the right password every day and gets a reset code to their
 * channel that works, while the attacker's judged guesses stay within the budgets. The same correct password
 * from an unknown device waits in the outsiders' queue (429), and `unlockAccount` (the operator's
 * `kassa account unlock`) lifts every lock. On PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
import { routes } from "@contract";
import { operatorRoutes } from "@contract/operator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "../../server/src/clock";
import { DEVICE_COOKIE } from "../../server/src/security/device-cookie";
import { RESET_CODE_GUESSES } from "../../server/src/services/auth";
import {
  createTestServer,
  injectRoute,
  outbox,
  type RouteResult,
  registerUser,
  TEST_CODE_SECRET,
  TEST_OPERATOR_TOKEN,
  type TestServer,
} from "./helpers";
import { freshPostgres, POSTGRES_SKIP_REASON, TEST_DATABASE_URL } from "./money";

const DAYS = 3;
const HOUR = 3600_000;
const MINUTE = 60_000;

let ipCounter = 0;
const freshIp = () => `10.${(++ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;

function deviceCookieOf(res: RouteResult | { headers: RouteResult["headers"] }): string {
  const header = res.headers["set-cookie"];
  const line = (Array.isArray(header) ? header : [String(header ?? "")]).find((c) => c.startsWith(`${DEVICE_COOKIE}=`));
  if (!line) throw new Error("no device cookie was set");
  expect(line).toMatch(/HttpOnly/i);
  expect(line).toMatch(/SameSite=Strict/i);
  return line.split(";", 1)[0] ?? "";
}

function suite(backend: string, open: () => Promise<{ server: TestServer; done(): Promise<void> }>) {
  let server: TestServer;
  let done: () => Promise<void>;
  const clock = fixedClock("2026-06-01T06:00:00Z");
  beforeAll(async () => {
    ({ server, done } = await open.call({ clock } as never));
  }, 180_000);
  afterAll(async () => {
    await done?.();
  });

  it(`${backend}: over ${DAYS} days of an attacker at every opening, the owner gets in every day from a known device`, async () => {
    const owner = await registerUser(server, {}, "kassa", { ip: "192.0.2.10" });
    const login = owner.body.login;
    const password = owner.body.password;
    // The owner's own device: the cookie its sign-in set.
    const first = await injectRoute(server, routes.login, { ip: "192.0.2.10", body: { login, password } });
    expect(first.status).toBe(200);
    const cookie = deviceCookieOf(first);

    let attackerCodesJudged = 0;
    const perDay: number[] = [];
    let ownerIn = 0;
    let ownerBlockedWithoutDevice = 0;
    let ownerResets = 0;
    for (let day = 0; day < DAYS; day++) {
      let judgedToday = 0;
      for (let hour = 0; hour < 24; hour++) {
        // The attacker fires wrong passwords until the account's wait refuses it.
        for (let n = 0; n < 40; n++) {
          const res = await injectRoute(server, routes.login, {
            ip: freshIp(),
            body: { login, password: `wrong${day}x${hour}x${n}Guess` },
          });
          if (res.status === 429) break;
          expect(res.status).toBe(400);
          judgedToday += 1;
        }
        // ... asks for a reset (the code goes to the owner) and types wrong codes on the hour's budget.
        await injectRoute(server, routes.resetPassword, { ip: freshIp(), body: { login } });
        for (let n = 0; n <= RESET_CODE_GUESSES.perHour.max; n++) {
          const res = await injectRoute(server, routes.resetPasswordValidate, {
            ip: freshIp(),
            body: { login, code: String(100000 + ((day * 24 + hour) * 31 + n) * 7) },
          });
          if (res.body.code === "CODE_MISMATCH") attackerCodesJudged += 1;
          else expect([400, 429]).toContain(res.status);
        }
        if (hour === 13) {
          // The turn is the attacker's: the right password from an unknown device waits ...
          const unknown = await injectRoute(server, routes.login, { ip: freshIp(), body: { login, password } });
          if (unknown.status === 429) ownerBlockedWithoutDevice += 1;
          // ... and from the owner's device it gets in.
          const known = await injectRoute(server, routes.login, {
            ip: "192.0.2.10",
            headers: { cookie },
            body: { login, password },
          });
          expect(known.status, JSON.stringify(known.body)).toBe(200);
          ownerIn += 1;
        }
        if (hour === 15 && day >= 1) {
          // The owner forgot the password: a reset asked on their device reaches their channel and works.
          clock.advance(5 * MINUTE);
          const asked = await injectRoute(server, routes.resetPassword, {
            ip: "192.0.2.10",
            headers: { cookie },
            body: { login },
          });
          expect(asked.status).toBe(200);
          const [sent] = (await outbox(server, login)).filter((e) => e.purpose === "password_reset");
          expect(sent).toBeDefined();
          const taken = await injectRoute(server, routes.resetPasswordValidate, {
            ip: "192.0.2.10",
            headers: { cookie },
            body: { login, code: sent?.code ?? "" },
          });
          expect(taken.status, JSON.stringify(taken.body)).toBe(200);
          expect(taken.body.resetToken).toEqual(expect.any(String));
          ownerResets += 1;
        }
        clock.advance(HOUR);
      }
      perDay.push(judgedToday);
    }
    console.log(
      `[kassa] lock-out on ${backend} over ${DAYS} days: owner in ${ownerIn}/${DAYS} from the known device ` +
        `(${ownerBlockedWithoutDevice} times the same password from an unknown device waited), ${ownerResets}/${DAYS - 1} ` +
        `resets done; attacker's wrong passwords judged per day ${perDay.join(", ")}, wrong reset codes judged ` +
        `${attackerCodesJudged} in all`,
    );
    expect(ownerIn).toBe(DAYS);
    expect(ownerResets).toBe(DAYS - 1);
    // The outsiders' queue still holds: the attacker keeps the turn, and its guesses stay bounded.
    expect(ownerBlockedWithoutDevice).toBeGreaterThan(0);
    // The owner's sign-ins from the known device give the outsiders no new free guesses.
    for (const judged of perDay) expect(judged).toBeLessThanOrEqual(39);
    // Wrong reset codes: the lock's count in a row, then no more (the owner's known device does not reopen it).
    expect(attackerCodesJudged).toBeLessThanOrEqual(RESET_CODE_GUESSES.lockAfter);
  }, 600_000);

  it(`${backend}: a device cookie of another account, or a forged one, is no known device`, async () => {
    const victim = await registerUser(server, {}, "kassa", { ip: "192.0.2.20" });
    const other = await registerUser(server, {}, "kassa", { ip: "192.0.2.21" });
    const otherCookie = deviceCookieOf(
      await injectRoute(server, routes.login, {
        ip: "192.0.2.21",
        body: { login: other.body.login, password: other.body.password },
      }),
    );
    const forged = `${DEVICE_COOKIE}=v1.${victim.reply.user ? (victim.reply.user as { id: string }).id : ""}.AAAAAAAAAAAAAAAAAAAAAA.${"A".repeat(43)}`;
    for (const cookie of [otherCookie, forged]) {
      // Fill the victim's free failures and take the turn.
      for (let n = 0; n < 12; n++) {
        await injectRoute(server, routes.login, {
          ip: freshIp(),
          body: { login: victim.body.login, password: `bad${n}Password` },
        });
      }
      const res = await injectRoute(server, routes.login, {
        ip: freshIp(),
        headers: { cookie },
        body: { login: victim.body.login, password: victim.body.password },
      });
      expect(res.status).toBe(429);
    }
    // The operator lifts the lock: the right password gets in from anywhere.
    const unlocked = await injectRoute(server, operatorRoutes.unlockAccount, {
      token: TEST_OPERATOR_TOKEN,
      params: { login: victim.body.login },
    });
    expect(unlocked.status).toBe(200);
    expect(unlocked.body.login).toBe(victim.body.login);
    const after = await injectRoute(server, routes.login, {
      ip: freshIp(),
      body: { login: victim.body.login, password: victim.body.password },
    });
    expect(after.status).toBe(200);
  });
}

describe("lock-out on PGlite", () => {
  suite("PGlite", async function (this: { clock: ReturnType<typeof fixedClock> }) {
    const server = await createTestServer({ clock: this.clock });
    return { server, done: () => server.close() };
  });
});

describe.skipIf(!TEST_DATABASE_URL)("lock-out on PostgreSQL", () => {
  if (!TEST_DATABASE_URL) it.skip(POSTGRES_SKIP_REASON, () => {});
  suite("PostgreSQL", async function (this: { clock: ReturnType<typeof fixedClock> }) {
    const pg = await freshPostgres("lockout");
    const server = await createTestServer({
      clock: this.clock,
      env: { DATABASE_URL: pg.url, CODE_SECRET: TEST_CODE_SECRET },
    });
    return {
      server,
      async done() {
        await server.close();
        await pg.drop();
      },
    };
  });
});
