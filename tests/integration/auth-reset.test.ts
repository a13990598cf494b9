/**
 * The password reset (docs/cabinet-rules.md#statuses-and-flows): request → code → validate → reset token → new
 * password. The request replies the same whether or not the account exists; the token is single use, short
 * lived and stored hashed; a new password signs the user out everywhere.
 */

import { createHash } from "node:crypto";
import { routes } from "@contract";
import { CodeSentReply, ResetPasswordValidateReply } from "@contract/auth";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "../../server/src/clock";
import * as schema from "../../server/src/db/schema";
import type { CodeSender } from "../../server/src/delivery/code-sender";
import { createTestServer, injectRoute, lastCode, outbox, registerUser, type TestServer } from "./helpers";

const MINUTE = 60_000;
const CODE_SENT = { message: "Request successfully sent", resendAfterSeconds: 60, expiresInSeconds: 600 };
const NEW_PASSWORD = "Moonlight77q";

const clock = fixedClock("2026-05-20T08:00:00Z");
let server: TestServer;

beforeAll(async () => {
  server = await createTestServer({ clock });
});

afterAll(async () => {
  await server?.close();
});

let ipCounter = 0;
/** A fresh client address, so the per-address limits of one test do not reach the next. */
const freshIp = () => `198.18.0.${++ipCounter}`;

const requestReset = (login: string, ip: string) => injectRoute(server, routes.resetPassword, { ip, body: { login } });
const validate = (login: string, code: string, ip: string) =>
  injectRoute(server, routes.resetPasswordValidate, { ip, body: { login, code } });
const setPassword = (resetToken: string, password = NEW_PASSWORD, passwordRepeat = password) =>
  injectRoute(server, routes.setPassword, { body: { resetToken, password, passwordRepeat } });
const signIn = (login: string, password: string) =>
  injectRoute(server, routes.login, { ip: freshIp(), body: { login, password } });

/** Registers a user and walks the reset up to the reset token. */
async function resetToken() {
  const user = await registerUser(server, {}, "kassa", { ip: freshIp() });
  const ip = freshIp();
  expect((await requestReset(user.body.login, ip)).status).toBe(200);
  const code = await lastCode(server, user.body.login, "password_reset");
  const res = await validate(user.body.login, code, ip);
  expect(res.status).toBe(200);
  return { user, resetToken: ResetPasswordValidateReply.parse(res.body).resetToken };
}

describe("password reset", () => {
  it("walks request → code → token → new password, and signs the user out everywhere", async () => {
    const { body, token: registrationSession } = await registerUser(server, {}, "kassa", { ip: freshIp() });
    const other = await signIn(body.login, body.password);
    expect(other.status).toBe(200);
    const ip = freshIp();

    const requested = await requestReset(body.email.toUpperCase(), ip);
    expect(requested.status).toBe(200);
    expect(CodeSentReply.parse(requested.body)).toEqual(CODE_SENT);
    const code = await lastCode(server, body.login, "password_reset");

    const validated = await validate(body.login, code, ip);
    expect(validated.status).toBe(200);
    const { resetToken } = ResetPasswordValidateReply.parse(validated.body);
    expect(resetToken).toMatch(/^[A-Za-z0-9_-]{43}$/);

    expect(await setPassword(resetToken)).toMatchObject({ status: 200, body: { ok: true } });

    for (const token of [registrationSession, other.body.refreshToken as string]) {
      expect(await injectRoute(server, routes.currentUser, { token })).toMatchObject({
        status: 401,
        body: { code: "SESSION_TIMEOUT" },
      });
    }
    expect(await signIn(body.login, body.password)).toMatchObject({
      status: 400,
      body: { code: "INVALID_CREDENTIALS" },
    });
    expect((await signIn(body.login, NEW_PASSWORD)).status).toBe(200);

    const [row] = await server.handle.db
      .select({ hash: schema.users.passwordHash })
      .from(schema.users)
      .where(eq(schema.users.login, body.login));
    expect(row?.hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    // The code was used up with the validation.
    expect((await validate(body.login, code, ip)).body).toMatchObject({ code: "CODE_INVALID" });
  });

  it("replies the same to an unknown login or e-mail, and sends nothing", async () => {
    const { body } = await registerUser(server, {}, "kassa", { ip: freshIp() });
    const known = await requestReset(body.login, freshIp());
    const before = (await outbox(server)).length;
    const unknown = await requestReset("nosuchuser77", freshIp());
    const unknownEmail = await requestReset("nobody@example.com", freshIp());
    for (const res of [unknown, unknownEmail]) {
      expect(res.status).toBe(known.status);
      expect(res.body).toEqual(known.body);
      expect(Object.keys(res.headers).sort()).toEqual(Object.keys(known.headers).sort());
    }
    expect((await outbox(server)).length).toBe(before);

    // The resend wait holds for unknown logins as for known ones.
    const ip = freshIp();
    for (const login of [body.login, "nosuchuser77"]) {
      const again = await requestReset(login, ip);
      expect(again.status, login).toBe(429);
      expect(again.body, login).toEqual({
        code: "RATE_LIMITED",
        message: "Repeat the request in a few minutes",
        params: { retryAfter: "60" },
      });
    }
    expect(await validate("nosuchuser77", "123456", freshIp())).toMatchObject({
      status: 400,
      body: { code: "CODE_INVALID", message: "The code is not valid" },
    });
  });

  it("limits reset requests per login (5 an hour) and per address (10 in 15 minutes)", async () => {
    const { body } = await registerUser(server, {}, "kassa", { ip: freshIp() });
    for (let i = 0; i < 5; i++) {
      expect((await requestReset(body.login, freshIp())).status, `request ${i + 1}`).toBe(200);
      clock.advance(MINUTE);
    }
    expect(await requestReset(body.login, freshIp())).toMatchObject({ status: 429, body: { code: "RATE_LIMITED" } });

    const ip = freshIp();
    for (let i = 0; i < 10; i++) expect((await requestReset(`someone${i}x`, ip)).status).toBe(200);
    const limited = await requestReset("someone10x", ip);
    expect(limited).toMatchObject({ status: 429, body: { code: "RATE_LIMITED" } });
    expect(limited.headers["retry-after"]).toBe("900");
    clock.advance(60 * MINUTE);
  });

  it("checks the code: mismatch with tries left, void after five, expired after ten minutes", async () => {
    const { body } = await registerUser(server, {}, "kassa", { ip: freshIp() });
    const ip = freshIp();
    await requestReset(body.login, ip);
    const code = await lastCode(server, body.login, "password_reset");
    const wrong = `${(Number(code[0]) + 1) % 10}${code.slice(1)}`;
    for (let left = 4; left >= 0; left--) {
      expect(await validate(body.login, wrong, ip)).toMatchObject({
        status: 400,
        body: {
          code: "CODE_MISMATCH",
          message: "The code doesn't match. Try again",
          params: { attemptsLeft: `${left}` },
        },
      });
    }
    expect((await validate(body.login, code, ip)).body).toMatchObject({ code: "CODE_INVALID" });

    clock.advance(MINUTE);
    await requestReset(body.login, freshIp());
    const fresh = await lastCode(server, body.login, "password_reset");
    clock.advance(10 * MINUTE);
    expect(await validate(body.login, fresh, freshIp())).toMatchObject({
      status: 410,
      body: { code: "CODE_EXPIRED", message: "The verification code is out of date" },
    });
  });

  it("keeps only the hash of a reset token, uses it once, and lets it expire after 15 minutes", async () => {
    const first = await resetToken();
    const stored = await server.handle.db.select().from(schema.passwordResetTokens);
    expect(JSON.stringify(stored)).not.toContain(first.resetToken);
    expect(stored.map((r) => r.tokenHash)).toContain(createHash("sha256").update(first.resetToken).digest("hex"));

    expect((await setPassword(first.resetToken)).status).toBe(200);
    expect(await setPassword(first.resetToken, "Another88z")).toMatchObject({
      status: 400,
      body: { code: "CODE_INVALID" },
    });

    const second = await resetToken();
    clock.advance(15 * MINUTE);
    expect(await setPassword(second.resetToken)).toMatchObject({ status: 410, body: { code: "CODE_EXPIRED" } });
    expect(await setPassword("x".repeat(43))).toMatchObject({ status: 400, body: { code: "CODE_INVALID" } });
    expect(await setPassword("not-a-token")).toMatchObject({ status: 400, body: { code: "CODE_INVALID" } });
  });

  it("checks the new password's rules and keeps the token for another try", async () => {
    const { user, resetToken: token } = await resetToken();
    const cases: [string, string, Record<string, string>][] = [
      [NEW_PASSWORD, "Moonlight78q", { passwordRepeat: "passwordRepeat" }],
      ["moonlight", "moonlight", { password: "passwordTooSimple" }],
      ["Moon light7", "Moon light7", { password: "passwordCharacters" }],
      [`${user.body.login}9z`, `${user.body.login}9z`, { password: "passwordTooSimple" }],
    ];
    for (const [password, repeat, fields] of cases) {
      const res = await setPassword(token, password, repeat);
      expect(res.status, password).toBe(400);
      expect(res.body, password).toEqual({ code: "VALIDATION_FAILED", message: "Check the marked fields", fields });
    }
    expect((await setPassword(token)).status).toBe(200);
  });

  it("replies the same even when the code cannot be sent, and keeps no code then", async () => {
    const failing: CodeSender = {
      send: async () => {
        throw new Error("provider down");
      },
    };
    const broken = await createTestServer({ codeSender: failing });
    try {
      const { body } = await registerUser(broken);
      const res = await injectRoute(broken, routes.resetPassword, { body: { login: body.login } });
      expect(res).toMatchObject({ status: 200, body: CODE_SENT });
      // The background delivery fails and withdraws the code.
      await expect
        .poll(async () => {
          const [row] = await broken.handle.db
            .select({ n: sql<number>`count(*)::int` })
            .from(schema.verificationCodes)
            .where(eq(schema.verificationCodes.purpose, "password_reset"));
          return row?.n;
        })
        .toBe(0);
    } finally {
      await broken.close();
    }
  });

  it("checks the bodies", async () => {
    expect(await injectRoute(server, routes.resetPassword, { body: { login: "" } })).toMatchObject({
      status: 400,
      body: { code: "VALIDATION_FAILED", fields: { login: "required" } },
    });
    expect(
      await injectRoute(server, routes.resetPasswordValidate, { body: { login: "demo", code: "12" } }),
    ).toMatchObject({
      status: 400,
      body: { code: "VALIDATION_FAILED", fields: { code: "codeFormat" } },
    });
  });
});
