/** The settings calls (docs/cabinet-rules.md#api-calls), as a client sees them, against the seeded demo database. */
import { ApiErrorBody, DECIMAL_PATTERN, routes, SettingReply } from "@contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemClock } from "../../server/src/clock";
import { setSetting } from "../../server/src/services/settings";
import { callRoute, createTestServer, type TestServer } from "./helpers";

let server: TestServer;

beforeAll(async () => {
  server = await createTestServer();
});

afterAll(async () => {
  await server?.close();
});

/** A raw GET, for what the typed client would hide: the reply's text, fields it drops, keys it refuses. */
const get = (url: string) => server.app.inject({ method: "GET", url: `/api${url}` });

describe("GET /settings/telegramAuthAvailable", () => {
  it("says Telegram sign-in is available on a fresh install", async () => {
    expect(await callRoute(server, "telegramAuthAvailable")).toEqual({ available: true });
  });

  it("follows the setting", async () => {
    await setSetting(server.handle.db, systemClock, "telegramAuthAvailable", false);
    try {
      expect(await callRoute(server, "telegramAuthAvailable")).toEqual({ available: false });
    } finally {
      await setSetting(server.handle.db, systemClock, "telegramAuthAvailable", true);
    }
  });
});

describe("GET /settings/technical_work", () => {
  it("reports no maintenance on a fresh install", async () => {
    expect(await callRoute(server, "technicalWork")).toEqual({ enabled: false, message: null, until: null });
  });
});

describe("GET /settings/subscription/options", () => {
  it("lists the two subscriptions with prices as decimal strings and titles in four languages", async () => {
    const options = await callRoute(server, "subscriptionOptions");
    expect(options.map((o) => [o.id, o.price, o.currency, o.durationDays])).toEqual([
      ["month", "10", "USDT", 30],
      ["year", "100", "USDT", 365],
    ]);
    expect(options[0]?.title).toEqual({
      en: "Monthly subscription",
      ru: "Подписка на месяц",
      de: "Monatsabo",
      kk: "Айлық жазылым",
    });
  });
});

describe("GET /settings/:key", () => {
  it.each([
    ["defaultInviter", "kassa"],
    ["botUsername", "KassaCabinetBot"],
    ["referralLines", ["5", "3", "1"]],
  ])("serves the public setting %s", async (key, value) => {
    const res = await get(`/settings/${key}`);
    expect(res.statusCode).toBe(200);
    expect(SettingReply.parse(res.json())).toEqual({ key, value });
  });

  it("serves what a subscription gives: nothing said by default, the operator's words once set, a half-said one refused", async () => {
    const benefit = () => callRoute(server, "setting", { params: { key: "subscriptionBenefit" } });
    expect((await benefit()).value).toEqual({});
    const words = {
      en: "Priority support",
      ru: "Приоритетная поддержка",
      de: "Vorrangiger Support",
      kk: "Басым қолдау",
    };
    await setSetting(server.handle.db, systemClock, "subscriptionBenefit", words);
    expect((await benefit()).value).toEqual(words);
    await expect(
      setSetting(server.handle.db, systemClock, "subscriptionBenefit", { en: "Only English" }),
    ).rejects.toThrow();
    await setSetting(server.handle.db, systemClock, "subscriptionBenefit", {});
    expect((await benefit()).value).toEqual({});
  });

  it("serves the support link", async () => {
    const body = await callRoute(server, "setting", { params: { key: "supportUrl" } });
    expect(body.value).toMatch(/^https:\/\//);
  });

  it.each(["codes", "technicalWork", "no-such-key", "__proto__"])(
    "answers 404 NOT_FOUND for the private or unknown key %s, revealing nothing",
    async (key) => {
      const res = await get(`/settings/${key}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: "NOT_FOUND", message: "Not found" });
      expect(ApiErrorBody.safeParse(res.json()).success).toBe(true);
    },
  );
});

describe("GET /settings_other/plans/available", () => {
  it("lists the active plans in display order with exact decimal strings", async () => {
    const plans = await callRoute(server, "plansAvailable");
    expect(plans.map((p) => [p.id, p.dailyYieldPercent, p.durationDays, p.minAmount, p.maxAmount])).toEqual([
      ["start", "1", 30, "10", "1000"],
      ["standard", "1.5", 60, "100", "10000"],
      ["premium", "2", 90, "1000", "100000"],
    ]);
    expect(plans[1]?.name).toEqual({ en: "Standard", ru: "Стандарт", de: "Standard", kk: "Стандарт" });
  });

  it("sends amounts as strings, never JSON numbers", async () => {
    const text = (await get(routes.plansAvailable.path)).body;
    expect(text).not.toMatch(/"(minAmount|maxAmount|dailyYieldPercent)":\d/);
  });
});

describe("GET /payment-systems", () => {
  it("lists the five demo payment systems in display order", async () => {
    const systems = await callRoute(server, "paymentSystems");
    expect(systems.map((s) => [s.id, s.currency, s.network])).toEqual([
      ["usdt-trc20", "USDT", "TRC20"],
      ["usdt-erc20", "USDT", "ERC20"],
      ["btc", "BTC", "Bitcoin"],
      ["eth", "ETH", "ERC20"],
      ["ton", "TON", "TON"],
    ]);
    for (const s of systems) {
      for (const amount of [s.minWithdrawal, s.maxWithdrawal, s.withdrawalFeePercent]) {
        expect(amount).toMatch(DECIMAL_PATTERN);
      }
    }
    expect(systems.find((s) => s.id === "btc")).toMatchObject({ minWithdrawal: "0.0005", withdrawalFeePercent: "0.5" });
  });

  it("keeps the deposit address and its pattern on the server side of this call", async () => {
    const [first] = (await get(routes.paymentSystems.path)).json() as Record<string, unknown>[];
    expect(first).not.toHaveProperty("address");
    expect(first).not.toHaveProperty("addressPattern");
  });
});

describe("GET /api/health", () => {
  it("answers ok with a request id", async () => {
    const res = await get("/health");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });
});
