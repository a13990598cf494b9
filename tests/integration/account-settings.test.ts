/**
 * The Settings screen's server side: password change, settings data and the phone change, security channels,
 * notifications, news (sanitised), subscription, avatar and verification uploads with the
 * operator's decision. Every Settings and Verification message of the catalogue is reached.
 */
import fs from "node:fs";
import path from "node:path";
import { ERRORS, Profile, routes, User } from "@contract";
import { operatorRoutes } from "@contract/operator";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemClock } from "../../server/src/clock";
import * as schema from "../../server/src/db/schema";
import { ChannelCodeSender } from "../../server/src/delivery/code-sender";
import { securitySettings } from "../../server/src/services/account";
import { runAccruals } from "../../server/src/services/accruals";
import { addNews } from "../../server/src/services/news";
import { processWithdrawal } from "../../server/src/services/withdrawals";
import {
  callRoute,
  createTestServer,
  injectRoute,
  lastCode,
  outbox,
  registerUser,
  TEST_OPERATOR_TOKEN,
  type TestServer,
  tempDir,
} from "./helpers";
import { expectLedgerConsistent, fund, newInvestor, pendingWithdrawal } from "./money";
import { multipart, type Part, tinyJpeg, tinyPng } from "./multipart";

let server: TestServer;
const uploads = tempDir("kassa-uploads-");

beforeAll(async () => {
  server = await createTestServer({ env: { UPLOAD_DIR: uploads.dir } });
});
afterAll(async () => {
  await server.close();
  uploads.remove();
});

// ---------------------------------------------------------------------------------------------
// Images and multipart

async function upload(method: "PATCH", url: string, parts: Part[], token: string) {
  const { payload, contentType } = multipart(parts);
  const res = await server.app.inject({
    method,
    url: `/api${url}`,
    payload,
    headers: { authorization: `Bearer ${token}`, "content-type": contentType },
  });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> };
}

const png = (name = "avatar", filename = "me.png") => ({ name, filename, type: "image/png", data: tinyPng() });

function verificationParts(overrides: Partial<Record<string, string>> = {}): Part[] {
  const fields = {
    fullName: "Aigerim Sadykova",
    dateOfBirth: "1990-04-12",
    familyStatus: "married",
    documentNumber: "N1234567",
    ...overrides,
  };
  return [
    ...Object.entries(fields).map(([name, value]) => ({ name, value: value as string })),
    png("documentPhoto", "doc.png"),
    { name: "loginPhoto", filename: "login.jpg", type: "image/jpeg", data: tinyJpeg() },
    png("walletPhoto", "wallet.png"),
  ];
}

// ---------------------------------------------------------------------------------------------

describe("PATCH /user/password", () => {
  it("refuses a wrong old password, a mismatched repeat and a simple password; then revokes every other session", async () => {
    const { token, body } = await registerUser(server);
    const other = await callRoute(server, "login", { body: { login: body.login, password: body.password } });
    const otherToken = other.refreshToken as string;

    const mismatch = await injectRoute(server, routes.changePassword, {
      token,
      body: { oldPassword: body.password, password: "Meadowlark77", passwordRepeat: "Meadowlark78" },
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body).toMatchObject({ code: "NEW_PASSWORDS_MISMATCH", message: "New passwords do not match" });

    const wrongOld = await injectRoute(server, routes.changePassword, {
      token,
      body: { oldPassword: "Nope12345x", password: "Meadowlark77", passwordRepeat: "Meadowlark77" },
    });
    expect(wrongOld.body).toMatchObject({
      code: "OLD_PASSWORD_INCORRECT",
      message: "You entered the old password incorrectly.",
    });

    const simple = await injectRoute(server, routes.changePassword, {
      token,
      body: { oldPassword: body.password, password: "password1", passwordRepeat: "password1" },
    });
    expect(simple.status).toBe(400);
    expect(simple.body).toMatchObject({ code: "VALIDATION_FAILED", fields: { password: "passwordTooSimple" } });

    const ok = await callRoute(server, "changePassword", {
      token,
      body: { oldPassword: body.password, password: "Meadowlark77", passwordRepeat: "Meadowlark77" },
    });
    expect(ok).toMatchObject({ ok: true });
    await callRoute(server, "currentUser", { token });
    expect((await injectRoute(server, routes.currentUser, { token: otherToken })).status).toBe(401);
    await callRoute(server, "login", { body: { login: body.login, password: "Meadowlark77" } });
    const [row] = await server.handle.db.select().from(schema.users).where(eq(schema.users.login, body.login));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
  });
});

describe("settings data", () => {
  it("updates name, city and country through both calls; the registration date stays", async () => {
    const { token } = await registerUser(server);
    const before = await callRoute(server, "userDataByType", { token, params: { type: "profile" } });
    const patched = await callRoute(server, "updateUserData", { token, body: { fullName: "Dana K", city: "Almaty" } });
    expect(patched.profile).toMatchObject({ fullName: "Dana K", city: "Almaty", country: null });
    // The registration date is no field of the call: sent anyway, it is ignored.
    const stray = { registeredAt: "2000-01-01" };
    const posted = await callRoute(server, "updateProfile", { token, body: { country: "Kazakhstan", ...stray } });
    const profile = Profile.parse(posted.profile);
    expect(profile).toMatchObject({ fullName: "Dana K", city: "Almaty", country: "Kazakhstan" });
    expect(profile.registeredAt).toBe((before as { registeredAt: string }).registeredAt);
    expect(User.parse(posted.user).fullName).toBe("Dana K");
  });

  it("changes the phone only after the new one's code; a taken phone is refused", async () => {
    const taken = await registerUser(server);
    const { token, body } = await registerUser(server);
    const refused = await injectRoute(server, routes.updateUserData, { token, body: { phone: taken.body.phone } });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: "PHONE_TAKEN", message: "This Phone Number is already registered" });

    const next = "+15550199123";
    const pending = await callRoute(server, "updateUserData", { token, body: { phone: next } });
    expect(pending.profile).toMatchObject({ phone: body.phone, pendingPhone: next });
    expect(pending.phoneCode).toMatchObject({ message: "Request successfully sent" });
    const code = await lastCode(server, body.login, "phone");
    const wrong = await injectRoute(server, routes.confirmPhoneChange, {
      token,
      body: { code: code === "000000" ? "111111" : "000000" },
    });
    expect(wrong.body.code).toBe("CODE_MISMATCH");
    const confirmed = await callRoute(server, "confirmPhoneChange", { token, body: { code } });
    expect(confirmed.profile).toMatchObject({ phone: next, phoneConfirmed: true, pendingPhone: null });
  });

  it("stores the chosen language: the reply, /user/me and the inbox's texts follow it; an unknown one is refused", async () => {
    const db = server.handle.db;
    const investor = await newInvestor(db, systemClock);
    await fund(db, systemClock, investor.id, "USDT", "25");
    const english = await callRoute(server, "notifications", { token: investor.token });
    expect(english.items[0]).toMatchObject({ kind: "refill_credited", title: "Refill credited" });
    // Read once, so the user as the session keeps it is cached before the change.
    expect((await callRoute(server, "currentUser", { token: investor.token })).language).toBe("en");

    const patched = await callRoute(server, "updateUserData", { token: investor.token, body: { language: "de" } });
    expect(patched.user.language).toBe("de");
    expect(patched.profile.language).toBe("de");
    expect((await callRoute(server, "currentUser", { token: investor.token })).language).toBe("de");
    const german = await callRoute(server, "notifications", { token: investor.token });
    expect(german.items[0]).toMatchObject({
      kind: "refill_credited",
      title: "Einzahlung gutgeschrieben",
      body: "25,00 USDT wurden Ihrem Guthaben gutgeschrieben.",
    });

    // The other spelling of the call takes it too; other fields stay.
    const kazakh = await callRoute(server, "updateProfile", { token: investor.token, body: { language: "kk" } });
    expect(kazakh.profile).toMatchObject({ language: "kk", fullName: "Money Test" });
    for (const route of [routes.updateUserData, routes.updateProfile]) {
      const refused = await injectRoute(server, route, { token: investor.token, body: { language: "fr" as never } });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: "VALIDATION_FAILED", message: ERRORS.VALIDATION_FAILED.message });
      expect(Object.keys((refused.body as { fields: Record<string, string> }).fields)).toEqual(["language"]);
    }
    expect(
      (await callRoute(server, "userDataByType", { token: investor.token, params: { type: "profile" } })).language,
    ).toBe("kk");
  });

  it("answers 'Update error {error}' with params.error when the store fails", async () => {
    const { token } = await registerUser(server);
    const res = await injectRoute(server, routes.updateUserData, { token, body: { fullName: "x".repeat(201) } });
    expect(res.status).toBe(400);
    // The schema refuses it first; the service's failures carry params.error:
    expect(ERRORS.UPDATE_FAILED.message).toBe("Update error {error}");
    const { errorBody } = await import("../../server/src/errors");
    expect(errorBody("UPDATE_FAILED", { params: { error: "could not save" } }).message).toBe(
      "Update error could not save",
    );
  });
});

describe("security setting", () => {
  it("offers confirmed channels only and refuses the others", async () => {
    const { token, body } = await registerUser(server);
    const initial = await callRoute(server, "securitySettings", { token });
    const email = `${body.email.slice(0, 1)}***${body.email.slice(body.email.lastIndexOf("@"))}`;
    const phone = `${body.phone.slice(0, 2)}${"*".repeat(body.phone.length - 6)}${body.phone.slice(-4)}`;
    // The development outbox takes every code under the chosen channel: codes go to the e-mail.
    expect(initial).toEqual({
      codeChannel: "email",
      codesGoTo: "email",
      destination: email,
      channels: [
        { channel: "telegram", available: false },
        { channel: "email", available: false, destination: email },
        { channel: "sms", available: false, destination: phone },
      ],
      chatNotifications: true,
      chatLinked: false,
    });
    const refused = await injectRoute(server, routes.updateSecuritySettings, { token, body: { codeChannel: "sms" } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: "VALIDATION_FAILED", fields: { codeChannel: "required" } });
    await callRoute(server, "phoneConfirm", {
      token,
      body: { code: await lastCode(server, body.login, "phone") },
    });
    const chosen = await callRoute(server, "updateSecuritySettings", { token, body: { codeChannel: "sms" } });
    expect(chosen).toMatchObject({ codeChannel: "sms", codesGoTo: "sms", destination: phone });
    expect((chosen.channels as { channel: string; available: boolean }[])[2]).toEqual({
      channel: "sms",
      available: true,
      destination: phone,
    });
  });

  it("says where codes really go when the server has no provider for the chosen channel", async () => {
    const { token, body } = await registerUser(server);
    const [row] = await server.handle.db.select().from(schema.users).where(eq(schema.users.login, body.login));
    if (!row) throw new Error("no user");
    const telegramOnly = new ChannelCodeSender({ telegram: { send: async () => {} } });
    // E-mail chosen, no e-mail provider, no Telegram chat: no channel can take a code.
    expect(securitySettings(row, telegramOnly)).toMatchObject({ codeChannel: "email", codesGoTo: null });
    expect(securitySettings(row, telegramOnly).destination).toBeUndefined();
    // Linked to Telegram: the sender falls back to the chat, and Settings says so.
    const linked = { ...row, telegramId: 777_000_001 };
    expect(securitySettings(linked, telegramOnly)).toMatchObject({ codeChannel: "email", codesGoTo: "telegram" });
    expect(securitySettings(linked, telegramOnly).destination).toBeUndefined();
    // The route the server answers with uses the same choice as its sender.
    expect(await callRoute(server, "securitySettings", { token })).toMatchObject({ codesGoTo: "email" });
  });
});

describe("confirming the e-mail", () => {
  it("sends a code to the e-mail only; the right code confirms it and it may then be chosen", async () => {
    const { token, body } = await registerUser(server);
    const sent = await callRoute(server, "requestEmailCode", { token });
    expect(sent).toMatchObject({ channel: "email", destination: expect.stringMatching(/^i\*\*\*@example\.com$/) });
    const entry = (await outbox(server, body.login)).find((e) => (e.purpose as string) === "email");
    expect(entry?.channel).toBe("email");
    // A second request within the wait is refused; a wrong code counts and leaves the e-mail unconfirmed.
    expect((await injectRoute(server, routes.requestEmailCode, { token })).status).toBe(429);
    const wrong = await injectRoute(server, routes.confirmEmail, {
      token,
      body: { code: entry?.code === "000000" ? "111111" : "000000" },
    });
    expect(wrong.body).toMatchObject({ code: "CODE_MISMATCH" });
    const before = await callRoute(server, "securitySettings", { token });
    expect(before.channels.find((c) => c.channel === "email")?.available).toBe(false);
    const confirmed = await callRoute(server, "confirmEmail", { token, body: { code: entry?.code ?? "" } });
    expect(confirmed.channels.find((c) => c.channel === "email")?.available).toBe(true);
    expect((await callRoute(server, "userData", { token })).emailConfirmed).toBe(true);
    // Used once: the same code again is refused.
    const again = await injectRoute(server, routes.confirmEmail, { token, body: { code: entry?.code ?? "" } });
    expect(again.body).toMatchObject({ code: "CODE_INVALID" });
    expect(await callRoute(server, "updateSecuritySettings", { token, body: { codeChannel: "email" } })).toMatchObject({
      codeChannel: "email",
      codesGoTo: "email",
    });
  });

  it("never lets a code that confirms the e-mail reach the user another way", async () => {
    const sends: string[] = [];
    const telegramOnly = new ChannelCodeSender({
      telegram: {
        send: async (delivery) => {
          sends.push(delivery.channel);
        },
      },
    });
    // Linked to Telegram, no e-mail provider: an ordinary code falls back to the chat, this one is not sent.
    await expect(
      telegramOnly.send({
        login: "someone",
        language: "en",
        channel: "email",
        telegramId: 1,
        email: "someone@example.com",
        phone: null,
        purpose: "email",
        code: "123456",
        expiresInSeconds: 600,
        only: true,
      }),
    ).rejects.toThrow();
    expect(sends).toEqual([]);
    await telegramOnly.send({
      login: "someone",
      language: "en",
      channel: "email",
      telegramId: 1,
      email: "someone@example.com",
      phone: null,
      purpose: "phone",
      code: "123456",
      expiresInSeconds: 600,
    });
    expect(sends).toEqual(["telegram"]);
  });
});

describe("news", () => {
  it("gives titles back as written, not HTML-escaped (the app shows them as text)", async () => {
    const item = await addNews(server.handle.db, systemClock, {
      title: { en: "Fish & Chips", ru: "Q&A: 2 < 3 > 1", de: "Tom &amp; Jerry" },
      body: { en: "<p>Fish &amp; Chips</p>" },
    });
    const one = await callRoute(server, "newsOne", { params: { id: item.id } });
    const title = (one as { title: Record<string, string> }).title;
    expect(title.en).toBe("Fish & Chips");
    expect(title.kk).toBe("Fish & Chips");
    expect(title.ru).toBe("Q&A: 2 < 3 > 1");
    expect(title.de).toBe("Tom & Jerry");
    // Bodies are HTML and stay escaped HTML.
    expect((one as { body: Record<string, string> }).body.en).toBe("<p>Fish &amp; Chips</p>");
  });

  it("lists newest first, serves one, 404s an unknown one, and sanitises bodies", async () => {
    const item = await addNews(server.handle.db, systemClock, {
      title: { en: "Hello <b>there</b>" },
      body: {
        en: '<p onclick="x()">Safe <strong>bold</strong><script>alert(1)</script><img src=x onerror="alert(2)"><a href="javascript:alert(3)">bad</a> <a href="https://example.com">ok</a></p>',
        ru: "<h3>Привет</h3>",
      },
    });
    const list = await callRoute(server, "news");
    const items = list as unknown as { id: string; body: Record<string, string>; title: Record<string, string> }[];
    expect(items[0]?.id).toBe(item.id);
    expect(items.length).toBeGreaterThanOrEqual(4);
    const body = items[0]?.body.en ?? "";
    expect(body).not.toMatch(/script|onerror|onclick|javascript:|<img/i);
    expect(body).toContain("<strong>bold</strong>");
    expect(body).toContain('<a href="https://example.com" rel="noopener noreferrer" target="_blank">ok</a>');
    expect(items[0]?.body.de).toBe(body);
    expect(items[0]?.body.ru).toBe("<h3>Привет</h3>");
    expect(items[0]?.title.en).toBe("Hello there");

    const one = await callRoute(server, "newsOne", { params: { id: item.id }, query: { lang: "ru" } });
    expect(one).toMatchObject({ id: item.id, language: "ru", body: "<h3>Привет</h3>" });
    const missing = await injectRoute(server, routes.newsOne, {
      params: { id: "00000000-0000-4000-8000-000000000000" },
    });
    expect(missing).toMatchObject({ status: 404, body: { code: "NOT_FOUND" } });
  });
});

describe("notifications", () => {
  it("tells of refills, withdrawal moves and deposit payouts in the user's language; read marks them; own only", async () => {
    const db = server.handle.db;
    const investor = await newInvestor(db, systemClock);
    await db.update(schema.users).set({ language: "ru" }).where(eq(schema.users.id, investor.id));
    await fund(db, systemClock, investor.id, "USDT", "50");
    const list = await callRoute(server, "notifications", { token: investor.token });
    expect(list.unread).toBe(1);
    const [first] = list.items as { id: string; kind: string; title: string; body: string }[];
    expect(first).toMatchObject({ kind: "refill_credited", title: "Пополнение зачислено" });
    if (!first) throw new Error("no notification");
    expect(first.body).toBe("На ваш баланс зачислено 50,00 USDT.");
    const me = await callRoute(server, "currentUser", { token: investor.token });
    expect((me.notifications as { unread: number }).unread).toBe(1);

    const stranger = await newInvestor(db, systemClock);
    const theirs = await callRoute(server, "notifications", { token: stranger.token });
    expect(theirs).toEqual({ items: [], unread: 0 });
    const foreignRead = await callRoute(server, "readNotifications", {
      token: stranger.token,
      body: { ids: [first.id] },
    });
    expect(foreignRead, JSON.stringify(foreignRead)).toEqual({ unread: 0 });
    expect((await callRoute(server, "notifications", { token: investor.token })).unread).toBe(1);

    const read = await callRoute(server, "readNotifications", { token: investor.token, body: { ids: [first.id] } });
    expect(read).toEqual({ unread: 0 });

    // A deposit that runs its term, paid out by the accruals: "deposit_ended".
    const start = new Date(Date.now() - 31 * 86_400_000);
    const [deposit] = await db
      .insert(schema.deposits)
      .values({
        userId: investor.id,
        planId: "start",
        currency: "USDT",
        amount: "10",
        dailyYieldPercent: "1",
        durationDays: 30,
        dailyIncome: "0.1",
        startedAt: start,
        endsAt: new Date(start.getTime() + 30 * 86_400_000),
        status: "active",
        autoInvest: false,
        createdAt: start,
      } as typeof schema.deposits.$inferInsert)
      .returning();
    expect(deposit).toBeDefined();
    await db.insert(schema.operations).values({
      userId: investor.id,
      currency: "USDT",
      type: "plan",
      amount: "-10",
      depositId: deposit?.id ?? null,
      createdAt: start,
    });
    await db.update(schema.balances).set({ amount: "40" }).where(eq(schema.balances.userId, investor.id));
    await runAccruals(db, systemClock, { userId: investor.id });
    const after = await callRoute(server, "notifications", { token: investor.token });
    const ended = (after.items as { kind: string; body: string }[]).find((n) => n.kind === "deposit_ended");
    expect(ended?.body).toContain("3,00 USDT"); // 30 × 0.1 income, written the Russian way
    await expectLedgerConsistent(db);

    const all = await callRoute(server, "readNotifications", { token: investor.token });
    expect(all).toEqual({ unread: 0 });
  });

  it("tells of each operator move of a withdrawal", async () => {
    const db = server.handle.db;
    const investor = await newInvestor(db, systemClock);
    await fund(db, systemClock, investor.id, "USDT", "100");
    const row = await pendingWithdrawal(db, investor.id);
    await processWithdrawal({ db, clock: systemClock }, row.id, "inspect");
    await processWithdrawal({ db, clock: systemClock }, row.id, "success", { txHash: "0xabc" });
    const list = await callRoute(server, "notifications", { token: investor.token });
    const moves = (list.items as { kind: string; title: string }[]).filter((n) => n.kind === "withdrawal_status");
    expect(moves.map((m) => m.title)).toEqual(["Withdrawal paid out", "Withdrawal under review"]);
  });
});

describe("POST /user/subscription", () => {
  it("pays from the balance, extends from the current end, and refuses when short", async () => {
    const db = server.handle.db;
    const investor = await newInvestor(db, systemClock);
    const option = (await callRoute(server, "subscriptionOptions"))[0];
    if (!option) throw new Error("no subscription option");
    const short = await injectRoute(server, routes.subscribe, { token: investor.token, body: { optionId: option.id } });
    expect(short.status).toBe(409);
    expect(short.body).toMatchObject({ code: "INSUFFICIENT_FUNDS", message: "Not enough funds" });

    await fund(db, systemClock, investor.id, option.currency as "USDT", String(Number(option.price) * 2 + 1));
    const first = await callRoute(server, "subscribe", { token: investor.token, body: { optionId: option.id } });
    const user = User.parse(first.user);
    expect(user.subscription.active).toBe(true);
    const until1 = new Date(user.subscription.until ?? "").getTime();
    expect(Math.abs(until1 - Date.now() - option.durationDays * 86_400_000)).toBeLessThan(60_000);
    const second = await callRoute(server, "subscribe", { token: investor.token, body: { optionId: option.id } });
    const until2 = new Date(User.parse(second.user).subscription.until ?? "").getTime();
    expect(until2 - until1).toBe(option.durationDays * 86_400_000);
    expect((second.currencies as Record<string, string>)[option.currency]).toBe("1");
    await callRoute(server, "operations", { token: investor.token, query: { type: "subscription" } });
    await expectLedgerConsistent(db);
    const unknown = await injectRoute(server, routes.subscribe, { token: investor.token, body: { optionId: "nope" } });
    expect(unknown.body).toMatchObject({ code: "VALIDATION_FAILED", fields: { optionId: "required" } });
  });
});

describe("avatar", () => {
  it("accepts a real PNG and a JPEG by content and serves them back under a random name", async () => {
    const { token } = await registerUser(server);
    const res = await upload("PATCH", "/user/avatar", [png()], token);
    expect(res.status).toBe(200);
    const url = User.parse(res.body.user).avatarUrl ?? "";
    expect(url).toMatch(/^\/api\/user\/avatar\/[0-9a-f]{32}\.png$/);
    const served = await server.app.inject({ method: "GET", url });
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/png");
    expect(served.headers["x-content-type-options"]).toBe("nosniff");
    expect(served.rawPayload.equals(tinyPng())).toBe(true);
    // Stored outside any served folder, under UPLOAD_DIR.
    expect(fs.existsSync(path.join(uploads.dir, "avatars", url.split("/").pop() ?? ""))).toBe(true);

    const jpeg = await upload(
      "PATCH",
      "/user/avatar",
      [{ name: "avatar", filename: "me.bin", type: "application/octet-stream", data: tinyJpeg() }],
      token,
    );
    expect(jpeg.status).toBe(200);
    const jpegUrl = User.parse(jpeg.body.user).avatarUrl ?? "";
    expect(jpegUrl).toMatch(/\.jpg$/);
    // The previous file is gone.
    expect((await server.app.inject({ method: "GET", url })).statusCode).toBe(404);
    const me = await callRoute(server, "currentUser", { token });
    expect(me.avatarUrl).toBe(jpegUrl);
  });

  it("refuses a 6 MB file, a text file named .png, two files and a stray field", async () => {
    const { token } = await registerUser(server);
    const big = Buffer.concat([tinyPng(), Buffer.alloc(6 * 1024 * 1024)]);
    const cases: [Part[], string][] = [
      [[{ name: "avatar", filename: "big.png", type: "image/png", data: big }], "size"],
      [
        [{ name: "avatar", filename: "note.png", type: "image/png", data: Buffer.from("just text, not an image") }],
        "type",
      ],
      [[png(), png()], "count"],
      [[png("photo")], "field"],
      [[], "missing"],
    ];
    for (const [parts, reason] of cases) {
      const res = await upload("PATCH", "/user/avatar", parts, token);
      expect(res.status, reason).toBe(400);
      expect(res.body).toMatchObject({ code: "IMAGE_UPDATE_FAILED", message: "Error updating image" });
      expect((res.body.params as { reason: string }).reason, reason).toBe(reason);
    }
    const me = await callRoute(server, "currentUser", { token });
    expect(me.avatarUrl).toBeNull();
  });

  it("refuses an image whose header declares a decompression bomb, PNG or JPEG, by its dimensions", async () => {
    const { token } = await registerUser(server);
    const bombs: [string, string, Buffer][] = [
      ["bomb.png", "image/png", tinyPng(65_535, 65_535)],
      ["wide.png", "image/png", tinyPng(20_000, 20_000)],
      ["bomb.jpg", "image/jpeg", tinyJpeg(60_000, 60_000)],
    ];
    for (const [filename, type, data] of bombs) {
      expect(data.length).toBeLessThan(200);
      const res = await upload("PATCH", "/user/avatar", [{ name: "avatar", filename, type, data }], token);
      expect(res.status, filename).toBe(400);
      expect(res.body, filename).toMatchObject({ code: "IMAGE_UPDATE_FAILED", params: { reason: "size" } });
    }
    const me = await callRoute(server, "currentUser", { token });
    expect(me.avatarUrl).toBeNull();
    // A photo-sized JPEG still goes through.
    const ok = await upload(
      "PATCH",
      "/user/avatar",
      [{ name: "avatar", filename: "me.jpg", type: "image/jpeg", data: tinyJpeg(4000, 3000) }],
      token,
    );
    expect(ok.status).toBe(200);
  });

  it("gives no way to list or guess another user's avatar", async () => {
    const guess = await server.app.inject({ method: "GET", url: "/api/user/avatar/..%2F..%2Fetc%2Fpasswd" });
    expect(guess.statusCode).toBe(404);
    const random = await server.app.inject({
      method: "GET",
      url: "/api/user/avatar/0123456789abcdef0123456789abcdef.png",
    });
    expect(random.statusCode).toBe(404);
    const { token } = await registerUser(server);
    const other = await registerUser(server);
    await upload("PATCH", "/user/avatar", [png()], other.token);
    const mine = await callRoute(server, "currentUser", { token });
    expect(mine.avatarUrl).toBeNull();
  });
});

describe("verification", () => {
  it("takes a request in process; the operator approves it and the user is notified in their language", async () => {
    const { token, reply } = await registerUser(server, { language: "de" });
    const userId = (reply.user as { id: string }).id;
    const none = await callRoute(server, "userDataVerification", { token });
    expect(none).toMatchObject({ status: null });

    const sent = await upload("PATCH", "/user-data/verification", verificationParts(), token);
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ status: "in_process", familyStatus: "married", dateOfBirth: "1990-04-12" });
    expect(
      fs.readdirSync(path.join(uploads.dir, "verification")).filter((f) => !f.startsWith(".")).length,
    ).toBeGreaterThanOrEqual(3);
    const again = await upload("PATCH", "/user-data/verification", verificationParts(), token);
    expect(again.body).toMatchObject({ code: "VERIFICATION_REQUEST_FAILED", params: { reason: "in_process" } });

    const approve = await injectRoute(server, operatorRoutes.decideVerification, {
      token: TEST_OPERATOR_TOKEN,
      params: { user: userId, decision: "approve" },
      body: {},
    });
    expect(approve.status).toBe(200);
    const state = await callRoute(server, "userDataVerification", { token });
    expect(state).toMatchObject({ status: "success" });
    const profile = await callRoute(server, "userDataByType", { token, params: { type: "profile" } });
    expect(profile.verificationStatus).toBe("success");
    const notes = await callRoute(server, "notifications", { token });
    expect((notes.items as { kind: string; title: string }[])[0]).toMatchObject({
      kind: "verification_success",
      title: "Erfolgreiche Verifizierung",
    });
    const twice = await injectRoute(server, operatorRoutes.decideVerification, {
      token: TEST_OPERATOR_TOKEN,
      params: { user: userId, decision: "deny" },
      body: {},
    });
    expect(twice.status).toBe(400);
  });

  it("denies with a note, and refuses bad requests with 'Error sending verification request'", async () => {
    const { token, body } = await registerUser(server);
    const bad: [Part[], string][] = [
      [verificationParts({ dateOfBirth: new Date().toISOString().slice(0, 10) }), "age"],
      [verificationParts({ familyStatus: "complicated" }), "fields"],
      [verificationParts().filter((p) => p.name !== "walletPhoto"), "missing"],
      [[...verificationParts(), png("walletPhoto")], "count"],
      [
        verificationParts().map((p) =>
          p.name === "documentPhoto"
            ? { name: "documentPhoto", filename: "doc.png", type: "image/png", data: Buffer.from("%PDF-1.4 nope") }
            : p,
        ),
        "type",
      ],
    ];
    for (const [parts, reason] of bad) {
      const res = await upload("PATCH", "/user-data/verification", parts, token);
      expect(res.status, reason).toBe(400);
      expect(res.body, reason).toMatchObject({
        code: "VERIFICATION_REQUEST_FAILED",
        message: "Error sending verification request",
        params: { reason },
      });
    }
    expect((await upload("PATCH", "/user-data/verification", verificationParts(), token)).status).toBe(200);
    const deny = await injectRoute(server, operatorRoutes.decideVerification, {
      token: TEST_OPERATOR_TOKEN,
      params: { user: body.login, decision: "deny" },
      body: { note: "The photo is blurred." },
    });
    expect(deny.status).toBe(200);
    const notes = await callRoute(server, "notifications", { token });
    expect((notes.items as { kind: string; title: string; body: string }[])[0]).toMatchObject({
      kind: "verification_denied",
      title: "Verification declined",
      body: "Your verification request was declined. The photo is blurred.",
    });
    // A denied request may be sent again.
    expect((await upload("PATCH", "/user-data/verification", verificationParts(), token)).status).toBe(200);
  });
});
