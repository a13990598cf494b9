/**
 * Codes by SMS in production through a stand-in speaking Twilio's Messages API
 * (tests/e2e/support/sms-api.ts): a phone's code goes to that number, in E.164, in the investor's
 * language and in one segment; a 429 or 5xx (or no answer) is tried again, any other refusal hands
 * the code to the next channel (here the e-mail, through a real SMTP server).
 */
import { LANGUAGES, routes } from "@contract";
import { eq } from "drizzle-orm";
import { SegmentedMessage } from "sms-segments-calculator";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { systemClock } from "../../server/src/clock";
import * as schema from "../../server/src/db/schema";
import { CODE_PURPOSES } from "../../server/src/db/schema";
import { ChannelCodeSender, type CodeDelivery, CodeSendError } from "../../server/src/delivery/code-sender";
import { codeSmsText, SmsCodeSender } from "../../server/src/delivery/sms-sender";
import { type SmsApiStandIn, startSmsApiStandIn } from "../e2e/support/sms-api";
import { type MailServer, startMailServer } from "../e2e/support/smtp";
import { createTestServer, injectRoute, registerUser, type TestServer } from "./helpers";
import { productionMailEnv } from "./mail";
import { newInvestor, TRC20_WALLET } from "./money";

const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1] ?? "";

describe("codes by SMS (production, Twilio's Messages API)", () => {
  let sms: SmsApiStandIn;
  let mail: MailServer;
  let server: TestServer;
  const log: string[] = [];
  let n = 0;

  /** An investor whose codes go by SMS, with a confirmed e-mail to fall back to. */
  const investor = async (
    phone = `+7703${String(process.pid % 1000).padStart(3, "0")}${String(++n).padStart(4, "0")}`,
  ) => {
    const inv = await newInvestor(server.handle.db, systemClock);
    const email = `${inv.login}@example.com`;
    await server.handle.db
      .update(schema.users)
      .set({ email, emailConfirmedAt: new Date(), phone, phoneConfirmedAt: new Date(), codeChannel: "sms" })
      .where(eq(schema.users.id, inv.id));
    return { ...inv, email, phone };
  };
  /** A withdrawal wallet change's code: it goes through the investor's channel. */
  const walletCode = (token: string) =>
    injectRoute(server, routes.updateWallets, {
      token,
      body: { wallets: [{ paymentSystemId: "usdt-trc20", address: TRC20_WALLET }] },
    });

  beforeAll(async () => {
    sms = await startSmsApiStandIn();
    mail = await startMailServer();
    server = await createTestServer({
      env: productionMailEnv(mail, undefined, {
        SMS_API_URL: sms.url,
        SMS_ACCOUNT_SID: sms.accountSid,
        SMS_AUTH_TOKEN: sms.authToken,
        SMS_FROM: "Kassa",
      }),
      logger: { level: "info", stream: { write: (line: string) => log.push(line) } },
    });
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    await sms?.close();
    await mail?.close();
  });
  beforeEach(() => {
    sms.answer(null);
    mail.answer(null);
  });

  it("registration's phone code goes by SMS to that number, in the investor's language, and confirms it", async () => {
    const { body, token, reply } = await registerUser(server, { language: "ru" });
    expect(reply.phoneCode).toMatchObject({ channel: "sms" });
    const [message] = sms.messages.filter((m) => m.to === body.phone);
    expect(message).toMatchObject({ from: "Kassa" });
    expect(message?.body).toMatch(/^Kassa: код \d{6} \(телефон\), 10 мин\. Никому не сообщайте\.$/);
    // Not by e-mail: the code proves the phone.
    expect(mail.received.filter((m) => m.to.includes(body.email))).toEqual([]);
    const confirmed = await injectRoute(server, routes.phoneConfirm, {
      token,
      body: { code: codeIn(message?.body ?? "") },
    });
    expect(confirmed.status).toBe(200);
    expect(log.join("\n")).not.toContain(codeIn(message?.body ?? ""));
  });

  it("a number written with spaces and dashes goes out in E.164", async () => {
    const inv = await investor("+7 703 555-01-02");
    const res = await walletCode(inv.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ walletCode: { channel: "sms" } });
    expect(sms.messages.at(-1)?.to).toBe("+77035550102");
  });

  it("a 429 and a 503 are tried again within the code's patience, and the code arrives", async () => {
    const inv = await investor();
    sms.answer((attempt) =>
      attempt === 0
        ? { status: 429, code: 20429, message: "Too Many Requests", retryAfter: 1 }
        : attempt === 1
          ? { status: 503, code: 20503, message: "Service Unavailable" }
          : "accept",
    );
    const res = await walletCode(inv.token);
    expect(res.body).toMatchObject({ walletCode: { channel: "sms" } });
    expect(sms.attempts).toBe(3);
    expect(sms.messages.filter((m) => m.to === inv.phone)).toHaveLength(1);
  });

  it("a refusal of the number (400, 21610 unsubscribed) is not repeated: the code goes by e-mail", async () => {
    const inv = await investor();
    sms.answer(() => ({ status: 400, code: 21610, message: "Attempt to send to unsubscribed recipient" }));
    const res = await walletCode(inv.token);
    expect(res.body).toMatchObject({ walletCode: { channel: "email" } });
    expect(sms.attempts).toBe(1);
    const sent = await mail.waitForMail((m) => m.to.includes(inv.email));
    expect(sent.parsed.text).toContain(codeIn(sms.offered.at(-1)?.body ?? "-"));
  });
});

describe("the SMS sender on its own", () => {
  const delivery: CodeDelivery = {
    login: "aigerim",
    language: "kk",
    channel: "sms",
    telegramId: null,
    email: null,
    phone: "+77011234567",
    purpose: "withdrawal",
    code: "042917",
    expiresInSeconds: 600,
  };

  it("every code text fits one SMS segment: GSM-7 (160) for en and de, UCS-2 (70) for ru and kk", () => {
    for (const language of LANGUAGES) {
      for (const purpose of CODE_PURPOSES) {
        // The longest the text gets: an hour's validity.
        const text = codeSmsText({ language, purpose, code: "999999", expiresInSeconds: 3600 });
        const message = new SegmentedMessage(text, "auto");
        expect({ language, purpose, segments: message.segmentsCount }).toEqual({ language, purpose, segments: 1 });
        expect(message.encodingName).toBe(language === "en" || language === "de" ? "GSM-7" : "UCS-2");
      }
    }
  });

  it("a provider that does not answer is tried again; a number that is not E.164 is refused without a request", async () => {
    const sms = await startSmsApiStandIn();
    try {
      const sender = new SmsCodeSender({
        apiUrl: sms.url,
        accountSid: sms.accountSid,
        authToken: sms.authToken,
        from: "+15005550006",
        timeoutMs: 1000,
      });
      sms.answer((attempt) => (attempt === 0 ? "hang" : "accept"));
      await expect(new ChannelCodeSender({ sms: sender }).send(delivery)).resolves.toBe("sms");
      expect(sms.attempts).toBe(2);
      expect(sms.messages).toEqual([
        expect.objectContaining({ to: "+77011234567", from: "+15005550006", body: expect.stringContaining("042917") }),
      ]);

      const refused = await sender.send({ ...delivery, phone: "87011234567" }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(CodeSendError);
      expect((refused as CodeSendError).transient).toBe(false);
      expect(sms.attempts).toBe(2);
    } finally {
      await sms.close();
    }
  });
});
