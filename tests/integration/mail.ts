/**
 * Helpers of the e-mail tests: a production test server that mails through a real SMTP server in this process
 * (tests/e2e/support/smtp.ts), and investors whose codes go by e-mail.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import { systemClock } from "../../server/src/clock";
import * as schema from "../../server/src/db/schema";
import { type BotApiStandIn, startBotApiStandIn } from "../e2e/support/bot-api";
import { type MailServer, startMailServer } from "../e2e/support/smtp";
import { createTestServer, TEST_CODE_SECRET, type TestServer } from "./helpers";
import { newInvestor } from "./money";

/** The From of the test servers' e-mail. */
export const MAIL_FROM = "Kassa <no-reply@kassa.test>";

/**
 * A production server's environment (`extra` on top) whose e-mail goes to `mail` and whose Bot API calls, were there
 * any (its bot is off), to `api`.
 */
export function productionMailEnv(
  mail: MailServer,
  api?: BotApiStandIn,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    NODE_ENV: "production",
    TELEGRAM_BOT_TOKEN: "7000000001:AAF-test-token-for-kassa-integration-tests",
    TELEGRAM_BOT: "off",
    ...(api ? { TELEGRAM_API_ROOT: api.url } : {}),
    CODE_SECRET: TEST_CODE_SECRET,
    SMTP_URL: mail.url,
    MAIL_FROM,
    ...extra,
  };
}

/**
 * Called in a describe: before its tests a real SMTP server, the Bot API stand-in and a production test server that
 * mails through them (`env` on top of productionMailEnv's; its log lines pushed to `log` when given), handed to `use`;
 * all three closed after its tests.
 */
export function productionMailServer(
  use: (made: { mail: MailServer; api: BotApiStandIn; server: TestServer }) => void,
  options: { env?: Record<string, string>; log?: string[] } = {},
): void {
  let mail: MailServer | undefined;
  let api: BotApiStandIn | undefined;
  let server: TestServer | undefined;
  beforeAll(async () => {
    mail = await startMailServer();
    api = await startBotApiStandIn();
    const log = options.log;
    server = await createTestServer({
      env: productionMailEnv(mail, api, options.env),
      ...(log ? { logger: { level: "info", stream: { write: (line: string) => log.push(line) } } } : {}),
    });
    use({ mail, api, server });
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    await api?.close();
    await mail?.close();
  });
}

/**
 * A new investor whose codes go by e-mail: a confirmed `<login>@example.com`, `language`, and `more` of the user row
 * set too.
 */
export async function emailInvestor(
  server: TestServer,
  language: "en" | "ru" | "de" | "kk" = "en",
  more: Partial<typeof schema.users.$inferInsert> = {},
) {
  const inv = await newInvestor(server.handle.db, systemClock);
  const email = `${inv.login}@example.com`;
  await server.handle.db
    .update(schema.users)
    .set({ email, emailConfirmedAt: new Date(), codeChannel: "email", language, ...more })
    .where(eq(schema.users.id, inv.id));
  return { ...inv, email };
}
