/** The server's configuration: defaults that make `npm start` work anywhere, and production's demands. */

import { randomBytes } from "node:crypto";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_RATE_LIMITS, DEV_BOT_TOKEN, EnvError, estimatedEntropyBits, loadEnv } from "../../server/src/env";

const PRODUCTION = {
  NODE_ENV: "production",
  TELEGRAM_BOT_TOKEN: "7000000001:AAF-real-looking-token-000000000",
  CODE_SECRET: "a-production-code-secret-of-32-chars+",
};

describe("loadEnv", () => {
  it("needs nothing in development", () => {
    const env = loadEnv({}, { cwd: "/srv/kassa" });
    expect(env).toEqual({
      NODE_ENV: "development",
      HOST: "127.0.0.1",
      PORT: 8787,
      DATABASE_URL: undefined,
      DATA_DIR: path.resolve("/srv/kassa", ".data/pglite"),
      STATIC_DIR: path.resolve("/srv/kassa", "dist"),
      UPLOAD_DIR: path.resolve("/srv/kassa", ".data/pglite-uploads"),
      TELEGRAM_BOT_TOKEN: DEV_BOT_TOKEN,
      TELEGRAM_AUTH_MAX_AGE_SECONDS: 3600,
      // The development token runs no bot; the Mini App's address is the local one.
      TELEGRAM_BOT_ENABLED: false,
      TELEGRAM_API_ROOT: "https://api.telegram.org",
      TELEGRAM_ENV: "prod",
      TELEGRAM_WEBHOOK_SECRET: undefined,
      // No e-mail or SMS provider unless configured.
      SMTP_URL: undefined,
      MAIL_FROM: undefined,
      SMS_API_URL: "https://api.twilio.com",
      SMS_ACCOUNT_SID: undefined,
      SMS_AUTH_TOKEN: undefined,
      SMS_FROM: undefined,
      PUBLIC_URL: undefined,
      MINI_APP_URL: "http://localhost:8787/",
      SEED_DEMO: true,
      LOG_LEVEL: "info",
      OPERATOR_TOKEN: undefined,
      SESSION_TTL_DAYS: 30,
      CODE_SECRET: undefined,
      TRUST_PROXY: false,
      API_DOCS: true,
      ACCRUAL_INTERVAL_SECONDS: 60,
      REQUEST_TIMEOUT_SECONDS: 60,
      STATEMENT_TIMEOUT_MS: 15_000,
      KEEP_ALIVE_TIMEOUT_SECONDS: 5,
      MAX_CONNECTIONS: 1000,
      MAX_CONNECTIONS_PER_ADDRESS: 64,
      HEADERS_TIMEOUT_SECONDS: 10,
      RATE_LIMITS: {
        loginAccount: { max: 5, windowSeconds: 900 },
        loginIp: { max: 30, windowSeconds: 900 },
        registerIp: { max: 20, windowSeconds: 3600 },
        codeRequestAccount: { max: 5, windowSeconds: 3600 },
        codeRequestIp: { max: 10, windowSeconds: 900 },
        codeEntryIp: { max: 30, windowSeconds: 900 },
        withdrawalCodeAccount: { max: 10, windowSeconds: 3600 },
        withdrawalCodeIp: { max: 20, windowSeconds: 3600 },
        uploadAccount: { max: 20, windowSeconds: 3600 },
      },
    });
    expect(env.RATE_LIMITS).toEqual(DEFAULT_RATE_LIMITS);
  });

  it("runs the bot with a real token or a Bot API root, never with TELEGRAM_BOT=off", () => {
    const real = "7000000001:AAF-real-looking-token-000000000";
    expect(loadEnv({ TELEGRAM_BOT_TOKEN: real }).TELEGRAM_BOT_ENABLED).toBe(true);
    expect(loadEnv({ TELEGRAM_BOT_TOKEN: real, TELEGRAM_BOT: "off" }).TELEGRAM_BOT_ENABLED).toBe(false);
    expect(loadEnv({ TELEGRAM_API_ROOT: "http://127.0.0.1:9/" }).TELEGRAM_BOT_ENABLED).toBe(true);
    expect(loadEnv({ TELEGRAM_API_ROOT: "http://127.0.0.1:9/" }).TELEGRAM_API_ROOT).toBe("http://127.0.0.1:9");
    const hosted = loadEnv({ PUBLIC_URL: "https://kassa.example/" });
    expect([hosted.PUBLIC_URL, hosted.MINI_APP_URL]).toEqual(["https://kassa.example", "https://kassa.example/"]);
    expect(() => loadEnv({ TELEGRAM_WEBHOOK_SECRET: "short" })).toThrow(EnvError);
    expect(() => loadEnv({ PUBLIC_URL: "ftp://kassa.example" })).toThrow(EnvError);
  });

  it("reads every variable", () => {
    const env = loadEnv(
      {
        NODE_ENV: "production",
        HOST: "0.0.0.0",
        PORT: "9000",
        DATABASE_URL: "postgres://kassa@db:5432/kassa",
        DATA_DIR: "memory",
        STATIC_DIR: "",
        TELEGRAM_BOT_TOKEN: "7000000001:AAF-real-looking-token-000000000",
        TELEGRAM_AUTH_MAX_AGE_SECONDS: "3600",
        SEED_DEMO: "yes",
        LOG_LEVEL: "warn",
        OPERATOR_TOKEN: "a-long-operator-secret",
        SESSION_TTL_DAYS: "7",
        CODE_SECRET: "a-production-code-secret-of-32-chars+",
        TRUST_PROXY: "10.0.0.5",
        API_DOCS: "on",
        MAX_CONNECTIONS_PER_ADDRESS: "16",
        HEADERS_TIMEOUT_SECONDS: "5",
        RATE_LIMIT_UPLOAD_ACCOUNT: "3/60",
        RATE_LIMIT_LOGIN_ACCOUNT: "3/600",
        RATE_LIMIT_LOGIN_IP: "1000/900",
        RATE_LIMIT_REGISTER_IP: "off",
        RATE_LIMIT_CODE_REQUEST_ACCOUNT: "",
        RATE_LIMIT_CODE_REQUEST_IP: "OFF",
        RATE_LIMIT_CODE_ENTRY_IP: "100/60",
        ACCRUAL_INTERVAL_SECONDS: "0",
      },
      { cwd: "/srv/kassa" },
    );
    expect(env).toMatchObject({
      PORT: 9000,
      ACCRUAL_INTERVAL_SECONDS: 0,
      DATA_DIR: "memory",
      STATIC_DIR: null,
      TELEGRAM_AUTH_MAX_AGE_SECONDS: 3600,
      SEED_DEMO: true,
      OPERATOR_TOKEN: "a-long-operator-secret",
      SESSION_TTL_DAYS: 7,
      CODE_SECRET: "a-production-code-secret-of-32-chars+",
      TRUST_PROXY: "10.0.0.5",
      API_DOCS: true,
      MAX_CONNECTIONS_PER_ADDRESS: 16,
      HEADERS_TIMEOUT_SECONDS: 5,
      RATE_LIMITS: {
        loginAccount: { max: 3, windowSeconds: 600 },
        loginIp: { max: 1000, windowSeconds: 900 },
        registerIp: null,
        // Empty means "the default".
        codeRequestAccount: DEFAULT_RATE_LIMITS.codeRequestAccount,
        codeRequestIp: null,
        codeEntryIp: { max: 100, windowSeconds: 60 },
        uploadAccount: { max: 3, windowSeconds: 60 },
      },
    });
    expect(loadEnv({ TRUST_PROXY: "10.0.0.0/8, 127.0.0.1" }).TRUST_PROXY).toBe("10.0.0.0/8,127.0.0.1");
    expect(loadEnv({ TRUST_PROXY: "loopback,fd00::/8,::1" }).TRUST_PROXY).toBe("loopback,fd00::/8,::1");
    expect(loadEnv({ TRUST_PROXY: "0" }).TRUST_PROXY).toBe(false);
    // The headers' time never exceeds the whole request's; the docs are off in production unless asked.
    expect(loadEnv({ REQUEST_TIMEOUT_SECONDS: "3" }).HEADERS_TIMEOUT_SECONDS).toBe(3);
    expect(loadEnv(PRODUCTION).API_DOCS).toBe(false);
  });

  it("believes X-Forwarded-For only from listed proxy addresses: never true, never a number of hops", () => {
    // A hop count believes whoever connects, so a client reaching the instance directly names its own address.
    for (const value of ["true", "TRUE", "yes", "on", "1", "2", "10.0.0.0/33", "proxy.internal", "10.0.0.1,x"]) {
      expect(() => loadEnv({ TRUST_PROXY: value }), value).toThrow(/TRUST_PROXY must list the proxies' addresses/);
    }
  });

  it("refuses a CODE_SECRET that is long but not random", () => {
    for (const weak of ["a".repeat(32), "password".repeat(4), "0123456789abcdef".repeat(2), "ab".repeat(40)]) {
      expect(estimatedEntropyBits(weak), weak).toBeLessThan(88);
      expect(() => loadEnv({ ...PRODUCTION, CODE_SECRET: weak }), weak).toThrow(/CODE_SECRET is not random enough/);
    }
    // What the README suggests (openssl rand -base64 32, or -hex 32) passes, and so do 32 random hex digits.
    for (let i = 0; i < 50; i++) {
      for (const secret of [
        randomBytes(32).toString("base64"),
        randomBytes(32).toString("hex"),
        randomBytes(16).toString("hex"),
        randomBytes(24).toString("base64url"),
      ]) {
        expect(loadEnv({ ...PRODUCTION, CODE_SECRET: secret }).CODE_SECRET).toBe(secret);
      }
    }
  });

  it("refuses a non-loopback HOST outside production (the development routes and the demo account)", () => {
    for (const host of ["0.0.0.0", "::", "192.168.1.5", "kassa.example"]) {
      expect(() => loadEnv({ HOST: host }), host).toThrow(/HOST=.* outside production would expose/);
      expect(() => loadEnv({ NODE_ENV: "test", HOST: host }), host).toThrow(/outside production/);
    }
    for (const host of ["127.0.0.1", "localhost", "::1", "[::1]", "127.0.0.2"]) {
      expect(loadEnv({ HOST: host }).HOST).toBe(host);
    }
    expect(loadEnv({ ...PRODUCTION, HOST: "0.0.0.0" }).HOST).toBe("0.0.0.0");
  });

  it("requires CODE_SECRET whenever DATABASE_URL is set, so that every instance checks every code", () => {
    expect(() => loadEnv({ DATABASE_URL: "postgres://kassa@db/kassa" })).toThrow(
      /CODE_SECRET is required with DATABASE_URL/,
    );
    expect(
      loadEnv({ DATABASE_URL: "postgres://kassa@db/kassa", CODE_SECRET: PRODUCTION.CODE_SECRET }).CODE_SECRET,
    ).toBe(PRODUCTION.CODE_SECRET);
  });

  it("does not seed demo data in production unless asked", () => {
    const env = loadEnv(PRODUCTION);
    expect(env.SEED_DEMO).toBe(false);
    expect(loadEnv({ SEED_DEMO: "false" }).SEED_DEMO).toBe(false);
  });

  it("requires the bot's own token in production", () => {
    expect(() => loadEnv({ NODE_ENV: "production" })).toThrow(/TELEGRAM_BOT_TOKEN is required in production/);
    expect(() => loadEnv({ ...PRODUCTION, TELEGRAM_BOT_TOKEN: DEV_BOT_TOKEN })).toThrow(/public development token/);
    // The operator CLI needs no bot token.
    expect(loadEnv({ NODE_ENV: "production" }, { forCli: true }).NODE_ENV).toBe("production");
  });

  it("requires a code secret in production, since codes are stored under it", () => {
    const { CODE_SECRET: _, ...withoutSecret } = PRODUCTION;
    expect(() => loadEnv(withoutSecret)).toThrow(/CODE_SECRET is required in production/);
    expect(() => loadEnv({ ...PRODUCTION, CODE_SECRET: "short" })).toThrow(/CODE_SECRET must be at least 32/);
    expect(loadEnv(withoutSecret, { forCli: true }).CODE_SECRET).toBeUndefined();
  });

  it("names every invalid variable", () => {
    try {
      loadEnv({
        PORT: "eighty",
        SEED_DEMO: "perhaps",
        DATABASE_URL: "mysql://x",
        RATE_LIMIT_LOGIN_ACCOUNT: "five",
        SESSION_TTL_DAYS: "0",
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(EnvError);
      const message = (error as Error).message;
      for (const name of ["PORT", "SEED_DEMO", "DATABASE_URL", "RATE_LIMIT_LOGIN_ACCOUNT", "SESSION_TTL_DAYS"]) {
        expect(message).toContain(name);
      }
      expect(message).toContain("expected <max>/<window seconds>");
    }
  });
});
