/**
 * Telegram init data: our validator agrees with an independent implementation
 * (@telegram-apps/init-data-node), and the development launch opens the app with init data that
 * validates against the development bot token.
 */

import { operatorRoutes } from "@contract/operator";
import { sign, validate } from "@telegram-apps/init-data-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_BOT_TOKEN } from "../../server/src/env";
import { signInitData, validateInitData } from "../../server/src/security/telegram-init-data";
import { DEV_DARK_THEME, DEV_LIGHT_THEME, devTelegramUserId } from "../../server/src/telegram/dev-launch";
import { createTestServer, injectRoute, TEST_CODE_SECRET, TEST_OPERATOR_TOKEN, type TestServer } from "./helpers";

const BOT_TOKEN = "7000000001:AAF-test-token-for-kassa-integration-tests";
const NOW = new Date("2026-04-01T12:00:00Z");
const DAY = 86_400;

const user = {
  id: 424242,
  first_name: "Aigerim",
  last_name: "Tester",
  username: "aigerim_t",
  language_code: "kk",
  allows_write_to_pm: true,
};

/** Init data signed by the independent library. */
function signedByLibrary(authDate: Date, token = BOT_TOKEN, extra: Record<string, unknown> = {}): string {
  return sign({ user, query_id: "AAHdF6IQAAAAAN0XohDhrOrc", ...extra } as Parameters<typeof sign>[0], token, authDate);
}

describe("validateInitData", () => {
  it("accepts init data signed by another implementation and returns its user", () => {
    const raw = signedByLibrary(new Date(NOW.getTime() - 60_000), BOT_TOKEN, { start_param: "ref_kassa" });
    const result = validateInitData(raw, BOT_TOKEN, DAY, NOW);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.data.user).toMatchObject({ id: 424242, username: "aigerim_t", language_code: "kk" });
    expect(result.data.startParam).toBe("ref_kassa");
    expect(result.data.authDate.toISOString()).toBe("2026-04-01T11:59:00.000Z");
  });

  it("refuses a tampered field", () => {
    const raw = signedByLibrary(NOW);
    const tampered = raw.replace(encodeURIComponent('"id":424242'), encodeURIComponent('"id":1'));
    expect(tampered).not.toBe(raw);
    expect(validateInitData(tampered, BOT_TOKEN, DAY, NOW)).toEqual({ ok: false, reason: "hash_mismatch" });
  });

  it("refuses an added field", () => {
    const raw = `${signedByLibrary(NOW)}&is_admin=true`;
    expect(validateInitData(raw, BOT_TOKEN, DAY, NOW)).toEqual({ ok: false, reason: "hash_mismatch" });
  });

  it("refuses init data signed with another bot's token", () => {
    const raw = signedByLibrary(NOW, "7000000002:AAF-another-bots-token-0000000000");
    expect(validateInitData(raw, BOT_TOKEN, DAY, NOW)).toEqual({ ok: false, reason: "hash_mismatch" });
  });

  it("refuses init data older than the allowed age, and accepts it just inside", () => {
    const old = signedByLibrary(new Date(NOW.getTime() - (DAY + 1) * 1000));
    expect(validateInitData(old, BOT_TOKEN, DAY, NOW)).toEqual({ ok: false, reason: "expired" });
    const recent = signedByLibrary(new Date(NOW.getTime() - (DAY - 1) * 1000));
    expect(validateInitData(recent, BOT_TOKEN, DAY, NOW).ok).toBe(true);
  });

  it("refuses init data dated in the future", () => {
    const raw = signedByLibrary(new Date(NOW.getTime() + 3_600_000));
    expect(validateInitData(raw, BOT_TOKEN, DAY, NOW)).toEqual({ ok: false, reason: "auth_date_in_future" });
  });

  it("refuses data without a hash, with a malformed hash, or with a repeated field", () => {
    const raw = signedByLibrary(NOW);
    const withoutHash = raw.replace(/&?hash=[0-9a-f]+/, "");
    expect(validateInitData(withoutHash, BOT_TOKEN, DAY, NOW)).toEqual({ ok: false, reason: "hash_missing" });
    expect(validateInitData(raw.replace(/hash=[0-9a-f]+/, "hash=xyz"), BOT_TOKEN, DAY, NOW)).toEqual({
      ok: false,
      reason: "hash_mismatch",
    });
    expect(validateInitData(`${raw}&auth_date=1`, BOT_TOKEN, DAY, NOW)).toEqual({ ok: false, reason: "malformed" });
    expect(validateInitData("", BOT_TOKEN, DAY, NOW)).toEqual({ ok: false, reason: "hash_missing" });
  });
});

describe("signInitData", () => {
  it("produces init data the independent library accepts", () => {
    const raw = signInitData({ user, authDate: NOW, startParam: "ref_demo" }, BOT_TOKEN);
    expect(() => validate(raw, BOT_TOKEN, { expiresIn: 0 })).not.toThrow();
    expect(() => validate(raw, "7000000002:AAF-another-bots-token-0000000000", { expiresIn: 0 })).toThrow();
  });

  it("round-trips through validateInitData", () => {
    const raw = signInitData({ user, authDate: NOW, queryId: "AAq1" }, BOT_TOKEN);
    const result = validateInitData(raw, BOT_TOKEN, DAY, NOW);
    expect(result).toMatchObject({ ok: true, data: { user, queryId: "AAq1", startParam: undefined } });
  });
});

describe("GET /api/dev/telegram-launch", () => {
  let dev: TestServer;
  let production: TestServer;

  beforeAll(async () => {
    dev = await createTestServer({ seed: false, env: { NODE_ENV: "development" } });
    production = await createTestServer({
      seed: false,
      handle: dev.handle,
      // The API document is off in production unless API_DOCS turns it on; here it is on, to see what it shows.
      env: { NODE_ENV: "production", TELEGRAM_BOT_TOKEN: BOT_TOKEN, CODE_SECRET: TEST_CODE_SECRET, API_DOCS: "on" },
    });
  });

  afterAll(async () => {
    await production?.close();
    await dev?.close();
  });

  function launchParams(location: string) {
    const url = new URL(location, "http://kassa.test");
    return { url, fragment: new URLSearchParams(url.hash.slice(1)) };
  }

  it("redirects to the app with Telegram's launch parameters and valid signed init data", async () => {
    const res = await dev.app.inject({
      method: "GET",
      url: "/api/dev/telegram-launch?login=alice_tg&startParam=ref_kassa&platform=android",
    });
    expect(res.statusCode).toBe(302);
    const { url, fragment } = launchParams(String(res.headers.location));
    expect(url.pathname).toBe("/");
    expect(url.searchParams.get("tgDevMock")).toBe("1");
    expect(fragment.get("tgWebAppVersion")).toBe("8.0");
    expect(fragment.get("tgWebAppPlatform")).toBe("android");
    expect(fragment.get("tgWebAppStartParam")).toBe("ref_kassa");
    expect(JSON.parse(fragment.get("tgWebAppThemeParams") ?? "")).toEqual(DEV_DARK_THEME);

    const initData = fragment.get("tgWebAppData") ?? "";
    const result = validateInitData(initData, DEV_BOT_TOKEN, DAY, new Date());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.data.user).toMatchObject({ username: "alice_tg", id: devTelegramUserId("alice_tg") });
    expect(result.data.startParam).toBe("ref_kassa");
    // The independent implementation agrees.
    expect(() => validate(initData, DEV_BOT_TOKEN)).not.toThrow();
  });

  it("offers Telegram's day theme and the iOS platform by query switches", async () => {
    const res = await dev.app.inject({ method: "GET", url: "/api/dev/telegram-launch?theme=light&platform=ios" });
    expect(res.statusCode).toBe(302);
    const { fragment } = launchParams(String(res.headers.location));
    expect(fragment.get("tgWebAppPlatform")).toBe("ios");
    expect(JSON.parse(fragment.get("tgWebAppThemeParams") ?? "")).toEqual(DEV_LIGHT_THEME);
    const dark = await dev.app.inject({ method: "GET", url: "/api/dev/telegram-launch?theme=dark" });
    expect(JSON.parse(launchParams(String(dark.headers.location)).fragment.get("tgWebAppThemeParams") ?? "")).toEqual(
      DEV_DARK_THEME,
    );
    const unknown = await dev.app.inject({ method: "GET", url: "/api/dev/telegram-launch?theme=sepia" });
    expect(unknown.statusCode).toBe(400);
  });

  it("defaults to a tester on Telegram Desktop without a start parameter", async () => {
    const res = await dev.app.inject({ method: "GET", url: "/api/dev/telegram-launch" });
    expect(res.statusCode).toBe(302);
    const { fragment } = launchParams(String(res.headers.location));
    expect(fragment.get("tgWebAppPlatform")).toBe("tdesktop");
    expect(fragment.has("tgWebAppStartParam")).toBe(false);
    expect(res.headers["cache-control"]).toBe("no-store");
  });

  it("does not exist in production", async () => {
    const res = await production.app.inject({ method: "GET", url: "/api/dev/telegram-launch" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: "NOT_FOUND", message: "Not found" });
    const docs = (await production.app.inject({ method: "GET", url: "/api/docs/json" })).json() as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(docs.paths).some((p) => p.startsWith("/api/dev/"))).toBe(false);
  });

  it("publishes no operator route in the production API document, while the routes still answer the token", async () => {
    const docs = (await production.app.inject({ method: "GET", url: "/api/docs/json" })).json() as {
      paths: Record<string, unknown>;
      tags: { name: string }[];
    };
    expect(Object.keys(docs.paths).some((p) => p.startsWith("/api/operator"))).toBe(false);
    expect(docs.tags.map((t) => t.name)).not.toContain("operator");
    expect(Object.keys(docs.paths)).toContain("/api/auth/login");
    const audit = await injectRoute(production, operatorRoutes.auditLedger, { token: TEST_OPERATOR_TOKEN });
    expect(audit.status).toBe(200);
    // Outside production the document keeps them (the test above is not vacuous).
    const devDocs = (await dev.app.inject({ method: "GET", url: "/api/docs/json" })).json() as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(devDocs.paths).some((p) => p.startsWith("/api/operator"))).toBe(true);
  });
});
