/**
 * Registration under an inviter (docs/decisions.md#d4-identity-and-sessions): the reply and the phone code it
 * sends, the stored password hash and inviter, every refusal of the catalogue's registration messages, the
 * field rules (docs/cabinet-rules.md#field-rules) checked on the server, and the per-address limit.
 */
import { SessionReply } from "@contract/auth";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../server/src/db/schema";
import { DEMO_EMAIL, DEMO_PHONE } from "../../server/src/demo/seed";
import { verifyPassword } from "../../server/src/security/password";
import { call, callRoute, createTestServer, outbox, registration, type TestServer } from "./helpers";

let server: TestServer;

beforeAll(async () => {
  server = await createTestServer();
});

afterAll(async () => {
  await server?.close();
});

const register = (inviter: string, body: unknown, ip = "198.51.100.1") =>
  call(server, "POST", `/auth/register/${inviter}`, body, { ip });

async function userRow(login: string) {
  const [row] = await server.handle.db
    .select()
    .from(schema.users)
    .where(sql`lower(${schema.users.login}) = lower(${login})`);
  if (!row) throw new Error(`no user ${login}`);
  return row;
}

describe("POST /api/auth/register/{inviter}", () => {
  it("creates the account, signs it in, and sends a phone code", async () => {
    const body = registration({ fullName: "Dana Nurlanovna", language: "kk" });
    const res = await register("kassa", body);
    expect(res.status).toBe(200);
    const reply = SessionReply.parse(res.body);
    expect(reply.phoneConfirmationRequired).toBe(true);
    expect(reply.user).toMatchObject({
      login: body.login,
      fullName: "Dana Nurlanovna",
      email: body.email,
      phone: body.phone,
      phoneConfirmed: false,
      telegramLinked: false,
      language: "kk",
    });

    const sent = await outbox(server, body.login);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toEqual({
      login: body.login,
      purpose: "phone",
      code: expect.stringMatching(/^\d{6}$/),
      channel: "email",
      createdAt: expect.any(String),
    });

    const me = await callRoute(server, "currentUser", { token: reply.refreshToken });
    expect(me.login).toBe(body.login);
  });

  it("stores the password as argon2id with m=19456 KiB, t=2, p=1", async () => {
    const body = registration();
    expect((await register("kassa", body)).status).toBe(200);
    const row = await userRow(body.login);
    expect(row.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row.passwordHash).not.toContain(body.password);
    expect(await verifyPassword(row.passwordHash ?? "", body.password)).toBe(true);
  });

  it("records the inviter from the path, in any letter case", async () => {
    const body = registration();
    expect((await register("DEMO", body)).status).toBe(200);
    const row = await userRow(body.login);
    const demo = await userRow("demo");
    expect(row.inviterId).toBe(demo.id);
    expect(row.codeChannel).toBe("email");
  });

  it("refuses an unknown inviter with REGISTRATION_FAILED on the inviter field", async () => {
    for (const inviter of ["nosuchinviter", "ab", "not%20a%20login"]) {
      const res = await register(inviter, registration());
      expect(res.status, inviter).toBe(400);
      expect(res.body, inviter).toEqual({
        code: "REGISTRATION_FAILED",
        message: "Registration error",
        fields: { inviter: "required" },
      });
    }
  });

  it("refuses a taken login, e-mail or phone with its own message, regardless of letter case", async () => {
    const cases = [
      [{ login: "DEMO" }, "LOGIN_TAKEN", "This login has already been registered"],
      [{ email: DEMO_EMAIL.toUpperCase() }, "EMAIL_TAKEN", "This Email has already been registered"],
      [{ phone: DEMO_PHONE }, "PHONE_TAKEN", "This Phone Number is already registered"],
    ] as const;
    for (const [overrides, code, message] of cases) {
      const res = await register("kassa", registration(overrides));
      expect(res.status, code).toBe(409);
      expect(res.body).toEqual({ code, message });
    }
    const [row] = await server.handle.db
      .select({ n: sql<number>`count(*)::int` })
      .from(schema.users)
      .where(eq(schema.users.phone, DEMO_PHONE));
    expect(row?.n).toBe(1);
  });

  it("checks the field rules and names each failing field", async () => {
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{ login: "abc" }, { login: "loginTooShort" }],
      [{ login: "ivan petrov" }, { login: "loginCharacters" }],
      [{ login: "иван2026" }, { login: "loginCharacters" }],
      [{ login: "" }, { login: "required" }],
      [{ password: "Sun flower42", passwordRepeat: "Sun flower42" }, { password: "passwordCharacters" }],
      [{ password: "sunflower", passwordRepeat: "sunflower" }, { password: "passwordTooSimple" }],
      [{ password: "Ab1", passwordRepeat: "Ab1" }, { password: "passwordTooSimple" }],
      [{ password: "1q2w3e4r5t", passwordRepeat: "1q2w3e4r5t" }, { password: "passwordTooSimple" }],
      [{ passwordRepeat: "Sunflower43x" }, { passwordRepeat: "passwordRepeat" }],
      [{ phone: "87001234567" }, { phone: "phoneFormat" }],
      [{ phone: "+7 700 123 45 67" }, { phone: "phoneFormat" }],
      [{ email: "someone@" }, { email: "emailInvalid" }],
      [{ acceptTerms: false }, { acceptTerms: "termsNotAccepted" }],
      [{ fullName: "  " }, { fullName: "required" }],
    ];
    for (const [overrides, fields] of cases) {
      const res = await register("kassa", registration(overrides));
      expect(res.status, JSON.stringify(overrides)).toBe(400);
      expect(res.body, JSON.stringify(overrides)).toEqual({
        code: "VALIDATION_FAILED",
        message: "Check the marked fields",
        fields,
      });
    }
  });

  it("refuses a password that contains the login", async () => {
    const res = await register(
      "kassa",
      registration({ login: "zhanar77", password: "Zhanar77abc", passwordRepeat: "Zhanar77abc" }),
    );
    expect(res).toMatchObject({
      status: 400,
      body: { code: "VALIDATION_FAILED", fields: { password: "passwordTooSimple" } },
    });
  });

  it("limits registrations per address (20 an hour by default)", async () => {
    const ip = "198.51.100.99";
    // Refused attempts count too (a taken login answers without hashing, so this is quick).
    for (let i = 0; i < 20; i++) {
      expect((await register("kassa", registration({ login: "demo" }), ip)).status).toBe(409);
    }
    const limited = await register("kassa", registration(), ip);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: "RATE_LIMITED", message: "Repeat the request in a few minutes" });
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(3000);
    // Others still register.
    expect((await register("kassa", registration(), "198.51.100.100")).status).toBe(200);
  });
});
