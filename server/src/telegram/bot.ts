/**
 * Kassa's chat bot (grammY), in the server process. What it says is in `conversation.ts` (private
 * chats only); here it notes who blocked it, and on start sets its commands (for private chats),
 * names and descriptions in the four languages (Russian, the product's fallback, as the default for
 * every other language) and the default menu button that opens the Mini App. Every update is
 * handled once (`update_id` kept); a failing handler is logged and the bot goes on; Bot API calls
 * honour 429 `retry_after` (auto-retry). The lease holder also sends the chat outbox and queues the
 * daily accruals (`broadcasts.ts`).
 */
import { createHash, createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { FALLBACK_LANGUAGE, LANGUAGES, type Language } from "@contract";
import { autoRetry } from "@grammyjs/auto-retry";
import { eq } from "drizzle-orm";
import { Bot, BotError } from "grammy";
import type { LanguageCode, Update } from "grammy/types";
import type { Clock } from "../clock";
import type { Database } from "../db/client";
import { users } from "../db/schema";
import type { Env } from "../env";
import { queueDigests } from "./broadcasts";
import { BOT_COMMANDS, miniAppAddressProblem, registerConversation } from "./conversation";
import { releaseLease, resultRows, tryLease } from "./lease";
import { deliverDue, miniAppUrl, type OutboxLog } from "./outbox";
import { persist, retryServerErrorOnce } from "./persist";
import { botText } from "./texts";
import { takeUpdateSql } from "./updates";

export { BOT_COMMANDS, languageOf, miniAppAddressProblem } from "./conversation";

export const WEBHOOK_PATH = "/telegram/webhook";
export const SECRET_HEADER = "x-telegram-bot-api-secret-token";
const LEASE_NAME = "telegram-bot";
const LEASE_TTL_MS = 30_000;
const LEASE_RENEW_MS = 10_000;
const OUTBOX_INTERVAL_MS = 1_000;
const DIGEST_INTERVAL_MS = 60_000;

export interface BotLog extends OutboxLog {
  error(obj: object, msg: string): void;
}

export interface KassaBotOptions {
  env: Env;
  db: Database;
  clock: Clock;
  log: BotLog;
}

/** The webhook's secret: TELEGRAM_WEBHOOK_SECRET, else an HMAC of the token (the same in every process). */
export function webhookSecret(env: Env): string {
  return (
    env.TELEGRAM_WEBHOOK_SECRET ??
    createHmac("sha256", env.TELEGRAM_BOT_TOKEN).update("kassa-telegram-webhook").digest("base64url")
  );
}

/** Constant-time comparison of the header with the secret (hashes first, so lengths do not leak). */
export function secretMatches(given: string | undefined, secret: string): boolean {
  if (typeof given !== "string") return false;
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(secret).digest();
  return timingSafeEqual(a, b);
}

export class KassaBot {
  readonly bot: Bot;
  readonly secret: string;
  private readonly holder = randomUUID();
  private initialized: Promise<void> | null = null;
  private leaseTimer: NodeJS.Timeout | null = null;
  private outboxTimer: NodeJS.Timeout | null = null;
  private digestTimer: NodeJS.Timeout | null = null;
  private holdsLease = false;
  private polling = false;
  private stopped = false;
  private delivering = false;

  constructor(private readonly options: KassaBotOptions) {
    const { env } = options;
    this.secret = webhookSecret(env);
    this.bot = new Bot(env.TELEGRAM_BOT_TOKEN, { client: { apiRoot: env.TELEGRAM_API_ROOT } });
    // 429: wait retry_after and try again (up to a minute per call; longer waits fail the call). A server
    // error is tried once more after half a second (one lost answer does not lose a reply); beyond that,
    // and on network errors, the call fails: the outbox has its own backoff.
    this.bot.api.config.use(retryServerErrorOnce());
    this.bot.api.config.use(
      autoRetry({
        maxRetryAttempts: 3,
        maxDelaySeconds: 60,
        rethrowInternalServerErrors: true,
        rethrowHttpErrors: true,
      }),
    );
    this.registerHandlers();
  }

  private get db() {
    return this.options.db;
  }

  /** `getMe` once; webhook updates wait for it. */
  init(): Promise<void> {
    this.initialized ??= this.bot.init().catch((error: unknown) => {
      this.initialized = null;
      throw error;
    });
    return this.initialized;
  }

  /** Handles one update (webhook); never throws for a failing handler (bot.catch logs it). */
  async handleUpdate(update: Update): Promise<void> {
    await this.init();
    try {
      await this.bot.handleUpdate(update);
    } catch (error) {
      // A handler's error comes back as a BotError; polling hands it to bot.catch, so does the webhook.
      if (!(error instanceof BotError)) throw error;
      this.logHandlerError(error);
    }
  }

  private logHandlerError(error: BotError): void {
    this.options.log.error({ err: error.error, updateId: error.ctx.update.update_id }, "bot handler failed");
  }

  private registerHandlers(): void {
    const { bot } = this;

    // Idempotent: an update_id seen before (a webhook retry, a restart mid-batch) is skipped.
    bot.use(async (ctx, next) => {
      const result = await this.db.execute(takeUpdateSql(ctx.update.update_id, this.options.clock.now().toISOString()));
      if (resultRows(result).length === 0) return;
      await next();
    });

    bot.on("my_chat_member", async (ctx) => {
      const status = ctx.myChatMember.new_chat_member.status;
      if (ctx.chat.type !== "private") return;
      const blocked = status === "kicked" ? this.options.clock.now() : null;
      await this.db.update(users).set({ botBlockedAt: blocked }).where(eq(users.telegramId, ctx.myChatMember.from.id));
    });

    registerConversation(bot, this.options);

    bot.catch((error) => this.logHandlerError(error));
  }

  /**
   * Commands, names and descriptions in the four languages (Russian also as the default, for every
   * other client language) and the default menu button. The commands are for private chats (scope
   * `all_private_chats`); the default scope's are deleted, so groups list none. Names and
   * descriptions are read first and set only when they differ: Telegram limits how often they may change.
   */
  async configure(): Promise<void> {
    const { api } = this.bot;
    const scopes: [Language, LanguageCode | undefined][] = [
      [FALLBACK_LANGUAGE, undefined],
      ...LANGUAGES.map((lng): [Language, LanguageCode] => [lng, lng as LanguageCode]),
    ];
    for (const [language, code] of scopes) {
      const lc = code ? { language_code: code } : {};
      await api.setMyCommands(
        BOT_COMMANDS.map((command) => ({ command, description: botText(language, `commands.${command}`) })),
        { scope: { type: "all_private_chats" }, ...lc },
      );
      await api.deleteMyCommands(lc);
      const name = botText(language, "name");
      if ((await api.getMyName(lc)).name !== name) await api.setMyName(name, lc);
      const description = botText(language, "description");
      if ((await api.getMyDescription(lc)).description !== description) await api.setMyDescription(description, lc);
      const short = botText(language, "shortDescription");
      if ((await api.getMyShortDescription(lc)).short_description !== short) await api.setMyShortDescription(short, lc);
    }
    await api.setChatMenuButton({
      menu_button: {
        type: "web_app",
        text: botText(FALLBACK_LANGUAGE, "menuButton"),
        web_app: { url: miniAppUrl(this.options.env.MINI_APP_URL, null) },
      },
    });
  }

  /**
   * Starts the bot: getMe, configuration (in the background: a slow or refused call does not hold
   * the server), the webhook when PUBLIC_URL is set, else long polling; polling and the chat outbox
   * run in the process holding the lease, the others keep trying to take it over.
   */
  async start(): Promise<void> {
    const { env, log } = this.options;
    const problem = miniAppAddressProblem(env);
    if (problem) throw new Error(problem);
    await this.init();
    // A 429 (or Telegram down) during the set-up waits and runs it again, until it is done.
    void persist(() => this.configure(), { log, what: "bot configuration", stopped: () => this.stopped }).catch(
      (error: unknown) => log.warn({ err: error }, "bot configuration failed"),
    );
    if (env.PUBLIC_URL) {
      await this.bot.api.setWebhook(`${env.PUBLIC_URL}/api${WEBHOOK_PATH}`, {
        secret_token: this.secret,
        allowed_updates: ["message", "callback_query", "my_chat_member"],
      });
    }
    await this.tickLease();
    this.leaseTimer = setInterval(() => void this.tickLease(), LEASE_RENEW_MS);
    this.outboxTimer = setInterval(() => void this.deliver(), OUTBOX_INTERVAL_MS);
    this.digestTimer = setInterval(() => void this.queueDigests(), DIGEST_INTERVAL_MS);
  }

  /** The daily accruals of the chats that asked for them (only in the lease holder). */
  async queueDigests(): Promise<number> {
    if (!this.holdsLease || this.stopped) return 0;
    try {
      return await queueDigests(this.options.db, this.options.clock.now());
    } catch (error) {
      this.options.log.warn({ err: error }, "daily accruals not queued");
      return 0;
    }
  }

  private async tickLease(): Promise<void> {
    if (this.stopped) return;
    const { db, clock, log, env } = this.options;
    try {
      // The embedded database has one process by construction (its folder lock): no lease needed.
      this.holdsLease = env.DATABASE_URL
        ? await tryLease(db, LEASE_NAME, this.holder, LEASE_TTL_MS, clock.now())
        : true;
    } catch (error) {
      log.warn({ err: error }, "bot lease not renewed");
      this.holdsLease = false;
    }
    if (this.holdsLease && !env.PUBLIC_URL && !this.polling) {
      this.polling = true;
      log.info({}, "bot: long polling");
      // bot.start() removes a webhook and polls until stop(); errors of handlers go to bot.catch.
      void this.bot
        .start({ allowed_updates: ["message", "callback_query", "my_chat_member"], drop_pending_updates: false })
        .catch((error: unknown) => log.error({ err: error }, "bot polling stopped"))
        .finally(() => {
          this.polling = false;
        });
    } else if (!this.holdsLease && this.polling) {
      await this.bot.stop();
    }
  }

  /** One pass of the chat outbox (only in the lease holder). */
  async deliver(): Promise<number> {
    if (!this.holdsLease || this.delivering || this.stopped) return 0;
    this.delivering = true;
    try {
      return await deliverDue({
        db: this.options.db,
        clock: this.options.clock,
        sender: this.bot.api,
        miniAppUrl: this.options.env.MINI_APP_URL,
        log: this.options.log,
        // A pass ends as soon as this process stops or loses the lease: one deliverer at a time.
        stopped: () => this.stopped || !this.holdsLease,
      });
    } catch (error) {
      this.options.log.warn({ err: error }, "chat outbox pass failed");
      return 0;
    } finally {
      this.delivering = false;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.leaseTimer) clearInterval(this.leaseTimer);
    if (this.outboxTimer) clearInterval(this.outboxTimer);
    if (this.digestTimer) clearInterval(this.digestTimer);
    if (this.polling) await this.bot.stop().catch(() => undefined);
    if (this.holdsLease && this.options.env.DATABASE_URL)
      await releaseLease(this.options.db, LEASE_NAME, this.holder).catch(() => undefined);
  }
}
