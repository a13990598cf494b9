/**
 * Guessing budgets per account (docs/decisions.md#guessing-budgets), whatever the number of client
 * addresses: wrong passwords (a progressive wait per account that never locks the owner out for
 * long: Telegram sign-in and the password reset keep working), wrong reset codes (one budget across
 * the login and e-mail forms, the reset locked after 100 in a row until the owner signs in), wrong
 * phone-confirmation codes (a day's budget per account, both confirmation forms), the Telegram
 * sign-in (per address and per Telegram user), the phone check of Settings (per account)
 * and the registration's "taken" answers (in all). The guesses per account in a day on the test
 * clock, from one address and from many, are printed and asserted.
 */
import { routes } from "@contract";
import { RegisterBody } from "@contract/auth";
import { sign } from "@telegram-apps/init-data-node";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "../../server/src/clock";
import * as schema from "../../server/src/db/schema";
import { hashPassword } from "../../server/src/security/password";
import { PHONE_CHANGE_TRIES } from "../../server/src/services/account";
import {
  LOGIN_ACCOUNT_GUESSES,
  loginWaitSeconds,
  REGISTER_TAKEN_ANSWERS,
  RESET_CODE_GUESSES,
  TELEGRAM_SIGN_IN_LIMITS,
} from "../../server/src/services/auth";
import { PHONE_CODE_GUESSES } from "../../server/src/services/codes";
import {
  createTestServer,
  injectRoute,
  lastCode,
  outbox,
  type RouteResult,
  registerUser,
  registration,
  TEST_CODE_SECRET,
  type TestServer,
} from "./helpers";
import { freshPostgres, POSTGRES_SKIP_REASON, TEST_DATABASE_URL } from "./money";

const BOT_TOKEN = "7000000001:AAF-test-token-for-kassa-integration-tests";
const HOUR = 3600_000;
const DAY = 24 * HOUR;
const PASSWORD = "Sunflower42x";
const clock = fixedClock("2026-06-01T06:00:00Z");
let server: TestServer;

beforeAll(async () => {
  server = await createTestServer({
    clock,
    env: { TELEGRAM_BOT_TOKEN: BOT_TOKEN, TELEGRAM_AUTH_MAX_AGE_SECONDS: "86400" },
  });
});

afterAll(async () => {
  await server?.close();
});

let ipCounter = 0;
/** A new client address each call (a botnet), from 10.0.0.0/8. */
const freshIp = () => `10.${(++ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
const retryAfterMs = (res: RouteResult) => Number(res.headers["retry-after"]) * 1000;

const signIn = (login: string, password: string, ip: string) =>
  injectRoute(server, routes.login, { ip, body: { login, password } });

let telegramId = 7_000_000_000;
const telegramInit = (id: number) =>
  sign(
    { query_id: `q${id}`, user: { id, first_name: "Aigerim" } } as Parameters<typeof sign>[0],
    BOT_TOKEN,
    clock.now(),
  );
const telegramSignIn = (initData: string, ip: string) =>
  injectRoute(server, routes.telegramAuth, { ip, body: { initData } });

/** An investor with a password, an e-mail and a linked Telegram account. */
async function investor() {
  const id = telegramId++;
  const signedIn = await telegramSignIn(telegramInit(id), freshIp());
  expect(signedIn.status).toBe(200);
  const body = registration();
  await server.handle.db
    .update(schema.users)
    .set({ passwordHash: await hashPassword(PASSWORD), email: body.email, emailConfirmedAt: clock.now() })
    .where(eq(schema.users.telegramId, id));
  const [row] = await server.handle.db.select().from(schema.users).where(eq(schema.users.telegramId, id));
  if (!row) throw new Error("no Telegram account");
  return { id, login: row.login, email: body.email };
}

/**
 * Wrong passwords for one account for a day: on 429 the attacker waits what Retry-After says. Counts
 * the tries judged (400). Stops early past `cap` (no limit at all).
 */
async function passwordGuessesInADay(login: string, ipFor: () => string, cap = 300) {
  const start = clock.now().getTime();
  let judged = 0;
  while (clock.now().getTime() - start < DAY && judged <= cap) {
    const res = await signIn(login, `wrong${judged}Guess`, ipFor());
    if (res.status === 400) {
      judged += 1;
      continue;
    }
    expect(res.status).toBe(429);
    clock.advance(retryAfterMs(res));
  }
  return judged;
}

describe("wrong passwords per account, from many addresses", () => {
  it("waits per account after the free failures, from every address alike, and says how many a day get through", async () => {
    const oneAddress = freshIp();
    const fromOne = await passwordGuessesInADay((await investor()).login, () => oneAddress);
    clock.advance(DAY);
    const first = ipCounter;
    const fromMany = await passwordGuessesInADay((await investor()).login, freshIp);
    console.log(
      `[kassa] password guesses per account per day: ${fromOne} from one address, ${fromMany} from ${ipCounter - first} addresses`,
    );
    // The free failures, then one a wait: a minute, doubling to an hour.
    let expected = LOGIN_ACCOUNT_GUESSES.free;
    for (let t = 0; t < DAY / 1000; t += loginWaitSeconds(expected)) expected += 1;
    expect(fromMany).toBe(expected);
    expect(fromMany).toBeLessThanOrEqual(40);
    expect(fromOne).toBeLessThanOrEqual(fromMany);
    clock.advance(DAY);
  });

  it("holds the owner's password back an hour at most, and never their Telegram sign-in or the reset", async () => {
    const owner = await investor();
    // The attacker takes each turn as it opens, until a few waits have passed.
    for (let judged = 0; judged < LOGIN_ACCOUNT_GUESSES.free + 3; ) {
      const res = await signIn(owner.login, `wrong${judged}Guess`, freshIp());
      if (res.status === 429) clock.advance(retryAfterMs(res));
      else {
        expect(res.status).toBe(400);
        judged += 1;
      }
    }
    // The attacker holds the account's turn: the right password waits, from the owner's own address.
    const home = freshIp();
    const held = await signIn(owner.email, PASSWORD, home);
    expect(held).toMatchObject({ status: 429, body: { code: "RATE_LIMITED" } });
    expect(retryAfterMs(held)).toBeLessThanOrEqual(LOGIN_ACCOUNT_GUESSES.maxWaitSeconds * 1000);

    // Telegram sign-in is not held back.
    expect((await telegramSignIn(telegramInit(owner.id), home)).status).toBe(200);
    // Nor is the reset; the new password then works at once.
    expect((await injectRoute(server, routes.resetPassword, { ip: home, body: { login: owner.email } })).status).toBe(
      200,
    );
    const code = await lastCode(server, owner.login, "password_reset");
    const validated = await injectRoute(server, routes.resetPasswordValidate, {
      ip: home,
      body: { login: owner.login, code },
    });
    expect(validated.status).toBe(200);
    const resetToken = validated.body.resetToken as string;
    const newPassword = "Moonlight77q";
    expect(
      (
        await injectRoute(server, routes.setPassword, {
          body: { resetToken, password: newPassword, passwordRepeat: newPassword },
        })
      ).status,
    ).toBe(200);
    expect((await signIn(owner.login, newPassword, home)).status).toBe(200);
  });
});

/**
 * Wrong reset codes for one account for a day, the login and the e-mail typed in turn: a code is
 * requested (each form has its own request limits), then wrong codes until it is used up; on 429
 * the attacker waits. Stops once the reset is locked (a request sends no new code) or past `cap`.
 */
async function resetGuessesInADay(user: { login: string; email: string }, ipFor: () => string, cap = 300) {
  const start = clock.now().getTime();
  let judged = 0;
  let round = 0;
  let locked = false;
  while (clock.now().getTime() - start < DAY && judged <= cap && !locked) {
    const typed = round++ % 2 ? user.email : user.login;
    const requested = await injectRoute(server, routes.resetPassword, { ip: ipFor(), body: { login: typed } });
    if (requested.status === 429) {
      clock.advance(retryAfterMs(requested));
      continue;
    }
    expect(requested.status).toBe(200);
    const code = await lastCode(server, user.login, "password_reset");
    for (let i = 0; ; i++) {
      const guess = String((Number(code) + 1 + i) % 1_000_000).padStart(6, "0");
      const res = await injectRoute(server, routes.resetPasswordValidate, {
        ip: ipFor(),
        body: { login: i % 2 ? user.login : user.email, code: guess },
      });
      if (res.status === 400 && res.body.code === "CODE_MISMATCH") {
        judged += 1;
        continue;
      }
      if (res.status === 429) clock.advance(retryAfterMs(res));
      else {
        expect(res.body.code).toBe("CODE_INVALID");
        // The newest code refused at its first try: no new one was sent, the reset is locked.
        // Later: used up, request another.
        locked = i === 0;
      }
      break;
    }
    clock.advance(61_000);
  }
  return { judged, locked };
}

describe("wrong reset codes per account", () => {
  it("share one budget across the login and e-mail forms, and lock the reset after 100 in a row", async () => {
    const one = await investor();
    const oneAddress = freshIp();
    const fromOne = await resetGuessesInADay(one, () => oneAddress);
    const many = await investor();
    const first = ipCounter;
    const fromMany = await resetGuessesInADay(many, freshIp);
    console.log(
      `[kassa] reset code guesses per account per day: ${fromOne.judged} from one address, ${fromMany.judged} from ${ipCounter - first} addresses (then locked: ${fromOne.locked}, ${fromMany.locked})`,
    );
    expect(fromOne).toEqual({ judged: RESET_CODE_GUESSES.lockAfter, locked: true });
    expect(fromMany).toEqual({ judged: RESET_CODE_GUESSES.lockAfter, locked: true });

    // Locked: a request replies as ever but sends nothing; the last code sent is refused even when right.
    const sent = (await outbox(server, many.login)).length;
    clock.advance(DAY);
    expect(
      (await injectRoute(server, routes.resetPassword, { ip: freshIp(), body: { login: many.email } })).status,
    ).toBe(200);
    expect(await outbox(server, many.login)).toHaveLength(sent);
    const stale = await lastCode(server, many.login, "password_reset");
    const refused = await injectRoute(server, routes.resetPasswordValidate, {
      ip: freshIp(),
      body: { login: many.login, code: stale },
    });
    expect(refused).toMatchObject({ status: 400, body: { code: "CODE_INVALID" } });

    // The owner signs in another way (the password, or Telegram for `one`): the reset works again.
    expect((await signIn(many.login, PASSWORD, freshIp())).status).toBe(200);
    expect((await telegramSignIn(telegramInit(one.id), freshIp())).status).toBe(200);
    for (const user of [many, one]) {
      const ip = freshIp();
      expect((await injectRoute(server, routes.resetPassword, { ip, body: { login: user.login } })).status).toBe(200);
      const code = await lastCode(server, user.login, "password_reset");
      expect(code).not.toBe(user === many ? stale : "");
      const ok = await injectRoute(server, routes.resetPasswordValidate, { ip, body: { login: user.email, code } });
      expect(ok.status).toBe(200);
    }
  });

  it("refuses even the right code once the reset is locked, and takes it again after a sign-in", async () => {
    const user = await investor();
    const [row] = await server.handle.db.select().from(schema.users).where(eq(schema.users.login, user.login));
    if (!row) throw new Error("no account");
    // 99 wrong codes in a row already (the day-long loop above walks them one by one).
    await server.handle.db
      .insert(schema.guessFailures)
      .values({ userId: row.id, kind: "password_reset", failures: RESET_CODE_GUESSES.lockAfter - 1 });
    const ip = freshIp();
    expect((await injectRoute(server, routes.resetPassword, { ip, body: { login: user.login } })).status).toBe(200);
    const code = await lastCode(server, user.login, "password_reset");
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    const validate = (login: string, guess: string) =>
      injectRoute(server, routes.resetPasswordValidate, { ip: freshIp(), body: { login, code: guess } });
    expect((await validate(user.email, wrong)).body).toMatchObject({
      code: "CODE_MISMATCH",
      params: { attemptsLeft: "4" },
    });
    // The 100th in a row locked it: the live, right code is refused, by login and by e-mail.
    expect((await validate(user.login, code)).body.code).toBe("CODE_INVALID");
    expect((await validate(user.email, code)).body.code).toBe("CODE_INVALID");
    expect((await signIn(user.login, PASSWORD, freshIp())).status).toBe(200);
    expect((await validate(user.login, code)).status).toBe(200);
    clock.advance(HOUR);
  });

  it("answers 429 after 10 wrong codes an hour per account, typed as login or e-mail, from any address", async () => {
    const user = await investor();
    let wrong = 0;
    let stop: RouteResult | undefined;
    for (let round = 0; round < 4 && !stop; round++) {
      await injectRoute(server, routes.resetPassword, {
        ip: freshIp(),
        body: { login: round % 2 ? user.email : user.login },
      });
      for (let i = 0; i < 4 && !stop; i++) {
        const res = await injectRoute(server, routes.resetPasswordValidate, {
          ip: freshIp(),
          body: { login: i % 2 ? user.email : user.login, code: i === 0 ? "000000" : "999999" },
        });
        if (res.body.code === "CODE_MISMATCH") wrong += 1;
        else stop = res;
      }
      clock.advance(61_000);
    }
    expect(wrong).toBe(RESET_CODE_GUESSES.perHour.max);
    expect(stop).toMatchObject({ status: 429, body: { code: "RATE_LIMITED" } });
    clock.advance(DAY);
  });
});

/**
 * Wrong phone-confirmation codes for one signed-in account for a day, as a guesser would send them:
 * a new code whenever the last one is voided (5 wrong tries) or expired, and on 429 the wait that
 * Retry-After says. Counts the tries judged (CODE_MISMATCH); stops early past `cap`.
 */
async function phoneGuessesInADay(user: { token: string; login: string }, ipFor: () => string, cap = 1000) {
  const start = clock.now().getTime();
  let judged = 0;
  let code = await lastCode(server, user.login, "phone");
  while (clock.now().getTime() - start < DAY && judged <= cap) {
    const guess = String((Number(code) + 1 + judged) % 1_000_000).padStart(6, "0");
    const res = await injectRoute(server, routes.phoneConfirm, {
      token: user.token,
      ip: ipFor(),
      body: { code: guess },
    });
    if (res.body.code === "CODE_MISMATCH") {
      judged += 1;
      continue;
    }
    if (res.status === 429) {
      clock.advance(retryAfterMs(res));
      continue;
    }
    expect(res.body.code).toMatch(/^CODE_(INVALID|EXPIRED)$/);
    const resent = await injectRoute(server, routes.phoneResend, { token: user.token, ip: ipFor() });
    if (resent.status === 429) clock.advance(retryAfterMs(resent));
    else code = await lastCode(server, user.login, "phone");
  }
  return judged;
}

describe("wrong phone codes per account", () => {
  it(`judges ${PHONE_CODE_GUESSES.max} a day from one address and from many, on both confirmation forms`, async () => {
    const oneAddress = freshIp();
    const one = await registerUser(server, {}, "kassa", { ip: oneAddress });
    const fromOne = await phoneGuessesInADay({ token: one.token, login: one.body.login }, () => oneAddress);
    const many = await registerUser(server, {}, "kassa", { ip: freshIp() });
    const first = ipCounter;
    const fromMany = await phoneGuessesInADay({ token: many.token, login: many.body.login }, freshIp);
    console.log(
      `[kassa] phone code guesses per account per day: ${fromOne} from one address, ${fromMany} from ${ipCounter - first} addresses`,
    );
    expect(fromOne).toBe(PHONE_CODE_GUESSES.max);
    expect(fromMany).toBe(PHONE_CODE_GUESSES.max);

    // The same budget on the Settings form: a new number's code is refused unjudged while it lasts.
    const fresh = await registerUser(server, {}, "kassa", { ip: freshIp() });
    const owner = { token: fresh.token, login: fresh.body.login };
    for (let i = 0; i < PHONE_CODE_GUESSES.max; i++) {
      const res = await injectRoute(server, routes.phoneConfirm, {
        token: owner.token,
        ip: freshIp(),
        body: { code: "000000" },
      });
      if (res.body.code !== "CODE_MISMATCH") {
        await injectRoute(server, routes.phoneResend, { token: owner.token, ip: freshIp() });
        clock.advance(61_000);
        i -= 1;
      }
    }
    const newPhone = registration().phone;
    const changed = await injectRoute(server, routes.updateUserData, {
      token: owner.token,
      ip: freshIp(),
      body: { phone: newPhone },
    });
    expect(changed.status).toBe(200);
    const right = await lastCode(server, owner.login, "phone");
    const refused = await injectRoute(server, routes.confirmPhoneChange, {
      token: owner.token,
      ip: freshIp(),
      body: { code: right },
    });
    expect(refused).toMatchObject({ status: 429, body: { code: "RATE_LIMITED" } });
    // A day later the owner confirms with a new code.
    clock.advance(DAY);
    await injectRoute(server, routes.updateUserData, { token: owner.token, ip: freshIp(), body: { phone: newPhone } });
    const ok = await injectRoute(server, routes.confirmPhoneChange, {
      token: owner.token,
      ip: freshIp(),
      body: { code: await lastCode(server, owner.login, "phone") },
    });
    expect(ok.status).toBe(200);
  });
});

describe("Telegram sign-in limits", () => {
  it(`answers 429 past ${TELEGRAM_SIGN_IN_LIMITS.user.max} sign-ins of one Telegram user in 15 minutes, from any address`, async () => {
    const id = telegramId++;
    const raw = telegramInit(id);
    const statuses: number[] = [];
    for (let i = 0; i <= TELEGRAM_SIGN_IN_LIMITS.user.max; i++) {
      // Case variants and replays of one init data, and new init data, all count.
      const initData =
        i % 3 === 0
          ? telegramInit(id)
          : i % 3 === 1
            ? raw.replace(/hash=([0-9a-f]+)/, (_m, h: string) => `hash=${h.toUpperCase()}`)
            : raw;
      statuses.push((await telegramSignIn(initData, freshIp())).status);
    }
    expect(statuses.slice(0, -1).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // Another Telegram user is not held back.
    expect((await telegramSignIn(telegramInit(telegramId++), freshIp())).status).toBe(200);
    clock.advance(HOUR);
  });

  it(`answers 429 past ${TELEGRAM_SIGN_IN_LIMITS.ip.max} sign-ins from one address in 15 minutes, refused ones included`, async () => {
    const ip = freshIp();
    let answered = 0;
    let stop: RouteResult | undefined;
    for (let i = 0; i <= TELEGRAM_SIGN_IN_LIMITS.ip.max && !stop; i++) {
      const res = await telegramSignIn(i % 2 ? telegramInit(telegramId++) : "user=%7B%7D&hash=00", ip);
      if (res.status === 429) stop = res;
      else answered += 1;
    }
    expect(answered).toBe(TELEGRAM_SIGN_IN_LIMITS.ip.max);
    expect(stop).toMatchObject({ status: 429, body: { code: "RATE_LIMITED" } });
    clock.advance(HOUR);
  });
});

describe("taken phones and e-mails are no directory", () => {
  it(`lets a signed-in investor try ${PHONE_CHANGE_TRIES.max} new phones a day`, async () => {
    const holder = await registerUser(server, {}, "kassa", { ip: freshIp() });
    const prober = await registerUser(server, {}, "kassa", { ip: freshIp() });
    const token = prober.token;
    const answers: string[] = [];
    for (let i = 0; i <= PHONE_CHANGE_TRIES.max; i++) {
      const res = await injectRoute(server, routes.updateUserData, {
        token,
        ip: freshIp(),
        body: { phone: holder.body.phone },
      });
      answers.push(String(res.body.code));
    }
    expect(answers.slice(0, -1).every((c) => c === "PHONE_TAKEN")).toBe(true);
    expect(answers.at(-1)).toBe("RATE_LIMITED");
    clock.advance(DAY);
    expect(
      (await injectRoute(server, routes.updateUserData, { token, body: { phone: holder.body.phone } })).body.code,
    ).toBe("PHONE_TAKEN");
  });

  /** A registration from a new address; `overrides` on a body that passes every rule. */
  const signUp = (overrides: Record<string, unknown> = {}) =>
    injectRoute(server, routes.register, {
      ip: freshIp(),
      params: { inviter: "kassa" },
      body: RegisterBody.parse(registration(overrides)),
    });

  it(`tells a taken e-mail at most ${REGISTER_TAKEN_ANSWERS.max} times an hour from all addresses together`, async () => {
    clock.advance(HOUR);
    const taken = await registerUser(server, {}, "kassa", { ip: freshIp() });
    const answers: string[] = [];
    for (let i = 0; i <= REGISTER_TAKEN_ANSWERS.max; i++) {
      // A taken phone beside the probed e-mail would answer too: both count.
      const res = await signUp(i % 2 ? { email: taken.body.email } : { phone: taken.body.phone });
      answers.push(String(res.body.code));
    }
    console.log(
      `[kassa] registration: ${answers.filter((a) => a.endsWith("_TAKEN")).length} taken answers in an hour from ${answers.length} addresses`,
    );
    expect(answers.slice(0, -1).every((a) => a === "EMAIL_TAKEN" || a === "PHONE_TAKEN")).toBe(true);
    expect(answers.at(-1)).toBe("RATE_LIMITED");
    // A registration with nothing taken goes through.
    expect((await signUp()).status).toBe(200);
    clock.advance(HOUR);
    expect((await signUp({ email: taken.body.email })).body).toMatchObject({
      code: "EMAIL_TAKEN",
      message: "This Email has already been registered",
    });
  });

  it("counts a taken login in the same budget, so the form is no directory of logins either", async () => {
    clock.advance(HOUR);
    const taken = await registerUser(server, {}, "kassa", { ip: freshIp() });
    const login = String(taken.body.login);
    const answers: string[] = [];
    for (let i = 0; i <= REGISTER_TAKEN_ANSWERS.max; i++) {
      // Any letter case is the same login.
      const res = await signUp(i % 3 ? { login: i % 2 ? login : login.toUpperCase() } : { email: taken.body.email });
      answers.push(String(res.body.code));
    }
    expect(answers.filter((a) => a === "LOGIN_TAKEN").length).toBeGreaterThan(REGISTER_TAKEN_ANSWERS.max / 2);
    expect(answers.slice(0, -1).every((a) => a === "LOGIN_TAKEN" || a === "EMAIL_TAKEN")).toBe(true);
    expect(answers.at(-1)).toBe("RATE_LIMITED");
    // Past the budget a taken login is not told either.
    expect((await signUp({ login })).body).toMatchObject({ code: "RATE_LIMITED" });
    clock.advance(HOUR);
    expect((await signUp({ login })).body).toMatchObject({
      code: "LOGIN_TAKEN",
      message: "This login has already been registered",
    });
  });
});

describe.skipIf(!TEST_DATABASE_URL)(
  `parallel guesses on PostgreSQL${TEST_DATABASE_URL ? "" : ` (skipped: ${POSTGRES_SKIP_REASON})`}`,
  () => {
    let pg: TestServer;
    let database: Awaited<ReturnType<typeof freshPostgres>>;

    beforeAll(async () => {
      database = await freshPostgres("guessing");
      pg = await createTestServer({
        clock,
        env: { DATABASE_URL: database.url, CODE_SECRET: TEST_CODE_SECRET, TELEGRAM_BOT_TOKEN: BOT_TOKEN },
      });
    }, 60_000);

    afterAll(async () => {
      await pg?.close();
      await database?.drop();
    });

    it("judges the free wrong passwords and one turn of 30 sent at once from 30 addresses", async () => {
      const { body } = await registerUser(pg, {}, "kassa", { ip: freshIp() });
      const tries = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          injectRoute(pg, routes.login, { ip: freshIp(), body: { login: body.login, password: `wrong${i}Guess` } }),
        ),
      );
      const statuses = tries.map((t) => t.status);
      console.log(
        `[kassa] PostgreSQL: 30 wrong passwords at once for one account from 30 addresses → ${statuses.filter((s) => s === 400).length} × 400, ${statuses.filter((s) => s === 429).length} × 429`,
      );
      expect(statuses.filter((s) => s === 400)).toHaveLength(LOGIN_ACCOUNT_GUESSES.free + 1);
      expect(statuses.filter((s) => s === 429)).toHaveLength(30 - LOGIN_ACCOUNT_GUESSES.free - 1);
      clock.advance(DAY);
    });

    it("lets no reset guess past the lock when they arrive at once", async () => {
      const { body } = await registerUser(pg, {}, "kassa", { ip: freshIp() });
      const [row] = await pg.handle.db.select().from(schema.users).where(eq(schema.users.login, body.login));
      if (!row) throw new Error("no account");
      await pg.handle.db
        .insert(schema.guessFailures)
        .values({ userId: row.id, kind: "password_reset", failures: RESET_CODE_GUESSES.lockAfter - 2 });
      expect((await injectRoute(pg, routes.resetPassword, { ip: freshIp(), body: { login: body.login } })).status).toBe(
        200,
      );
      const code = await lastCode(pg, body.login, "password_reset");
      const tries = await Promise.all(
        [1, 2, 3, 4, 5, 6, 7, 8].map((n) =>
          injectRoute(pg, routes.resetPasswordValidate, {
            ip: freshIp(),
            body: {
              login: n % 2 ? body.login : body.email,
              code: String((Number(code) + n) % 1_000_000).padStart(6, "0"),
            },
          }),
        ),
      );
      const codes = tries.map((t) => String(t.body.code));
      expect(codes.filter((c) => c === "CODE_MISMATCH")).toHaveLength(2);
      expect(codes.filter((c) => c === "CODE_INVALID")).toHaveLength(6);
      const [failures] = await pg.handle.db
        .select()
        .from(schema.guessFailures)
        .where(eq(schema.guessFailures.userId, row.id));
      expect(failures?.failures).toBe(RESET_CODE_GUESSES.lockAfter);
      clock.advance(DAY);
    });
  },
);
