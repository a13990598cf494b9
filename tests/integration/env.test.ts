/** The server's configuration: defaults that make `npm start` work anywhere, and production's demands. */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEV_BOT_TOKEN, EnvError, loadEnv } from "../../server/src/env";

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
      TELEGRAM_BOT_TOKEN: DEV_BOT_TOKEN,
      TELEGRAM_AUTH_MAX_AGE_SECONDS: 86_400,
      SEED_DEMO: true,
      LOG_LEVEL: "info",
      OPERATOR_TOKEN: undefined,
    });
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
      },
      { cwd: "/srv/kassa" },
    );
    expect(env).toMatchObject({
      PORT: 9000,
      DATA_DIR: "memory",
      STATIC_DIR: null,
      TELEGRAM_AUTH_MAX_AGE_SECONDS: 3600,
      SEED_DEMO: true,
      OPERATOR_TOKEN: "a-long-operator-secret",
    });
  });

  it("does not seed demo data in production unless asked", () => {
    const env = loadEnv({ NODE_ENV: "production", TELEGRAM_BOT_TOKEN: "7000000001:AAF-real-looking-token-000000000" });
    expect(env.SEED_DEMO).toBe(false);
    expect(loadEnv({ SEED_DEMO: "false" }).SEED_DEMO).toBe(false);
  });

  it("requires the bot's own token in production", () => {
    expect(() => loadEnv({ NODE_ENV: "production" })).toThrow(/TELEGRAM_BOT_TOKEN is required in production/);
    expect(() => loadEnv({ NODE_ENV: "production", TELEGRAM_BOT_TOKEN: DEV_BOT_TOKEN })).toThrow(
      /public development token/,
    );
    // The operator CLI needs no bot token.
    expect(loadEnv({ NODE_ENV: "production" }, { forCli: true }).NODE_ENV).toBe("production");
  });

  it("names every invalid variable", () => {
    try {
      loadEnv({ PORT: "eighty", SEED_DEMO: "perhaps", DATABASE_URL: "mysql://x" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(EnvError);
      const message = (error as Error).message;
      for (const name of ["PORT", "SEED_DEMO", "DATABASE_URL"]) expect(message).toContain(name);
    }
  });
});
