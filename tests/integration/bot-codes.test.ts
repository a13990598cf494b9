/**
 * Codes through the chat against the Bot API stand-in (the production senders: Telegram, and an
 * e-mail provider the test records): a 429 or a 500 is tried again within the code's life, a
 * blocked bot (403) hands the code to the user's e-mail, and the reply says where the code went.
 */
import { routes } from "@contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { systemClock } from "../../server/src/clock";
import { users, verificationCodes } from "../../server/src/db/schema";
import { ChannelCodeSender, type CodeDelivery } from "../../server/src/delivery/code-sender";
import { TelegramCodeSender } from "../../server/src/delivery/telegram-code-sender";
import { type BotApiStandIn, startBotApiStandIn } from "../e2e/support/bot-api";
import { createTestServer, injectRoute, type TestServer } from "./helpers";
import { newInvestor } from "./money";

const refusal = (status: number, description: string, retryAfter?: number) => ({
  status,
  body: {
    ok: false,
    error_code: status,
    description,
    ...(retryAfter ? { parameters: { retry_after: retryAfter } } : {}),
  },
});

describe("codes through the chat", () => {
  let api: BotApiStandIn;
  let server: TestServer;
  const mailed: CodeDelivery[] = [];
  let nextTelegramId = 930_000_000;

  /** An investor whose codes go to Telegram, with a phone to confirm (and an e-mail unless told). */
  const investor = async (withEmail = true) => {
    const inv = await newInvestor(server.handle.db, systemClock);
    const telegramId = nextTelegramId++;
    await server.handle.db
      .update(users)
      .set({
        telegramId,
        email: withEmail ? `a${telegramId}@example.com` : null,
        phone: `+7701${String(telegramId).slice(-7)}`,
        codeChannel: "telegram",
      })
      .where(eq(users.id, inv.id));
    return { ...inv, telegramId };
  };
  const resend = (token: string) => injectRoute(server, routes.phoneResend, { token });
  const to = (chatId: number) => api.callsOf("sendMessage").filter((c) => c.params.chat_id === chatId);

  beforeAll(async () => {
    api = await startBotApiStandIn();
    const codeSender = new ChannelCodeSender({
      telegram: new TelegramCodeSender({ botToken: "123:TEST", apiBase: api.url }),
      email: {
        send: async (delivery) => {
          mailed.push(delivery);
        },
      },
    });
    server = await createTestServer({ codeSender, seed: false });
  });
  afterAll(async () => {
    await server?.close();
    await api?.close();
  });
  beforeEach(() => {
    api.override("sendMessage", null);
    mailed.length = 0;
  });

  it("a 429 waits retry_after and the code arrives in the chat; the reply says Telegram", async () => {
    const inv = await investor();
    let refused = 0;
    api.override("sendMessage", () => (refused++ === 0 ? refusal(429, "Too Many Requests", 1) : undefined));
    const res = await resend(inv.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: "Request successfully sent", channel: "telegram" });
    expect(to(inv.telegramId).map((c) => c.status)).toEqual([429, 200]);
    expect(to(inv.telegramId)[1]?.params.text).toMatch(/Kassa: your phone confirmation code is <code>\d{6}<\/code>/);
  });

  it("a 500 is tried again (1 s, 2 s) and the code arrives", async () => {
    const inv = await investor();
    let refused = 0;
    api.override("sendMessage", () => (refused++ < 2 ? refusal(500, "Internal Server Error") : undefined));
    const res = await resend(inv.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ channel: "telegram" });
    expect(to(inv.telegramId).map((c) => c.status)).toEqual([500, 500, 200]);
  });

  it("a blocked bot (403) hands the code to the user's e-mail, and the reply says so", async () => {
    const inv = await investor();
    api.override("sendMessage", () => refusal(403, "Forbidden: bot was blocked by the user"));
    const res = await resend(inv.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ channel: "email", destination: "a***@example.com" });
    expect(to(inv.telegramId)).toHaveLength(1);
    expect(mailed.map((d) => [d.login, d.channel, d.purpose])).toEqual([[inv.login, "email", "phone"]]);
  });

  it("a blocked bot (403) marks the chat: the next code goes straight to e-mail and Security says so", async () => {
    const inv = await investor();
    api.override("sendMessage", () => refusal(403, "Forbidden: bot was blocked by the user"));
    expect((await resend(inv.token)).body).toMatchObject({ channel: "email" });
    const [row] = await server.handle.db.select().from(users).where(eq(users.id, inv.id));
    expect(row?.botBlockedAt).not.toBeNull();
    const security = await injectRoute(server, routes.securitySettings, { token: inv.token });
    expect(security.body).toMatchObject({ codeChannel: "telegram", codesGoTo: "email" });
    // The resend wait is over: the next code does not knock on the blocked chat first.
    await server.handle.db
      .update(verificationCodes)
      .set({ createdAt: new Date(Date.now() - 3_600_000) })
      .where(eq(verificationCodes.userId, inv.id));
    expect((await resend(inv.token)).body).toMatchObject({ channel: "email" });
    expect(to(inv.telegramId)).toHaveLength(1);
    expect(mailed).toHaveLength(2);
  });

  it("with nowhere else to go the reply is the truth (502 CODE_SEND_FAILED), not 'sent'", async () => {
    const inv = await investor(false);
    api.override("sendMessage", () => refusal(403, "Forbidden: bot was blocked by the user"));
    const res = await resend(inv.token);
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ code: "CODE_SEND_FAILED" });
  });

  it("a 429 asking for longer than the code's patience answers 429 RATE_LIMITED with Telegram's wait", async () => {
    const inv = await investor(false);
    const codes = () => server.handle.db.select().from(verificationCodes).where(eq(verificationCodes.userId, inv.id));
    const before = (await codes()).length;
    api.override("sendMessage", () => refusal(429, "Too Many Requests: retry after 120", 120));
    const res = await resend(inv.token);
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ code: "RATE_LIMITED", params: { retryAfter: "120" } });
    expect(res.headers["retry-after"]).toBe("120");
    // Not waited: one call, and no code left behind to hold back the next request.
    expect(to(inv.telegramId)).toHaveLength(1);
    expect(await codes()).toHaveLength(before);
  });

  it("a password reset's code (sent after the reply) survives Telegram down for a few seconds", async () => {
    const inv = await investor(false);
    const downUntil = Date.now() + 2500;
    api.override("sendMessage", () => (Date.now() < downUntil ? refusal(502, "Bad Gateway") : undefined));
    const res = await injectRoute(server, routes.resetPassword, { body: { login: inv.login } });
    expect(res.status).toBe(200);
    const sent = await api.waitForCall(
      "sendMessage",
      (c) => c.params.chat_id === inv.telegramId && c.status === 200,
      15_000,
    );
    expect(sent.params.text).toMatch(/Kassa: your password reset code is <code>\d{6}<\/code>/);
  }, 30_000);
});
