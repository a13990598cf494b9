/**
 * Password login and sessions as a client sees them: the reply, the bearer token and its 401,
 * the token stored only as a hash, expiry, logout, the caller's own profile, the login rate
 * limits, and the maintenance gate in front of it all.
 */
import { createHash } from "node:crypto";
import { ApiErrorBody, routes, User } from "@contract";
import { SessionReply } from "@contract/auth";
import { Profile } from "@contract/profile";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "../../server/src/clock";
import * as schema from "../../server/src/db/schema";
import { DEMO_EMAIL, DEMO_LOGIN, DEMO_PASSWORD, DEMO_PHONE } from "../../server/src/demo/seed";
import { setMaintenance } from "../../server/src/services/settings";
import {
  call,
  callRoute,
  createTestServer,
  injectRoute,
  registerUser,
  TEST_OPERATOR_TOKEN,
  type TestServer,
} from "./helpers";

const DAY_MS = 86_400_000;
const INVALID_CREDENTIALS = { code: "INVALID_CREDENTIALS", message: "Incorrect login or password" };
const SESSION_TIMEOUT = { code: "SESSION_TIMEOUT", message: "Session timed out" };

const login = (server: TestServer, body: unknown, ip?: string) =>
  call(server, "POST", "/auth/login", body, ip ? { ip } : {});

describe("POST /api/auth/login", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await createTestServer();
  });

  afterAll(async () => {
    await server?.close();
  });

  it("signs the demo investor in with login or e-mail, in any letter case", async () => {
    for (const name of [DEMO_LOGIN, "DeMo", DEMO_EMAIL, DEMO_EMAIL.toUpperCase()]) {
      const res = await login(server, { login: name, password: DEMO_PASSWORD });
      expect(res.status, name).toBe(200);
      const reply = SessionReply.parse(res.body);
      expect(reply.user).toMatchObject({
        login: DEMO_LOGIN,
        email: DEMO_EMAIL,
        phone: DEMO_PHONE,
        phoneConfirmed: true,
        telegramLinked: false,
        language: "en",
      });
      expect(reply.phoneConfirmationRequired).toBe(false);
      expect(reply.refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
  });

  it("gives a wrong password and an unknown login the same 400 reply", async () => {
    const wrong = await login(server, { login: DEMO_LOGIN, password: "demo2026Pass" }, "10.0.0.1");
    const unknown = await login(server, { login: "nobody4711", password: DEMO_PASSWORD }, "10.0.0.2");
    expect(wrong.status).toBe(400);
    expect(unknown.status).toBe(400);
    expect(wrong.body).toEqual(INVALID_CREDENTIALS);
    expect(unknown.body).toEqual(INVALID_CREDENTIALS);
  });

  it("does the work of one argon2id verification for an unknown login too (a dummy hash is verified)", async () => {
    // The CPU the process spends on the call (argon2 runs on libuv's threads, counted too), not the time it
    // takes: CPU work does not stretch with the machine's load as a wall-clock time does. Without the dummy
    // hash an unknown login costs about a millisecond, a verification tens of them.
    const work = async (body: unknown, ip: string) => {
      const before = process.cpuUsage();
      await login(server, body, ip);
      const used = process.cpuUsage(before);
      return used.user + used.system;
    };
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 3; i++) {
      known.push(await work({ login: DEMO_LOGIN, password: `wrong${i}pass` }, `10.1.0.${i}`));
      unknown.push(await work({ login: `ghost${i}user`, password: `wrong${i}pass` }, `10.2.0.${i}`));
    }
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.3);
  });

  it("refuses an account that has no password (Telegram only) like a wrong password", async () => {
    await server.handle.db.insert(schema.users).values({ login: "tgonly1", telegramId: 99_000_001 });
    const res = await login(server, { login: "tgonly1", password: "anything1" }, "10.0.0.3");
    expect(res).toMatchObject({ status: 400, body: INVALID_CREDENTIALS });
  });

  it("names empty fields", async () => {
    const res = await login(server, { login: " ", password: "" });
    expect(res.status).toBe(400);
    expect(ApiErrorBody.parse(res.body)).toEqual({
      code: "VALIDATION_FAILED",
      message: "Check the marked fields",
      fields: { login: "required", password: "required" },
    });
  });
});

describe("sessions", () => {
  let server: TestServer;
  const clock = fixedClock("2026-03-01T10:00:00Z");

  beforeAll(async () => {
    server = await createTestServer({ clock });
  });

  afterAll(async () => {
    await server?.close();
  });

  const signIn = async () => {
    const res = await login(server, { login: DEMO_LOGIN, password: DEMO_PASSWORD });
    expect(res.status).toBe(200);
    return res.body.refreshToken as string;
  };
  const me = (token?: string) => injectRoute(server, routes.currentUser, { token });

  it("stores only the SHA-256 of the token, with a 30-day expiry", async () => {
    const token = await signIn();
    const rows = await server.handle.db.select().from(schema.sessions);
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(token);
    const row = rows.find((r) => r.tokenHash === createHash("sha256").update(token).digest("hex"));
    expect(row).toBeDefined();
    expect(row?.expiresAt.getTime()).toBe(clock.now().getTime() + 30 * DAY_MS);
    expect(row?.revokedAt).toBeNull();
  });

  it("serves the signed-in user to the bearer, and 401 SESSION_TIMEOUT without a valid one", async () => {
    const token = await signIn();
    const ok = await me(token);
    expect(ok.status).toBe(200);
    expect(User.parse(ok.body).login).toBe(DEMO_LOGIN);

    for (const headers of [
      {} as Record<string, string>,
      { authorization: `Basic ${token}` },
      { authorization: "Bearer" },
      { authorization: `Bearer ${token.slice(0, -1)}x` },
      { authorization: "Bearer not-a-token" },
    ]) {
      const res = await injectRoute(server, routes.currentUser, { headers });
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.body).toEqual(SESSION_TIMEOUT);
      expect(res.headers["www-authenticate"]).toMatch(/^Bearer/);
    }
  });

  it("ends a session when it expires", async () => {
    const token = await signIn();
    clock.advance(30 * DAY_MS - 1000);
    expect((await me(token)).status).toBe(200);
    clock.advance(1000);
    expect(await me(token)).toMatchObject({ status: 401, body: SESSION_TIMEOUT });
  });

  it("revokes the caller's token on logout, and only that one", async () => {
    const first = await signIn();
    const second = await signIn();
    const out = await callRoute(server, "logout", { token: first });
    expect(out).toMatchObject({ ok: true });
    expect(await me(first)).toMatchObject({ status: 401, body: SESSION_TIMEOUT });
    expect((await me(second)).status).toBe(200);

    const [row] = await server.handle.db
      .select()
      .from(schema.sessions)
      .where(eq(schema.sessions.tokenHash, createHash("sha256").update(first).digest("hex")));
    expect(row?.revokedAt?.toISOString()).toBe(clock.now().toISOString());
  });

  it("answers logout with ok even without a live token, and accepts a JSON body-less POST", async () => {
    expect(await injectRoute(server, routes.logout)).toMatchObject({ status: 200, body: { ok: true } });
    const res = await server.app.inject({
      method: "POST",
      url: "/api/auth/logout",
      headers: { "content-type": "application/json", authorization: "Bearer revoked-or-unknown" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
  });
});

describe("GET /api/user-data/byType/{type}", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await createTestServer();
  });

  afterAll(async () => {
    await server?.close();
  });

  it("returns the caller's profile, the default type being profile", async () => {
    const { token, body } = await registerUser(server, { fullName: "Aigerim Sadykova" });
    const byType = await callRoute(server, "userDataByType", { token, params: { type: "profile" } });
    const byDefault = await callRoute(server, "userData", { token });
    expect(byDefault).toEqual(byType);
    expect(Profile.parse(byType)).toEqual({
      login: body.login,
      fullName: "Aigerim Sadykova",
      email: body.email,
      emailConfirmed: false,
      phone: body.phone,
      phoneConfirmed: false,
      city: null,
      country: null,
      registeredAt: expect.any(String),
      language: "en",
      codeChannel: "email",
      telegramLinked: false,
      inviter: "kassa",
      pendingPhone: null,
      verificationStatus: null,
      avatarUrl: null,
    });
  });

  it("shows each user only their own data, whatever the request says", async () => {
    const alice = await registerUser(server);
    const bob = await registerUser(server);
    for (const url of [
      "/user-data/byType/profile",
      `/user-data/byType/profile?login=${bob.body.login}`,
      `/user-data/byType?userId=${bob.reply.user && (bob.reply.user as { id: string }).id}`,
    ]) {
      const res = await call(server, "GET", url, undefined, { token: alice.token });
      expect(res.status, url).toBe(200);
      expect(res.body.login, url).toBe(alice.body.login);
      expect(JSON.stringify(res.body)).not.toContain(bob.body.email);
    }
    const bobs = await callRoute(server, "userDataByType", { token: bob.token, params: { type: "profile" } });
    expect(bobs.login).toBe(bob.body.login);
  });

  it("needs a session, and knows only its types", async () => {
    expect(await injectRoute(server, routes.userDataByType, { params: { type: "profile" } })).toMatchObject({
      status: 401,
      body: SESSION_TIMEOUT,
    });
    // Without a session nothing about the request is checked: 401 first.
    // (A type the route does not take: sent raw.)
    expect(await call(server, "GET", "/user-data/byType/wallets")).toMatchObject({ status: 401 });
    const { token } = await registerUser(server);
    const res = await call(server, "GET", "/user-data/byType/wallets", undefined, { token });
    expect(res).toMatchObject({ status: 400, body: { code: "VALIDATION_FAILED", fields: { type: "required" } } });
  });
});

describe("login rate limits", () => {
  let server: TestServer;
  const clock = fixedClock("2026-03-01T10:00:00Z");

  beforeAll(async () => {
    server = await createTestServer({ clock, env: { RATE_LIMIT_LOGIN_IP: "8/900" } });
  });

  afterAll(async () => {
    await server?.close();
  });

  it("refuses the 6th attempt after 5 wrong passwords for one login from one address, for 15 minutes", async () => {
    const ip = "192.0.2.10";
    for (let i = 0; i < 5; i++) {
      expect(await login(server, { login: DEMO_LOGIN, password: `wrong${i}pass` }, ip)).toMatchObject({
        status: 400,
        body: INVALID_CREDENTIALS,
      });
    }
    const limited = await login(server, { login: DEMO_LOGIN, password: DEMO_PASSWORD }, ip);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      code: "RATE_LIMITED",
      message: "Repeat the request in a few minutes",
      params: { retryAfter: "900" },
    });
    expect(limited.headers["retry-after"]).toBe("900");
    // The same login typed in another letter case is the same login.
    expect((await login(server, { login: "DEMO", password: DEMO_PASSWORD }, ip)).status).toBe(429);

    // Another address is not held back by this one.
    expect((await login(server, { login: DEMO_LOGIN, password: DEMO_PASSWORD }, "192.0.2.11")).status).toBe(200);

    clock.advance(10 * 60_000);
    const later = await login(server, { login: DEMO_LOGIN, password: DEMO_PASSWORD }, ip);
    expect(later.headers["retry-after"]).toBe("300");
    clock.advance(5 * 60_000);
    expect((await login(server, { login: DEMO_LOGIN, password: DEMO_PASSWORD }, ip)).status).toBe(200);
  });

  it("forgets earlier failures after a successful login", async () => {
    const ip = "192.0.2.20";
    for (let i = 0; i < 4; i++) await login(server, { login: DEMO_LOGIN, password: `wrong${i}pass` }, ip);
    expect((await login(server, { login: DEMO_LOGIN, password: DEMO_PASSWORD }, ip)).status).toBe(200);
    for (let i = 0; i < 4; i++) {
      expect((await login(server, { login: DEMO_LOGIN, password: `again${i}pass` }, ip)).status).toBe(400);
    }
  });

  it("limits failures per address across logins (RATE_LIMIT_LOGIN_IP)", async () => {
    const ip = "192.0.2.30";
    for (let i = 0; i < 8; i++) {
      expect((await login(server, { login: `someone${i}`, password: "guess123x" }, ip)).status).toBe(400);
    }
    const limited = await login(server, { login: DEMO_LOGIN, password: DEMO_PASSWORD }, ip);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe("RATE_LIMITED");
  });
});

describe("maintenance", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await createTestServer();
  });

  afterAll(async () => {
    await setMaintenance(server.handle.db, server.app.clock, { enabled: false }).catch(() => {});
    await server?.close();
  });

  it("answers 503 MAINTENANCE to the cabinet's calls while the switch is on, and keeps the service calls open", async () => {
    const signedIn = await login(server, { login: DEMO_LOGIN, password: DEMO_PASSWORD });
    const token = signedIn.body.refreshToken as string;
    await setMaintenance(server.handle.db, server.app.clock, {
      enabled: true,
      until: new Date(Date.now() + 3_600_000).toISOString(),
    });

    for (const [method, url, body] of [
      ["POST", "/auth/login", { login: DEMO_LOGIN, password: DEMO_PASSWORD }],
      ["POST", "/auth/register/kassa", {}],
      ["GET", "/user/me", undefined],
      ["GET", "/user-data/byType/profile", undefined],
      ["GET", "/settings_other/plans/available", undefined],
      ["GET", "/payment-systems", undefined],
    ] as const) {
      const res = await call(server, method, url, body, { token });
      expect(res.status, url).toBe(503);
      expect(res.body, url).toEqual({ code: "MAINTENANCE", message: "Technical work is in progress" });
      expect(Number(res.headers["retry-after"]), url).toBeGreaterThan(3000);
    }

    const open: [string, Record<string, string>][] = [
      ["/settings/technical_work", {}],
      ["/settings/telegramAuthAvailable", {}],
      ["/settings/defaultInviter", {}],
      ["/health", {}],
      ["/docs/json", {}],
      ["/dev/outbox", {}],
      ["/operator/settings/technicalWork", { authorization: `Bearer ${TEST_OPERATOR_TOKEN}` }],
    ];
    for (const [url, headers] of open) {
      expect((await call(server, "GET", url, undefined, { headers })).status, url).toBe(200);
    }

    await setMaintenance(server.handle.db, server.app.clock, { enabled: false });
    await callRoute(server, "currentUser", { token });
  });
});
