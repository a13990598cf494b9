/** Helpers of the bot tests: a test server whose bot talks to the Bot API stand-in (tests/e2e/support/bot-api.ts). */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { systemClock } from "../../server/src/clock";
import { users } from "../../server/src/db/schema";
import type { KassaBot } from "../../server/src/telegram/bot";
import { type BotApiStandIn, startBotApiStandIn } from "../e2e/support/bot-api";
import { createTestServer, type TestServer } from "./helpers";
import { type Investor, newInvestor } from "./money";

/** The bot of a test server started with TELEGRAM_API_ROOT. */
export function botOf(server: TestServer): KassaBot {
  if (!server.app.bot) throw new Error("the bot should run with TELEGRAM_API_ROOT set");
  return server.app.bot;
}

interface BotApiServer {
  api: BotApiStandIn;
  server: TestServer;
}
interface BotApiServerOptions {
  env?: Record<string, string>;
  seed?: boolean;
}
/**
 * Called in a describe: before its tests the Bot API stand-in and a test server whose bot talks to it (`env` on top of
 * TELEGRAM_API_ROOT, `seed` as createTestServer's), with an investor whose Telegram chat is `telegramId` when given,
 * the bot initialised; handed to `use`. Before each test the stand-in forgets the calls it recorded and answers
 * sendMessage and setMyName as usual again; after its tests both are closed.
 */
export function serverWithBotApi(
  use: (made: BotApiServer & { investor: Investor }) => void,
  options: BotApiServerOptions & { telegramId: number },
): void;
export function serverWithBotApi(use: (made: BotApiServer) => void, options?: BotApiServerOptions): void;
export function serverWithBotApi(
  use: (made: BotApiServer & { investor: Investor }) => void,
  options: BotApiServerOptions & { telegramId?: number } = {},
): void {
  let api: BotApiStandIn | undefined;
  let server: TestServer | undefined;
  beforeAll(async () => {
    api = await startBotApiStandIn();
    server = await createTestServer({ env: { TELEGRAM_API_ROOT: api.url, ...options.env }, seed: options.seed });
    let investor: Investor | undefined;
    if (options.telegramId !== undefined) {
      investor = await newInvestor(server.handle.db, systemClock);
      await server.handle.db.update(users).set({ telegramId: options.telegramId }).where(eq(users.id, investor.id));
    }
    await botOf(server).init();
    // Without telegramId no investor, and the overload without one is the one called.
    use({ api, server, investor } as BotApiServer & { investor: Investor });
  });
  afterAll(async () => {
    await server?.close();
    await api?.close();
  });
  beforeEach(() => {
    if (!api) return;
    api.calls.length = 0;
    for (const method of ["sendMessage", "setMyName"]) api.override(method, null);
  });
}
