/**
 * Codes and account notices by e-mail in production, through a real SMTP server in this process
 * (tests/e2e/support/smtp.ts): the message in the investor's language, plain text and HTML, with
 * Date, Message-ID and From; a temporary refusal (4xx) or no answer is tried again, a permanent
 * one (5xx) hands the code to the next channel; TLS; and the code never in the log.
 */
import { routes } from "@contract";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { systemClock } from "../../server/src/clock";
import * as schema from "../../server/src/db/schema";
import { ChannelCodeSender, type CodeDelivery, CodeSendError } from "../../server/src/delivery/code-sender";
import { EmailCodeSender } from "../../server/src/delivery/email-sender";
import { hashPassword } from "../../server/src/security/password";
import type { BotApiStandIn } from "../e2e/support/bot-api";
import { type MailServer, type ReceivedMail, startMailServer, throwAwayCertificate } from "../e2e/support/smtp";
import { createTestServer, injectRoute, registerUser, type TestServer } from "./helpers";
import { emailInvestor, MAIL_FROM, productionMailServer } from "./mail";
import { newInvestor, paidWithdrawal } from "./money";

/** The six digits of a code e-mail's plain text. */
function codeOf(mail: ReceivedMail): string {
  const code = /\b(\d{6})\b/.exec(mail.parsed.text ?? "")?.[1];
  if (!code) throw new Error(`no code in: ${mail.parsed.text}`);
  return code;
}

describe("codes and notices by e-mail (production, real SMTP server)", () => {
  let mail: MailServer, api: BotApiStandIn, server: TestServer;
  const log: string[] = [];
  productionMailServer((made) => ({ mail, api, server } = made), { log });
  let nextTelegramId = 940_000_000;

  /** An investor whose codes go by e-mail (and, when told, who has a Telegram chat too). */
  const investor = async (options: { telegram?: boolean; language?: "en" | "ru" | "de" | "kk" } = {}) => {
    const telegramId = options.telegram ? nextTelegramId++ : null;
    const inv = await emailInvestor(server, options.language, {
      phone: `+7702${String(Date.now() + Math.floor(Math.random() * 1e6)).slice(-7)}`,
      telegramId,
    });
    return { ...inv, telegramId };
  };
  const resend = (token: string) => injectRoute(server, routes.phoneResend, { token });

  beforeEach(() => {
    mail.answer(null);
    api.override("sendMessage", null);
  });

  it("registration's phone code arrives in the investor's language, as text and HTML with Date, Message-ID and From; it confirms the phone", async () => {
    const { body, token, reply } = await registerUser(server, { language: "de" });
    expect(reply.phoneCode).toMatchObject({
      channel: "email",
      destination: `${body.email.slice(0, 1)}***@example.com`,
    });
    const sent = await mail.waitForMail((m) => m.to.includes(body.email));
    const { parsed } = sent;
    expect(parsed.subject).toBe("Kassa-Code für die Bestätigung der Telefonnummer");
    expect(parsed.from?.value).toEqual([{ name: "Kassa", address: "no-reply@kassa.test" }]);
    expect(parsed.messageId).toMatch(/^<[0-9a-f-]{36}@kassa\.test>$/);
    expect(Math.abs((parsed.date?.getTime() ?? 0) - Date.now())).toBeLessThan(5 * 60_000);
    expect(parsed.headers.get("auto-submitted")).toBe("auto-generated");
    const code = codeOf(sent);
    expect(parsed.text).toContain(`Ihr Code für die Bestätigung der Telefonnummer lautet ${code}.`);
    expect(parsed.text).toContain("Kassa-Konto");
    expect(parsed.html).toContain(`>${code}</strong>`);
    expect(parsed.html).toContain('lang="de"');

    const confirmed = await injectRoute(server, routes.phoneConfirm, { token, body: { code } });
    expect(confirmed.status).toBe(200);
    expect(log.join("\n")).not.toContain(code);
  });

  it("a temporary refusal (451) is tried again within the code's patience, and the code arrives", async () => {
    const inv = await investor();
    mail.answer((attempt) => (attempt < 2 ? { code: 451, message: "4.3.0 Try again later" } : "accept"));
    const res = await resend(inv.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ channel: "email" });
    expect(mail.attempts).toBe(3);
    expect(mail.received.filter((m) => m.to.includes(inv.email))).toHaveLength(1);
  });

  it("a permanent refusal (550) is not repeated: the code goes to the investor's chat instead", async () => {
    const inv = await investor({ telegram: true });
    mail.answer(() => ({ code: 550, message: "5.1.1 Mailbox unavailable" }));
    const res = await resend(inv.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ channel: "telegram" });
    expect(mail.attempts).toBe(1);
    const chat = api.callsOf("sendMessage").filter((c) => c.params.chat_id === inv.telegramId);
    expect(chat).toHaveLength(1);
    // The same code the mail server was offered and refused went to the chat.
    const offered = mail.offered.filter((m) => m.to.includes(inv.email));
    expect(String(chat[0]?.params.text)).toContain(codeOf(offered[0] as ReceivedMail));
  });

  it("with nowhere else to go a permanent refusal is 502 CODE_SEND_FAILED; the log gives the reason, never the code", async () => {
    const inv = await investor();
    mail.answer(() => ({ code: 554, message: "5.7.1 Rejected by policy" }));
    const before = log.length;
    const res = await resend(inv.token);
    expect(res).toMatchObject({ status: 502, body: { code: "CODE_SEND_FAILED" } });
    const offered = mail.offered.filter((m) => m.to.includes(inv.email));
    expect(offered).toHaveLength(1);
    const lines = log.slice(before).join("\n");
    expect(lines).toContain("5.7.1 Rejected by policy");
    expect(lines).not.toContain(codeOf(offered[0] as ReceivedMail));
  });

  it("the password change and a withdrawal's status are told by e-mail in the investor's language", async () => {
    const inv = await investor({ language: "ru" });
    await server.handle.db
      .update(schema.users)
      .set({ passwordHash: await hashPassword("Sunflower42x") })
      .where(eq(schema.users.id, inv.id));
    const changed = await injectRoute(server, routes.changePassword, {
      token: inv.token,
      body: { oldPassword: "Sunflower42x", password: "Dandelion77y", passwordRepeat: "Dandelion77y" },
    });
    expect(changed.status).toBe(200);
    const notice = await mail.waitForMail((m) => m.to.includes(inv.email) && m.parsed.subject === "Пароль изменён");
    expect(notice.parsed.text).toMatch(/пароль вашего аккаунта Kassa был изменён/);
    expect(notice.parsed.html).toContain("пароль вашего аккаунта Kassa был изменён");

    const moved = await paidWithdrawal(server, inv.id);
    expect(moved.body).toMatchObject({ state: "success" });
    const status = await mail.waitForMail((m) => m.to.includes(inv.email) && m.parsed.subject === "Вывод выплачен");
    expect(status.parsed.text).toContain("Вывод 20,00 USDT отправлен на ваш кошелёк.");
  });
});

describe("the e-mail sender on its own", () => {
  const delivery = (email: string): CodeDelivery => ({
    login: "aigerim",
    language: "kk",
    channel: "email",
    telegramId: null,
    email,
    phone: null,
    purpose: "withdrawal",
    code: "042917",
    expiresInSeconds: 600,
  });

  it("a server that does not answer is tried again, and the next answer takes the code", async () => {
    const mail = await startMailServer();
    const server = await createTestServer({
      seed: false,
      codeSender: new ChannelCodeSender({
        email: new EmailCodeSender({ smtpUrl: mail.url, from: MAIL_FROM, timeoutMs: 1000 }),
      }),
    });
    try {
      const inv = await newInvestor(server.handle.db, systemClock);
      await server.handle.db
        .update(schema.users)
        .set({ email: `${inv.login}@example.com`, phone: "+77020000001", codeChannel: "email" })
        .where(eq(schema.users.id, inv.id));
      mail.answer((attempt) => (attempt === 0 ? "hang" : "accept"));
      const res = await injectRoute(server, routes.phoneResend, { token: inv.token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ channel: "email" });
      expect(mail.attempts).toBe(2);
      expect(mail.received).toHaveLength(1);
    } finally {
      await server.close();
      await mail.close();
    }
  });

  it("sends over TLS (smtps://) to a server whose certificate it trusts, and refuses one it does not, for good", async () => {
    const certificate = throwAwayCertificate();
    const mail = await startMailServer({ tls: certificate });
    try {
      const trusting = new EmailCodeSender({ smtpUrl: mail.url, from: MAIL_FROM, tls: { ca: certificate.cert } });
      await trusting.send(delivery("aigerim@example.com"));
      const sent = await mail.waitForMail();
      expect(sent.secure).toBe(true);
      expect(sent.parsed.subject).toBe("Kassa коды: қаражат шығару");
      expect(sent.parsed.text).toContain("042917");

      const wary = new EmailCodeSender({ smtpUrl: mail.url, from: MAIL_FROM });
      const refused = await wary.send(delivery("aigerim@example.com")).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(CodeSendError);
      expect((refused as CodeSendError).transient).toBe(false);
      expect(mail.received).toHaveLength(1);
    } finally {
      await mail.close();
    }
  });
});
