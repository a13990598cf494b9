/**
 * Verification codes (docs/decisions.md#d5-codes) through the phone confirmation: single use, stored as an HMAC,
 * 5 wrong tries void a code, a new one only after 60 s, expiry after 10 minutes; the development
 * outbox; and delivery failures (a failing sender, production without a provider, the Bot API).
 */

import { createHash } from "node:crypto";
import { routes } from "@contract";
import { CodeSentReply, PhoneConfirmReply } from "@contract/auth";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "../../server/src/clock";
import * as schema from "../../server/src/db/schema";
import {
  ChannelCodeSender,
  type CodeDelivery,
  type CodeSender,
  codeMessageText,
} from "../../server/src/delivery/code-sender";
import { TelegramCodeSender } from "../../server/src/delivery/telegram-code-sender";
import { maskedDestination } from "../../server/src/services/codes";
import {
  call,
  callRoute,
  createTestServer,
  injectRoute,
  lastCode,
  outbox,
  registerUser,
  TEST_CODE_SECRET,
  type TestServer,
} from "./helpers";

const MINUTE = 60_000;
const CODE_SENT = { message: "Request successfully sent", resendAfterSeconds: 60, expiresInSeconds: 600 };

/** A code that is not `code` (same length, differs in the first digit). */
const otherThan = (code: string) => `${(Number(code[0]) + 1) % 10}${code.slice(1)}`;

describe("phone confirmation codes", () => {
  let server: TestServer;
  const clock = fixedClock("2026-04-10T09:00:00Z");

  beforeAll(async () => {
    server = await createTestServer({ clock });
  });

  afterAll(async () => {
    await server?.close();
  });

  const confirm = (token: string, code: string, ip?: string) =>
    injectRoute(server, routes.phoneConfirm, { token, ...(ip ? { ip } : {}), body: { code } });
  const resend = (token: string) => injectRoute(server, routes.phoneResend, { token });

  it("confirms the phone with the code, once", async () => {
    const { token, body } = await registerUser(server);
    const code = await lastCode(server, body.login, "phone");
    const ok = await confirm(token, code);
    expect(ok.status).toBe(200);
    expect(PhoneConfirmReply.parse(ok.body).user).toMatchObject({ login: body.login, phoneConfirmed: true });
    const profile = await callRoute(server, "userDataByType", { token, params: { type: "profile" } });
    expect(profile.phoneConfirmed).toBe(true);

    expect(await confirm(token, code)).toMatchObject({
      status: 400,
      body: { code: "CODE_INVALID", message: "The code is not valid" },
    });
    // Nothing left to confirm: no new code either.
    expect(await resend(token)).toMatchObject({ status: 400, body: { code: "VERIFICATION_FAILED" } });
    // A later sign-in does not ask again.
    const again = await callRoute(server, "login", { body: { login: body.login, password: body.password } });
    expect(again.phoneConfirmationRequired).toBe(false);
  });

  it("asks again at sign-in while the phone is unconfirmed", async () => {
    const { body } = await registerUser(server);
    const res = await callRoute(server, "login", { body: { login: body.login, password: body.password } });
    expect(res).toMatchObject({ phoneConfirmationRequired: true, user: { phoneConfirmed: false } });
  });

  it("stores the code as an HMAC under the server key, never the digits or their plain hash", async () => {
    const { body } = await registerUser(server);
    const code = await lastCode(server, body.login, "phone");
    const rows = await server.handle.db
      .select()
      .from(schema.verificationCodes)
      .innerJoin(schema.users, eq(schema.users.id, schema.verificationCodes.userId))
      .where(eq(schema.users.login, body.login));
    expect(rows).toHaveLength(1);
    const row = rows[0]?.verification_codes;
    expect(row).toMatchObject({ purpose: "phone", target: body.phone, attempts: 0, consumedAt: null });
    expect(JSON.stringify(row)).not.toContain(code);
    expect(row?.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.codeHash).not.toBe(createHash("sha256").update(code).digest("hex"));
    expect(row?.expiresAt.getTime()).toBe(clock.now().getTime() + 10 * MINUTE);
  });

  it("counts wrong tries and voids the code after the fifth", async () => {
    const { token, body } = await registerUser(server);
    const code = await lastCode(server, body.login, "phone");
    for (let left = 4; left >= 0; left--) {
      const res = await confirm(token, otherThan(code));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: "CODE_MISMATCH",
        message: "The code doesn't match. Try again",
        params: { attemptsLeft: String(left) },
      });
    }
    expect(await confirm(token, code)).toMatchObject({ status: 400, body: { code: "CODE_INVALID" } });

    // A new code (after the wait) works again.
    clock.advance(MINUTE);
    expect((await resend(token)).status).toBe(200);
    expect((await confirm(token, await lastCode(server, body.login, "phone"))).status).toBe(200);
  });

  it("says where the code went: the channel it was sent through and the address masked", async () => {
    const { reply, body } = await registerUser(server);
    // A new account's codes go by e-mail (the phone is not confirmed yet).
    const sentReply = CodeSentReply.parse(reply.phoneCode);
    expect(sentReply).toEqual({
      ...CODE_SENT,
      channel: "email",
      destination: `i***@${body.email.split("@")[1]}`,
    });
    expect(sentReply.destination).not.toContain(body.login);
    const [sent] = await outbox(server, body.login);
    expect(sent).toMatchObject({ purpose: "phone", channel: sentReply.channel });
    expect(maskedDestination({ codeChannel: "sms", email: null, phone: "+77001234567" })).toBe("+7******4567");
    expect(maskedDestination({ codeChannel: "telegram", email: "a@b.co", phone: "+77001234567" })).toBeUndefined();
  });

  it("sends a new code only after 60 seconds, and only the newest code counts", async () => {
    const { token, body } = await registerUser(server);
    const first = await lastCode(server, body.login, "phone");

    const early = await resend(token);
    expect(early.status).toBe(429);
    expect(early.body).toEqual({
      code: "RATE_LIMITED",
      message: "Repeat the request in a few minutes",
      params: { retryAfter: "60" },
    });
    expect(early.headers["retry-after"]).toBe("60");
    clock.advance(45_000);
    expect((await resend(token)).body.params).toEqual({ retryAfter: "15" });

    clock.advance(15_000);
    const again = await resend(token);
    expect(again.status).toBe(200);
    expect(CodeSentReply.parse(again.body)).toEqual({
      ...CODE_SENT,
      channel: "email",
      destination: `i***@${body.email.split("@")[1]}`,
    });
    const second = await lastCode(server, body.login, "phone");
    expect((await outbox(server, body.login)).map((e) => e.code)).toEqual([second, first]);

    if (first !== second) {
      expect((await confirm(token, first)).body.code).toBe("CODE_MISMATCH");
    }
    expect((await confirm(token, second)).status).toBe(200);
  });

  it("lets a code expire after 10 minutes", async () => {
    const { token, body } = await registerUser(server);
    const code = await lastCode(server, body.login, "phone");
    clock.advance(10 * MINUTE);
    expect(await confirm(token, code)).toMatchObject({
      status: 410,
      body: { code: "CODE_EXPIRED", message: "The verification code is out of date" },
    });
  });

  it("needs a session and a 6-digit code", async () => {
    expect(await injectRoute(server, routes.phoneConfirm, { body: { code: "123456" } })).toMatchObject({
      status: 401,
      body: { code: "SESSION_TIMEOUT" },
    });
    expect(await injectRoute(server, routes.phoneResend)).toMatchObject({ status: 401 });
    // The session is checked before the body.
    expect(await injectRoute(server, routes.phoneConfirm, { body: { code: "x" } })).toMatchObject({ status: 401 });
    const { token } = await registerUser(server);
    for (const code of ["12345", "1234567", "12a456", ""]) {
      const res = await confirm(token, code);
      expect(res.status, code).toBe(400);
      expect(res.body.code).toBe("VALIDATION_FAILED");
      expect(res.body.fields).toEqual({ code: code === "" ? "required" : "codeFormat" });
    }
  });

  it("limits code requests per account (5 an hour) and code entries per address (30 in 15 minutes)", async () => {
    const { token, body } = await registerUser(server);
    for (let i = 0; i < 5; i++) {
      clock.advance(MINUTE);
      expect((await resend(token)).status, `resend ${i + 1}`).toBe(200);
    }
    clock.advance(MINUTE);
    const limited = await resend(token);
    expect(limited).toMatchObject({ status: 429, body: { code: "RATE_LIMITED" } });

    const ip = "203.0.113.7";
    const code = await lastCode(server, body.login, "phone");
    for (let i = 0; i < 30; i++) expect((await confirm(token, otherThan(code), ip)).status).toBe(400);
    const entryLimited = await confirm(token, code, ip);
    expect(entryLimited).toMatchObject({ status: 429, body: { code: "RATE_LIMITED" } });
    expect(entryLimited.headers["retry-after"]).toBe("900");
  });
});

describe("GET /api/dev/outbox", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await createTestServer({ env: { NODE_ENV: "development" } });
  });

  afterAll(async () => {
    await server?.close();
  });

  it("lists the codes newest first, filtered by login in any letter case and by purpose", async () => {
    const a = await registerUser(server);
    const b = await registerUser(server);
    const all = await call(server, "GET", "/dev/outbox");
    expect(all.status).toBe(200);
    expect(all.headers["cache-control"]).toBe("no-store");
    const logins = (all.body as unknown as { login: string }[]).map((e) => e.login);
    expect(logins.slice(0, 2)).toEqual([b.body.login, a.body.login]);

    const onlyA = await outbox(server, a.body.login.toUpperCase());
    expect(onlyA.map((e) => e.login)).toEqual([a.body.login]);
    const resets = await call(server, "GET", `/dev/outbox?login=${a.body.login}&purpose=password_reset`);
    expect(resets.body).toEqual([]);
  });
});

describe("code delivery failures", () => {
  it("answers 502 CODE_SEND_FAILED when the sender fails, and keeps no code", async () => {
    const failing: CodeSender = {
      send: async () => {
        throw new Error("provider down");
      },
    };
    const server = await createTestServer({ codeSender: failing });
    try {
      // Registration succeeds even so: the account exists and resend reports the failure.
      const { token, body } = await registerUser(server);
      const res = await injectRoute(server, routes.phoneResend, { token });
      expect(res.status).toBe(502);
      expect(res.body).toEqual({ code: "CODE_SEND_FAILED", message: "Code sending error" });
      const rows = await server.handle.db
        .select()
        .from(schema.verificationCodes)
        .innerJoin(schema.users, eq(schema.users.id, schema.verificationCodes.userId))
        .where(eq(schema.users.login, body.login));
      expect(rows).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it("in production has no outbox, and no provider for the e-mail channel", async () => {
    const server = await createTestServer({
      env: {
        NODE_ENV: "production",
        TELEGRAM_BOT_TOKEN: "7000000001:AAF-test-token-for-kassa-integration-tests",
        CODE_SECRET: TEST_CODE_SECRET,
        // The docs are off in production unless switched on; on, they must not list the outbox.
        API_DOCS: "true",
      },
    });
    try {
      expect(await call(server, "GET", "/dev/outbox")).toMatchObject({ status: 404, body: { code: "NOT_FOUND" } });
      const docs = await call(server, "GET", "/docs/json");
      expect(Object.keys(docs.body.paths as object)).not.toContain("/api/dev/outbox");

      const { token } = await registerUser(server);
      const res = await injectRoute(server, routes.phoneResend, { token });
      expect(res).toMatchObject({ status: 502, body: { code: "CODE_SEND_FAILED", message: "Code sending error" } });
    } finally {
      await server.close();
    }
  });

  const delivery: CodeDelivery = {
    login: "aigerim",
    language: "ru",
    channel: "telegram",
    telegramId: 424242,
    email: null,
    phone: null,
    purpose: "password_reset",
    code: "042917",
    expiresInSeconds: 600,
  };

  it("sends a Telegram code through the Bot API's sendMessage in the user's language", async () => {
    const requests: { url: string; body: Record<string, unknown> }[] = [];
    const fakeFetch = (async (url: string, init: RequestInit) => {
      requests.push({ url, body: JSON.parse(String(init.body)) });
      return new Response(JSON.stringify({ ok: true, result: {} }), { status: 200 });
    }) as unknown as typeof fetch;
    const sender = new TelegramCodeSender({ botToken: "7000000001:AAF-token", fetch: fakeFetch });
    await sender.send(delivery);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.url).toBe("https://api.telegram.org/bot7000000001:AAF-token/sendMessage");
    // The code sits in <code> (HTML), so the chat copies it with a tap; the text is the catalogue's.
    expect(requests[0]?.body).toMatchObject({ chat_id: 424242, protect_content: true, parse_mode: "HTML" });
    expect(requests[0]?.body.text).toBe(
      "Kassa: код <code>042917</code> (сброс пароля). Действует 10 минут. Никому его не сообщайте.",
    );
    await sender.send({ ...delivery, language: "de", purpose: "withdrawal", expiresInSeconds: 300 });
    expect(requests[1]?.body.text).toBe(
      "Kassa: Ihr Code für die Auszahlung lautet <code>042917</code>. Er ist 5 Minuten gültig. Geben Sie ihn niemandem weiter.",
    );
    // The number of minutes takes the language's plural form (i18next's _one/_few/_many/_other keys).
    const pattern = { ru: /Действует (\d+ \S+)\./, en: /valid for (\d+ \w+)\./, de: /Er ist (\d+ \w+) gültig/ };
    const valid = (language: "en" | "ru" | "de", minutes: number) =>
      pattern[language].exec(codeMessageText({ ...delivery, language, expiresInSeconds: minutes * 60 }))?.[1];
    expect([1, 3, 5, 21].map((m) => valid("ru", m))).toEqual(["1 минуту", "3 минуты", "5 минут", "21 минуту"]);
    expect([1, 5].map((m) => valid("en", m))).toEqual(["1 minute", "5 minutes"]);
    expect([1, 5].map((m) => valid("de", m))).toEqual(["1 Minute", "5 Minuten"]);
  });

  it("fails a Telegram code the Bot API refuses, or for an account without Telegram", async () => {
    const refusing = (async () =>
      new Response(JSON.stringify({ ok: false, description: "Forbidden: bot was blocked by the user" }), {
        status: 403,
      })) as unknown as typeof fetch;
    const sender = new TelegramCodeSender({ botToken: "7000000001:AAF-token", fetch: refusing });
    await expect(sender.send(delivery)).rejects.toThrow(/bot was blocked/);
    await expect(sender.send({ ...delivery, telegramId: null })).rejects.toThrow(/not linked to Telegram/);

    const channels = new ChannelCodeSender({ telegram: sender });
    await expect(channels.send({ ...delivery, channel: "sms" })).rejects.toThrow(/no provider .* sms/);
  });
});
