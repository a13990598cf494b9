/**
 * The notice outbox (services/notice-outbox.ts, docs/delivery.md#notices) in production, through a real SMTP server
 * in this process (tests/e2e/support/smtp.ts):
 * - an account notice survives a temporary refusal (4xx then accepted: one e-mail, the same Message-ID key);
 * - a permanent refusal (5xx) is given up, with the reason logged and kept;
 * - a notice stored while the mail server refuses is delivered by the next server on the same database;
 * - two servers on one PostgreSQL deliver each notice once;
 * - news by e-mail: in the investor's language with List-Unsubscribe (https) and List-Unsubscribe-Post
 *   (RFC 8058); its one-click POST turns news e-mails off for that investor only, and the next news item is not
 *   mailed to them; a token changed to name another account, or garbage, is refused with a page saying so.
 * Waits are on conditions with generous ceilings, never on elapsed time.
 */
import { routes } from "@contract";
import { operatorRoutes } from "@contract/operator";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as schema from "../../server/src/db/schema";
import { hashPassword } from "../../server/src/security/password";
import { type BotApiStandIn, startBotApiStandIn } from "../e2e/support/bot-api";
import { type MailServer, type ReceivedMail, startMailServer } from "../e2e/support/smtp";
import { createTestServer, injectRoute, TEST_OPERATOR_TOKEN, type TestServer, tempDir, until } from "./helpers";
import { emailInvestor, productionMailEnv, productionMailServer } from "./mail";
import { freshPostgres, POSTGRES_SKIP_REASON, paidWithdrawal, TEST_DATABASE_URL } from "./money";

const PUBLIC_URL = "https://kassa.test";
const PASSWORD = "Sunflower42x";

/** The message's header lines, unfolded (mailparser turns List-* into objects; the tests read them as sent). */
function header(mail: ReceivedMail, name: string): string | undefined {
  const head = (mail.raw.split(/\r?\n\r?\n/)[0] ?? "").replace(/\r?\n[ \t]+/g, " ");
  const line = head.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

const productionEnv = (api: BotApiStandIn, mail: MailServer, extra: Record<string, string> = {}) =>
  productionMailEnv(mail, api, { PUBLIC_URL, ...extra });

/** An investor whose codes go by e-mail, with a password (to change it). */
const passwordInvestor = async (server: TestServer, language: "en" | "ru" | "de" | "kk" = "en") =>
  emailInvestor(server, language, { passwordHash: await hashPassword(PASSWORD) });

const changePassword = (server: TestServer, token: string) =>
  injectRoute(server, routes.changePassword, {
    token,
    body: { oldPassword: PASSWORD, password: "Dandelion77y", passwordRepeat: "Dandelion77y" },
  });

const noticesOf = (server: TestServer, userId: string) =>
  server.handle.db.select().from(schema.noticeOutbox).where(eq(schema.noticeOutbox.userId, userId));

const mailsTo = (mail: MailServer, email: string, subject?: string) =>
  mail.received.filter((m) => m.to.includes(email) && (subject === undefined || m.parsed.subject === subject));

describe("account notices through the notice outbox (production, real SMTP server)", () => {
  let mail: MailServer, server: TestServer;
  const log: string[] = [];
  productionMailServer((made) => ({ mail, server } = made), { env: { PUBLIC_URL }, log });

  it("a temporary refusal (451) is tried again later: exactly one e-mail arrives, its Message-ID the notice's", async () => {
    const inv = await passwordInvestor(server);
    mail.answer((attempt) => (attempt === 0 ? { code: 451, message: "4.3.0 Try again later" } : "accept"));
    const changed = await changePassword(server, inv.token);
    expect(changed.status).toBe(200);
    const arrived = await mail.waitForMail(
      (m) => m.to.includes(inv.email) && m.parsed.subject === "Password changed",
      120_000,
    );
    expect(arrived.parsed.text).toContain("Your Kassa password was changed");
    await until("the notice marked sent", async () => (await noticesOf(server, inv.id))[0]?.sentAt != null);
    const [row] = await noticesOf(server, inv.id);
    expect(row).toMatchObject({ kind: "password_changed", attempts: 2, failedAt: null });
    expect(arrived.parsed.messageId).toBe(`<notice-${row?.id}@kassa.test>`);
    expect(mailsTo(mail, inv.email)).toHaveLength(1);
    mail.answer(null);
  });

  it("a permanent refusal (550) is given up: the reason is logged and kept, and the notice not offered again", async () => {
    const inv = await passwordInvestor(server);
    mail.answer(() => ({ code: 550, message: "5.1.1 Mailbox unavailable" }));
    const changed = await changePassword(server, inv.token);
    expect(changed.status).toBe(200);
    await until("the notice given up", async () => (await noticesOf(server, inv.id))[0]?.failedAt != null);
    const [row] = await noticesOf(server, inv.id);
    expect(row).toMatchObject({ sentAt: null, attempts: 1 });
    expect(row?.lastError).toContain("5.1.1 Mailbox unavailable");
    const given = log.map((l) => JSON.parse(l)).find((l) => l.msg === "notice given up" && l.notice === row?.id);
    expect(given).toMatchObject({ login: inv.login, kind: "password_changed" });
    expect(String(given?.reason)).toContain("5.1.1 Mailbox unavailable");
    expect(mail.offered.filter((m) => m.to.includes(inv.email))).toHaveLength(1);
    mail.answer(null);
  });
});

describe("a notice outlives its server", () => {
  it("stored while the mail server refuses, it is delivered by the next server on the same database", async () => {
    const mail = await startMailServer();
    const api = await startBotApiStandIn();
    const data = tempDir("kassa-notices-");
    try {
      const env = productionEnv(api, mail, { DATA_DIR: data.dir });
      mail.answer(() => ({ code: 421, message: "4.7.0 Service not available" }));
      const first = await createTestServer({ env });
      const inv = await passwordInvestor(first, "ru");
      const moved = await paidWithdrawal(first, inv.id);
      expect(moved.body).toMatchObject({ state: "success" });
      await until("one refused attempt", () => mail.attempts >= 1);
      await first.close();
      expect(mail.received).toHaveLength(0);

      mail.answer(null);
      const second = await createTestServer({ env });
      try {
        const arrived = await mail.waitForMail(
          (m) => m.to.includes(inv.email) && m.parsed.subject === "Вывод выплачен",
          120_000,
        );
        expect(arrived.parsed.text).toContain("Вывод 20,00 USDT отправлен на ваш кошелёк.");
        await until("the notice marked sent", async () => (await noticesOf(second, inv.id))[0]?.sentAt != null);
        expect(mailsTo(mail, inv.email)).toHaveLength(1);
      } finally {
        await second.close();
      }
    } finally {
      data.remove();
      await api.close();
      await mail.close();
    }
  }, 240_000);
});

describe.skipIf(!TEST_DATABASE_URL)(
  `two servers on one PostgreSQL${TEST_DATABASE_URL ? "" : ` (skipped: ${POSTGRES_SKIP_REASON})`}`,
  () => {
    it("deliver each notice once", async () => {
      const mail = await startMailServer();
      const api = await startBotApiStandIn();
      const database = await freshPostgres("notices");
      const servers: TestServer[] = [];
      try {
        const env = productionEnv(api, mail, { DATABASE_URL: database.url });
        servers.push(await createTestServer({ env, seed: false }), await createTestServer({ env, seed: false }));
        const [writer] = servers as [TestServer, TestServer];
        const investors = [];
        for (let i = 0; i < 30; i++) investors.push(await passwordInvestor(writer));
        // Queued at once while both servers' jobs run: both find the same rows due.
        const now = new Date();
        await writer.handle.db.insert(schema.noticeOutbox).values(
          investors.map((inv) => ({
            userId: inv.id,
            kind: "password_changed" as const,
            params: { date: "2026-11-29", time: "10:00" },
            createdAt: now,
            nextAttemptAt: now,
          })),
        );
        await until("every notice sent", async () => {
          const [left] = await writer.handle.db
            .select({ n: sql<number>`count(*)::int` })
            .from(schema.noticeOutbox)
            .where(sql`${schema.noticeOutbox.sentAt} is null`);
          return left?.n === 0;
        });
        for (const inv of investors) expect(mailsTo(mail, inv.email, "Password changed")).toHaveLength(1);
        expect(mail.received).toHaveLength(investors.length);
      } finally {
        for (const s of servers) await s.close();
        await database.drop();
        await api.close();
        await mail.close();
      }
    }, 240_000);
  },
);

describe("news by e-mail, with one-click unsubscribe", () => {
  let mail: MailServer, server: TestServer;
  productionMailServer((made) => ({ mail, server } = made), { env: { PUBLIC_URL } });

  const publish = (en: string, de: string) =>
    injectRoute(server, operatorRoutes.addNews, {
      token: TEST_OPERATOR_TOKEN,
      body: {
        title: { en, de },
        body: { en: `<p>${en}: <strong>all</strong> plans</p>`, de: `<p>${de}: <strong>alle</strong> Tarife</p>` },
      },
    });
  const unsubscribePath = (url: string) => new URL(url).pathname + new URL(url).search;
  const emailNews = async (userId: string) =>
    (await server.handle.db.select().from(schema.users).where(eq(schema.users.id, userId)))[0]?.emailNews;

  it("arrives in the investor's language with List-Unsubscribe; one click ends the news e-mails of that investor only", async () => {
    const anna = await passwordInvestor(server, "de");
    const bob = await passwordInvestor(server, "en");
    const published = await publish("New plans", "Neue Tarife");
    expect(published.status).toBe(200);

    const forAnna = await mail.waitForMail((m) => m.to.includes(anna.email), 120_000);
    expect(forAnna.parsed.subject).toBe("Neue Tarife");
    expect(forAnna.parsed.html).toContain("<strong>alle</strong> Tarife");
    expect(forAnna.parsed.text).toContain("Neue Tarife: alle Tarife");
    const list = header(forAnna, "List-Unsubscribe");
    const link = /^<(https:\/\/kassa\.test\/api\/mail\/unsubscribe\?token=[^>]+)>$/.exec(list ?? "")?.[1];
    expect(link, list).toBeDefined();
    expect(header(forAnna, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    expect(forAnna.parsed.text).toContain(link);
    const forBob = await mail.waitForMail((m) => m.to.includes(bob.email), 120_000);
    expect(forBob.parsed.subject).toBe("New plans");
    const bobLink = /^<([^>]+)>$/.exec(header(forBob, "List-Unsubscribe") ?? "")?.[1] ?? "";
    expect(bobLink).not.toBe(link);

    // Opening the link changes nothing: it shows the button.
    const page = await server.app.inject({ method: "GET", url: unsubscribePath(link ?? "") });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('method="post"');
    expect(await emailNews(anna.id)).toBe(true);

    // The mail client's one-click POST (RFC 8058).
    const clicked = await server.app.inject({
      method: "POST",
      url: unsubscribePath(link ?? ""),
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(clicked.statusCode).toBe(200);
    expect(clicked.body).toContain("Kassa-Neuigkeiten kommen nicht mehr an diese Adresse.");
    expect(await emailNews(anna.id)).toBe(false);
    expect(await emailNews(bob.id)).toBe(true);
    // A client that posts the same as multipart gets the same answer (RFC 8058 allows both).
    const boundary = "kassa-test-boundary";
    const multipart = await server.app.inject({
      method: "POST",
      url: unsubscribePath(link ?? ""),
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`,
    });
    expect(multipart.statusCode).toBe(200);

    const again = await publish("More news", "Mehr Neuigkeiten");
    expect(again.status).toBe(200);
    await mail.waitForMail((m) => m.to.includes(bob.email) && m.parsed.subject === "More news", 120_000);
    const second = (await noticesOf(server, anna.id)).filter((r) => r.params.newsId === again.body.id);
    expect(second).toHaveLength(0);
    expect(mailsTo(mail, anna.email)).toHaveLength(1);
  });

  it("a token made to name another investor, or garbage, is refused with a page saying so; nobody is unsubscribed", async () => {
    const anna = await passwordInvestor(server, "en");
    const bob = await passwordInvestor(server, "ru");
    await publish("Quarterly report", "Quartalsbericht");
    const forAnna = await mail.waitForMail(
      (m) => m.to.includes(anna.email) && m.parsed.subject === "Quarterly report",
      120_000,
    );
    const link = new URL(/^<([^>]+)>$/.exec(header(forAnna, "List-Unsubscribe") ?? "")?.[1] ?? "");
    const [, mac] = (link.searchParams.get("token") ?? "").split(".");
    const forged = `${bob.id}.${mac}`;
    for (const token of [forged, "garbage", `${bob.id}.`, ""]) {
      const refused = await server.app.inject({
        method: "POST",
        url: `/api/mail/unsubscribe?token=${encodeURIComponent(token)}`,
        headers: { "content-type": "application/x-www-form-urlencoded", "accept-language": "ru-RU,ru;q=0.9" },
        payload: "List-Unsubscribe=One-Click",
      });
      expect(refused.statusCode, token).toBe(400);
      expect(refused.body).toContain("Эта ссылка для отписки недействительна.");
    }
    const shown = await server.app.inject({ method: "GET", url: `/api/mail/unsubscribe?token=${forged}` });
    expect(shown.statusCode).toBe(400);
    expect(await emailNews(anna.id)).toBe(true);
    expect(await emailNews(bob.id)).toBe(true);
  });
});
