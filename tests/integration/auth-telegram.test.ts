/**
 * Telegram sign-in (docs/telegram.md#sign-in-with-telegram): init data signed by an independent implementation
 * (@telegram-apps/init-data-node) is accepted; tampered, expired and foreign-bot data is refused
 * with 400 (never 401, which the app reads as "session over"); the first sign-in creates the
 * account with the right login, language and inviter, later ones find it; the availability flag
 * switches the call off.
 */

import { type Language, routes } from "@contract";
import { SessionReply } from "@contract/auth";
import { sign } from "@telegram-apps/init-data-node";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "../../server/src/clock";
import * as schema from "../../server/src/db/schema";
import { setSetting } from "../../server/src/services/settings";
import { callRoute, createTestServer, injectRoute, type TestServer } from "./helpers";

const BOT_TOKEN = "7000000001:AAF-test-token-for-kassa-integration-tests";
const OTHER_BOT_TOKEN = "7000000002:AAF-another-bots-token-0000000000";
const clock = fixedClock("2026-04-01T12:00:00Z");

interface TgUser {
  id: number;
  first_name: string;
  last_name?: string;
  username?: string;
  language_code?: string;
}

let nextId = 5_000_000_000;
/** A Telegram user with a fresh id (ids above 2^32 occur in Telegram). */
const tgUser = (fields: Partial<TgUser> = {}): TgUser => ({ id: nextId++, first_name: "Aigerim", ...fields });

/** Init data as Telegram signs it, `ageSeconds` old. */
function initData(
  user: TgUser | undefined,
  options: { startParam?: string; token?: string; ageSeconds?: number } = {},
): string {
  const data: Record<string, unknown> = { query_id: "AAHdF6IQAAAAAN0XohDhrOrc" };
  if (user) data.user = user;
  if (options.startParam) data.start_param = options.startParam;
  const authDate = new Date(clock.now().getTime() - (options.ageSeconds ?? 5) * 1000);
  return sign(data as Parameters<typeof sign>[0], options.token ?? BOT_TOKEN, authDate);
}

let server: TestServer;

beforeAll(async () => {
  server = await createTestServer({
    clock,
    env: { TELEGRAM_BOT_TOKEN: BOT_TOKEN, TELEGRAM_AUTH_MAX_AGE_SECONDS: "3600" },
  });
});

afterAll(async () => {
  await server?.close();
});

const telegram = (raw: string, inviter?: string, language?: Language) => {
  const body = { initData: raw, ...(language ? { language } : {}) };
  return inviter
    ? injectRoute(server, routes.telegramAuthInvited, { params: { inviter }, body })
    : injectRoute(server, routes.telegramAuth, { body });
};

async function profile(token: string) {
  return callRoute(server, "userDataByType", { token, params: { type: "profile" } });
}

async function countTelegramUsers(id: number) {
  const [row] = await server.handle.db
    .select({ n: sql<number>`count(*)::int` })
    .from(schema.users)
    .where(eq(schema.users.telegramId, id));
  return row?.n ?? 0;
}

describe("POST /api/auth/telegram", () => {
  it("creates the account at the first sign-in and finds it at the next", async () => {
    const user = tgUser({ last_name: "Tester", username: "aigerimt", language_code: "kk" });
    const first = await telegram(initData(user));
    expect(first.status).toBe(200);
    const reply = SessionReply.parse(first.body);
    expect(reply.user).toMatchObject({
      login: "aigerimt",
      fullName: "Aigerim Tester",
      language: "kk",
      telegramLinked: true,
      phone: null,
      phoneConfirmed: false,
    });
    expect(reply.phoneConfirmationRequired).toBe(false);
    expect(await profile(reply.refreshToken)).toMatchObject({ codeChannel: "telegram", inviter: "kassa" });

    const again = await telegram(initData({ ...user, username: "renamed1" }));
    expect(again.status).toBe(200);
    expect(SessionReply.parse(again.body).user.id).toBe(reply.user.id);
    expect(SessionReply.parse(again.body).user.login).toBe("aigerimt");
    expect(again.body.refreshToken).not.toBe(reply.refreshToken);
    expect(await countTelegramUsers(user.id)).toBe(1);
  });

  it("reuses the session when the same init data is replayed, instead of minting one per replay", async () => {
    const user = tgUser();
    const raw = initData(user);
    const first = SessionReply.parse((await telegram(raw)).body);
    const sessionCount = async () => {
      const [row] = await server.handle.db
        .select({ n: sql<number>`count(*)::int` })
        .from(schema.sessions)
        .where(eq(schema.sessions.userId, first.user.id));
      return row?.n ?? 0;
    };
    const replays = await Promise.all(Array.from({ length: 5 }, () => telegram(raw)));
    for (const replay of replays) expect(replay.body.refreshToken).toBe(first.refreshToken);
    expect(await sessionCount()).toBe(1);

    // The same signature in other letter cases (Telegram's hash is accepted in any case) is the same
    // init data, not a new proof: it must not mint a session per variant.
    const hash = new URLSearchParams(raw).get("hash") ?? "";
    const variants = [hash.toUpperCase(), hash.replace(/[a-f]/, (c) => c.toUpperCase())].map((h) =>
      raw.replace(`hash=${hash}`, `hash=${h}`),
    );
    expect(variants.every((v) => v !== raw)).toBe(true);
    for (const variant of variants) {
      const replay = await telegram(variant);
      expect(replay.status).toBe(200);
      expect(replay.body.refreshToken).toBe(first.refreshToken);
    }
    expect(await sessionCount()).toBe(1);
  });

  it("refuses init data whose session was signed out, and signs in a fresh launch", async () => {
    const user = tgUser();
    const raw = initData(user, { ageSeconds: 60 });
    const first = SessionReply.parse((await telegram(raw)).body);
    await callRoute(server, "logout", { token: first.refreshToken });

    // The captured init data (and its letter-case variants) opens nothing after the logout.
    const hash = new URLSearchParams(raw).get("hash") ?? "";
    for (const replay of [raw, raw.replace(`hash=${hash}`, `hash=${hash.toUpperCase()}`)]) {
      const res = await telegram(replay);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: "VERIFICATION_FAILED",
        message: "Verification error",
        params: { reason: "signed_out" },
      });
    }
    const [live] = await server.handle.db
      .select({ n: sql<number>`count(*)::int` })
      .from(schema.sessions)
      .where(sql`${schema.sessions.userId} = ${first.user.id} and ${schema.sessions.revokedAt} is null`);
    expect(live?.n).toBe(0);

    // A fresh launch from Telegram (new init data, a newer auth_date) signs in as before.
    const fresh = await telegram(initData(user, { ageSeconds: 1 }));
    expect(fresh.status).toBe(200);
    const again = SessionReply.parse(fresh.body);
    expect(again.user.id).toBe(first.user.id);
    expect((await profile(again.refreshToken)).login).toBe(first.user.login);
  });

  it("accepts init data for one hour by default", async () => {
    const defaults = await createTestServer({ clock, seed: false, env: { TELEGRAM_BOT_TOKEN: BOT_TOKEN } });
    try {
      const post = (raw: string) => injectRoute(defaults, routes.telegramAuth, { body: { initData: raw } });
      expect((await post(initData(tgUser(), { ageSeconds: 3500 }))).status).toBe(200);
      expect((await post(initData(tgUser(), { ageSeconds: 3700 }))).body).toMatchObject({
        code: "VERIFICATION_FAILED",
        params: { reason: "expired" },
      });
    } finally {
      await defaults.close();
    }
  });

  it("takes the username without its underscores when that is a free login", async () => {
    const underscore = tgUser({ username: "nurlan_b_2026" });
    expect((await telegram(initData(underscore))).body.user).toMatchObject({ login: "nurlanb2026" });
    // The same name again (another Telegram account): taken, so tg<id>.
    const again = tgUser({ username: "nurlan_b2026" });
    expect((await telegram(initData(again))).body.user).toMatchObject({ login: `tg${again.id}` });
  });

  it("falls back to tg<id> when the username is not a valid login or is taken", async () => {
    const short = tgUser({ username: "a_b_c" });
    expect((await telegram(initData(short))).body.user).toMatchObject({ login: `tg${short.id}` });
    const taken = tgUser({ username: "DEMO" });
    expect((await telegram(initData(taken))).body.user).toMatchObject({ login: `tg${taken.id}` });
    const none = tgUser();
    expect((await telegram(initData(none))).body.user).toMatchObject({ login: `tg${none.id}` });
  });

  it("takes the language from Telegram when offered, else the app's, else Russian", async () => {
    expect((await telegram(initData(tgUser({ language_code: "de" })))).body.user).toMatchObject({ language: "de" });
    expect((await telegram(initData(tgUser({ language_code: "en-GB" })))).body.user).toMatchObject({
      language: "en",
    });
    expect((await telegram(initData(tgUser({ language_code: "pt-br" })), undefined, "de")).body.user).toMatchObject({
      language: "de",
    });
    expect((await telegram(initData(tgUser({ language_code: "pt-br" })))).body.user).toMatchObject({ language: "ru" });
  });

  it("records the inviter from the path, else from start_param ref_<login>, else the default", async () => {
    const fromPath = await telegram(initData(tgUser(), { startParam: "ref_kassa" }), "demo");
    expect(await profile(fromPath.body.refreshToken as string)).toMatchObject({ inviter: "demo" });

    const fromStart = await telegram(initData(tgUser(), { startParam: "ref_DEMO" }));
    expect(await profile(fromStart.body.refreshToken as string)).toMatchObject({ inviter: "demo" });

    const unknownStart = await telegram(initData(tgUser(), { startParam: "ref_ghost42" }));
    expect(unknownStart.status).toBe(200);
    expect(await profile(unknownStart.body.refreshToken as string)).toMatchObject({ inviter: "kassa" });

    const otherStart = await telegram(initData(tgUser(), { startParam: "promo_spring" }));
    expect(await profile(otherStart.body.refreshToken as string)).toMatchObject({ inviter: "kassa" });
  });

  it("refuses an unknown inviter in the path for a new account, and ignores it for an existing one", async () => {
    const user = tgUser();
    const refused = await telegram(initData(user), "ghost42");
    expect(refused).toMatchObject({
      status: 400,
      body: { code: "REGISTRATION_FAILED", message: "Registration error", fields: { inviter: "required" } },
    });
    expect(await countTelegramUsers(user.id)).toBe(0);

    expect((await telegram(initData(user))).status).toBe(200);
    expect((await telegram(initData(user), "ghost42")).status).toBe(200);
  });

  it("refuses tampered, expired, foreign-bot and user-less init data with 400 VERIFICATION_FAILED", async () => {
    const user = tgUser({ username: "tamperer1" });
    const good = initData(user);
    const tampered = good.replace(encodeURIComponent(`"id":${user.id}`), encodeURIComponent('"id":1'));
    expect(tampered).not.toBe(good);

    const cases: [string, string][] = [
      [tampered, "hash_mismatch"],
      [`${good}&is_admin=true`, "hash_mismatch"],
      [initData(user, { token: OTHER_BOT_TOKEN }), "hash_mismatch"],
      [initData(user, { ageSeconds: 3601 }), "expired"],
      [initData(user, { ageSeconds: -3600 }), "auth_date_in_future"],
      [good.replace(/&?hash=[0-9a-f]+/, ""), "hash_missing"],
      [initData(undefined), "user_missing"],
    ];
    for (const [raw, reason] of cases) {
      const res = await telegram(raw);
      expect(res.status, reason).toBe(400);
      expect(res.body, reason).toEqual({
        code: "VERIFICATION_FAILED",
        message: "Verification error",
        params: { reason },
      });
    }
    expect(await countTelegramUsers(user.id)).toBe(0);
    // Just inside the allowed age it is fine.
    expect((await telegram(initData(user, { ageSeconds: 3599 }))).status).toBe(200);
  });

  it("answers 404 NOT_FOUND while Telegram sign-in is switched off", async () => {
    await setSetting(server.handle.db, clock, "telegramAuthAvailable", false);
    try {
      for (const inviter of [undefined, "demo"]) {
        const res = await telegram(initData(tgUser()), inviter);
        expect(res).toMatchObject({ status: 404, body: { code: "NOT_FOUND" } });
      }
    } finally {
      await setSetting(server.handle.db, clock, "telegramAuthAvailable", true);
    }
    expect((await telegram(initData(tgUser()))).status).toBe(200);
  });

  it("creates one account when the same user signs in twice at once", async () => {
    const user = tgUser({ username: "twice2026" });
    const raw = initData(user);
    const [a, b] = await Promise.all([telegram(raw), telegram(raw)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.user).toEqual(b.body.user);
    expect(await countTelegramUsers(user.id)).toBe(1);
  });

  it("signs in with the init data of the development launch (GET /api/dev/telegram-launch)", async () => {
    const launch = await server.app.inject({
      method: "GET",
      url: "/api/dev/telegram-launch?login=devtester1&startParam=ref_demo&lang=de",
    });
    const fragment = new URLSearchParams(new URL(String(launch.headers.location), "http://kassa.test").hash.slice(1));
    const res = await telegram(fragment.get("tgWebAppData") ?? "");
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ login: "devtester1", language: "de", telegramLinked: true });
    expect(await profile(res.body.refreshToken as string)).toMatchObject({ inviter: "demo" });
  });

  it("checks the body", async () => {
    const res = await injectRoute(server, routes.telegramAuth, { body: { initData: "" } });
    expect(res).toMatchObject({ status: 400, body: { code: "VALIDATION_FAILED", fields: { initData: "required" } } });
  });
});
