/**
 * A NUL byte (and any control character or lone surrogate) in a request is refused by the
 * contract's string schemas with 400 VALIDATION_FAILED (`textCharacters`), on each of the
 * thirteen places that answered 500 before; a signed Telegram name with a NUL is malformed init
 * data; and whatever PostgreSQL itself refuses as bad data (SQLSTATE class 22) is a 400, never a 500.
 */
import { routes } from "@contract";
import { sign } from "@telegram-apps/init-data-node";
import { sql } from "drizzle-orm";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerErrorHandler } from "../../server/src/errors";
import { call, createTestServer, injectRoute, registerUser, type TestServer } from "./helpers";

let server: TestServer;
let token: string;
const NUL = "\u0000";

beforeAll(async () => {
  server = await createTestServer();
  token = (await registerUser(server)).token;
});

afterAll(async () => {
  await server.close();
});

describe("a NUL byte where 13 calls answered 500", () => {
  const cases: [string, "GET" | "POST" | "PATCH", string, unknown, boolean][] = [
    ["auth/login", "POST", "/auth/login", { login: `de${NUL}mo`, password: "x" }, false],
    ["auth/register fullName", "POST", "/auth/register/kassa", { fullName: `A${NUL}B` }, false],
    ["auth/register path", "POST", "/auth/register/kas%00sa", { fullName: "A B" }, false],
    ["auth/reset-password", "POST", "/auth/reset-password", { login: `de${NUL}mo` }, false],
    ["reset validate", "POST", "/auth/reset-password/validate", { login: `de${NUL}mo`, code: "123456" }, false],
    ["user/subscription", "POST", "/user/subscription", { optionId: `m${NUL}` }, true],
    ["funds/deposits", "POST", "/funds/deposits", { planId: `st${NUL}art`, currency: "USDT", amount: "10" }, true],
    ["funds/refills", "POST", "/funds/refills", { paymentSystemId: `t${NUL}on`, amount: "10" }, true],
    ["funds/payments", "POST", "/funds/payments", { paymentSystemId: `t${NUL}on`, amount: "10" }, true],
    ["payments/request", "POST", "/funds/payments/request", { paymentSystemId: `t${NUL}on`, amount: "10" }, true],
    [
      "wallets/update",
      "PATCH",
      "/user-data/wallets/update",
      { wallets: [{ paymentSystemId: "ton", address: `UQ${NUL}x` }] },
      true,
    ],
    ["user/referrals search", "GET", "/user/referrals?search=%00", undefined, true],
    ["user/case-operations caseId", "GET", "/user/case-operations?caseId=%00", undefined, true],
  ];

  for (const [name, method, url, body, signedIn] of cases) {
    it(`${name}: 400 VALIDATION_FAILED`, async () => {
      const res = await call(server, method, url, body, { token: signedIn ? token : undefined });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("VALIDATION_FAILED");
      expect(Object.values(res.body.fields as Record<string, string>)).toContain("textCharacters");
    });
  }

  it("refuses other control characters and lone surrogates too, and keeps ordinary text", async () => {
    for (const bad of ["a\u0007b", "a\u001Bb", "a\u007Fb", "a\uD800b", "a\uDFFFb"]) {
      const res = await injectRoute(server, routes.updateUserData, { token, body: { city: bad } });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.fields).toEqual({ city: "textCharacters" });
    }
    const fine = await injectRoute(server, routes.updateUserData, { token, body: { city: "Алматы 😀 Zürich" } });
    expect(fine.status).toBe(200);
  });
});

describe("Telegram init data", () => {
  it("with a NUL in a correctly signed first_name is malformed (400 VERIFICATION_FAILED), not a 500", async () => {
    const initData = sign(
      { user: { id: 777000111, first_name: `Ev${NUL}il`, language_code: "en" } } as Parameters<typeof sign>[0],
      server.env.TELEGRAM_BOT_TOKEN,
      new Date(),
    );
    const res = await injectRoute(server, routes.telegramAuth, { body: { initData } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "VERIFICATION_FAILED", params: { reason: "malformed" } });
  });
});

describe("a data exception from PostgreSQL", () => {
  it("is answered 400 VALIDATION_FAILED, never 500", async () => {
    const app = Fastify({ logger: false });
    registerErrorHandler(app);
    const db = server.handle.db;
    app.get("/nul", async () => db.execute(sql`select ${`a${NUL}b`}::text as t`));
    app.get("/range", async () => db.execute(sql`select ${"99999999999"}::int as n`));
    app.get("/date", async () => db.execute(sql`select ${"2026-02-31"}::date as d`));
    try {
      for (const url of ["/nul", "/range", "/date"]) {
        const res = await app.inject({ method: "GET", url });
        expect(res.statusCode, url).toBe(400);
        expect(res.json()).toMatchObject({ code: "VALIDATION_FAILED" });
      }
    } finally {
      await app.close();
    }
  });
});
