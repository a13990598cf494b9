/**
 * Kassa's chat bot (grammY), in the server process. What it says is in `conversation.ts` (private
 * chats only); here it notes who blocked it, and on start sets its commands (for private chats),
 * names and descriptions in the four languages (Russian, the product's fallback, as the default for
 * every other language) and the default menu button that opens the Mini App. Every update is
 * handled once (`update_id` kept); a failing handler is logged and the bot goes on; Bot API calls
 * honour 429 `retry_after` (auto-retry). The lease holder also sends the chat outbox, queues the
 * daily accruals (`broadcasts.ts`) and sets a chat's menu button again after the investor changed
 * language in the app (`menus.ts`).
 */
import { createHash, createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { FALLBACK_LANGUAGE, LANGUAGES, type Language } from "@contract";
import { autoRetry } from "@grammyjs/auto-retry";
import { type RunnerHandle, run, sequentialize } from "@grammyjs/runner";
import { eq } from "drizzle-orm";
import { Bot, BotError, GrammyError, HttpError } from "grammy";
import type { LanguageCode, Update } from "grammy/types";
import type { Clock } from "../clock";
import type { Database } from "../db/client";
import { holdsAlone, LEASE_RENEW_MS, LEASE_TTL_MS, LEASES, releaseLease, tryLease } from "../db/leader";
import { resultRows } from "../db/rows";
import { users } from "../db/schema";
import type { Env } from "../env";
import { Jobs } from "../jobs";
import { queueDigests } from "../services/broadcasts";
import type { Invitation } from "../services/partner-invite";
import { botText } from "../texts/bot";
import { BOT_COMMANDS, miniAppAddressProblem, registerConversation } from "./conversation";
import { syncMenus } from "./menus";
import { deliverDue, miniAppUrl, type OutboxLog } from "./outbox";
import { callTimeout, persist, retryServerErrorOnce } from "./persist";
import { takeUpdateSql } from "./updates";

export { BOT_COMMANDS, languageOf, miniAppAddressProblem } from "./conversation";

export const WEBHOOK_PATH = "/telegram/webhook";
export const SECRET_HEADER = "x-telegram-bot-api-secret-token";
const OUTBOX_INTERVAL_MS = 1_000;
const DIGEST_INTERVAL_MS = 60_000;
/** How often the lease holder brings the chats' menu buttons in line with a language changed in the app. */
const MENU_INTERVAL_MS = 15_000;
/** The bot's jobs (jobs.ts) and their time limits: a pass of menus makes one Bot API call per changed chat. */
const BOT_JOBS = {
  lease: { name: "bot-lease", timeoutMs: LEASE_TTL_MS },
  outbox: { name: "chat-outbox", timeoutMs: 60_000 },
  digests: { name: "chat-digests", timeoutMs: 60_000 },
  menus: { name: "chat-menus", timeoutMs: 5 * 60_000 },
} as const;
/** The longest any Bot API call may take (getUpdates: its long-poll timeout more). */
export const BOT_CALL_TIMEOUT_MS = 10_000;
/** getUpdates waits this long for an update (long polling). */
const POLL_TIMEOUT_SECONDS = 25;
/** Updates handled at once in long polling (one chat's in order, `sequentialize`). */
const POLL_CONCURRENCY = 100;
/** A refused set-up (getMe, setWebhook) is tried again after 1 min, doubling up to 15 min. */
export const SETUP_RETRY_MS = { first: 60_000, max: 15 * 60_000 };
const ALLOWED_UPDATES = ["message", "callback_query", "my_chat_member"] as const;

/** What readiness says of the bot: `ready` once getMe (and setWebhook) went through. */
export interface BotHealth {
  state: "starting" | "ready" | "failing";
  mode: "webhook" | "polling";
  /** Telegram's refusal and what to change, while `failing`. */
  problem: string | null;
  /** Whether this process holds the lease (polls and sends the chat outbox). */
  leader: boolean;
  /** Whether the chat outbox runs in this process (the leader's, whether or not the set-up went through). */
  outbox: "running" | "stopped";
}

export interface BotLog extends OutboxLog {
  error(obj: object, msg: string): void;
}

export interface KassaBotOptions {
  env: Env;
  db: Database;
  clock: Clock;
  log: BotLog;
  /** Overrides `BOT_CALL_TIMEOUT_MS` (tests). */
  callTimeoutMs?: number;
  /** Overrides `SETUP_RETRY_MS` (tests). */
  setUpRetryMs?: { first: number; max: number };
  /** The server's background jobs, which the bot's periodic work joins; its own when absent. */
  jobs?: Jobs;
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
  /** Where the bot's periodic work runs: the lease, the chat outbox, the digests and the menu buttons. */
  readonly jobs: Jobs;
  private holdsLease = false;
  private runner: RunnerHandle | null = null;
  private stopped = false;
  /** The pass dispatching now (null: none); a pass whose sends are still under way no longer counts. */
  private delivering: symbol | null = null;
  /** The outbox passes under way (a slow send keeps its pass open); aborted and awaited by stop(). */
  private readonly passes = new Set<Promise<number>>();
  private readonly sending = new AbortController();
  private started = false;
  private state: BotHealth["state"] = "starting";
  private problem: string | null = null;
  private wakeSetUp: (() => void) | null = null;

  constructor(private readonly options: KassaBotOptions) {
    const { env } = options;
    this.secret = webhookSecret(env);
    this.jobs = options.jobs ?? new Jobs(options.db, env.DATABASE_URL ? "postgres" : "pglite", options.log);
    const callMs = options.callTimeoutMs ?? BOT_CALL_TIMEOUT_MS;
    this.bot = new Bot(env.TELEGRAM_BOT_TOKEN, {
      client: {
        apiRoot: env.TELEGRAM_API_ROOT,
        // Telegram's test environment: every call goes to <root>/bot<token>/test/<method>.
        environment: env.TELEGRAM_ENV,
        // grammY's own limit stays above callTimeout's (which ends a hung call first).
        timeoutSeconds: Math.ceil(callMs / 1000) + POLL_TIMEOUT_SECONDS + 30,
      },
    });
    // First, so that it bounds each attempt of the transformers below: one hung call ends after callMs.
    this.bot.api.config.use(callTimeout(callMs));
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

    // One chat's updates in order, different chats' at once (long polling hands updates over
    // concurrently, so does the webhook): a slow or hung reply to one investor holds no one else.
    bot.use(sequentialize((ctx) => String(ctx.chat?.id ?? ctx.from?.id ?? "")));

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
   * Stores an invitation for the Telegram user `telegramId` to send from the Mini App to a chat of their choice
   * (Bot API 8.0 `savePreparedInlineMessage`; any private chat, group or channel, not a bot); resolves with its id.
   */
  async prepareInvitation(telegramId: number, invitation: Invitation): Promise<string> {
    const prepared = await this.bot.api.savePreparedInlineMessage(
      telegramId,
      {
        type: "article",
        id: randomUUID(),
        title: invitation.title,
        description: invitation.text,
        input_message_content: { message_text: invitation.text },
        reply_markup: { inline_keyboard: [[{ text: invitation.button.text, url: invitation.button.url }]] },
      },
      // The call's time limit is the client's own (`callTimeout`), as for every Bot API call.
      { allow_user_chats: true, allow_group_chats: true, allow_channel_chats: true, allow_bot_chats: false },
    );
    return prepared.id;
  }

  /**
   * Starts the bot. The chat outbox, the lease and the digest run at once (sending needs no set-up);
   * the set-up (getMe, then setWebhook when PUBLIC_URL is set, else long polling in the lease holder)
   * runs in the background and, refused, is tried again after a minute, doubling up to 15 minutes.
   * A refusal is logged once with its cause and what to change, and readiness shows it (`health()`).
   * The commands, names and menu button follow in the background (a 429 waits, `persist`).
   * Throws only for a configuration the bot cannot work with (the Mini App address).
   */
  async start(): Promise<void> {
    const problem = miniAppAddressProblem(this.options.env);
    if (problem) throw new Error(problem);
    if (this.started) return;
    this.started = true;
    await this.tickLease();
    const leader = () => this.holdsLease && !this.stopped;
    const { jobs } = this;
    jobs.add({ ...BOT_JOBS.lease, everyMs: LEASE_RENEW_MS, atStart: false, run: () => this.tickLease() });
    jobs.add({ ...BOT_JOBS.outbox, everyMs: OUTBOX_INTERVAL_MS, active: leader, run: () => this.outboxPass() });
    jobs.add({ ...BOT_JOBS.digests, everyMs: DIGEST_INTERVAL_MS, active: leader, run: () => this.queueDigests() });
    jobs.add({ ...BOT_JOBS.menus, everyMs: MENU_INTERVAL_MS, active: leader, run: () => this.syncMenus() });
    jobs.start();
    void this.setUpUntilDone();
  }

  /** The bot's state for readiness. */
  health(): BotHealth {
    return {
      state: this.state,
      mode: this.options.env.PUBLIC_URL ? "webhook" : "polling",
      problem: this.problem,
      leader: this.holdsLease,
      outbox: this.started && !this.stopped && this.holdsLease ? "running" : "stopped",
    };
  }

  private async setUpUntilDone(): Promise<void> {
    const { log } = this.options;
    const retry = this.options.setUpRetryMs ?? SETUP_RETRY_MS;
    let wait = retry.first;
    while (!this.stopped) {
      try {
        await this.setUp();
        if (this.state !== "ready") log.info({ mode: this.health().mode }, "chat bot ready");
        this.state = "ready";
        this.problem = null;
        void this.tickLease();
        return;
      } catch (error) {
        const problem = setUpProblem(error, this.options.env);
        // Once per cause: the same refusal every few minutes is the same news.
        if (problem !== this.problem)
          log.error({ err: error, retryInSeconds: Math.round(wait / 1000) }, `chat bot set-up refused: ${problem}`);
        this.problem = problem;
        this.state = "failing";
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, wait);
          timer.unref();
          this.wakeSetUp = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wakeSetUp = null;
        wait = Math.min(wait * 2, retry.max);
      }
    }
  }

  private async setUp(): Promise<void> {
    const { env, log } = this.options;
    await this.init();
    if (env.PUBLIC_URL) {
      await this.bot.api.setWebhook(`${env.PUBLIC_URL}/api${WEBHOOK_PATH}`, {
        secret_token: this.secret,
        allowed_updates: [...ALLOWED_UPDATES],
      });
    }
    // A 429 (or Telegram down) during the configuration waits and runs it again, until it is done.
    void persist(() => this.configure(), { log, what: "bot configuration", stopped: () => this.stopped }).catch(
      (error: unknown) => log.warn({ err: error }, "bot configuration failed"),
    );
  }

  /** The daily accruals of the chats that asked for them (only in the lease holder). */
  async queueDigests(): Promise<number> {
    if (!this.holdsLease || this.stopped) return 0;
    return await queueDigests(this.options.db, this.options.clock.now());
  }

  /** The chats' menu buttons in the account's language after it changed in the app (only in the lease holder). */
  async syncMenus(): Promise<number> {
    if (!this.holdsLease || this.stopped) return 0;
    const { db, clock, env, log } = this.options;
    return await syncMenus({ db, clock, api: this.bot.api, miniAppUrl: env.MINI_APP_URL, log });
  }

  private async tickLease(): Promise<void> {
    if (this.stopped) return;
    const { db, log, env } = this.options;
    try {
      // The embedded database has one process by construction (its folder lock): no lease needed.
      this.holdsLease = holdsAlone(env.DATABASE_URL ? "postgres" : "pglite")
        ? true
        : await tryLease(db, LEASES.bot, this.holder, LEASE_TTL_MS, new Date());
    } catch (error) {
      log.warn({ err: error }, "bot lease not renewed");
      this.holdsLease = false;
    }
    if (this.holdsLease && !env.PUBLIC_URL && this.state === "ready" && !this.runner && !this.stopped) {
      log.info({}, "bot: long polling");
      this.runner = this.poll();
    } else if (!this.holdsLease && this.runner) {
      const runner = this.runner;
      this.runner = null;
      await runner.stop();
    }
  }

  /**
   * Long polling with grammY's runner: updates are handled concurrently (one chat's in order), so a
   * hung Bot API call holds its own chat only. A webhook left from another set-up is removed first.
   */
  private poll(): RunnerHandle {
    const { log } = this.options;
    void this.bot.api.deleteWebhook({ drop_pending_updates: false }).catch((error: unknown) => {
      log.warn({ err: error }, "webhook not removed");
    });
    const runner = run(this.bot, {
      runner: {
        fetch: { allowed_updates: [...ALLOWED_UPDATES], timeout: POLL_TIMEOUT_SECONDS },
        silent: true,
        retryInterval: 1_000,
      },
      sink: { concurrency: POLL_CONCURRENCY },
    });
    void runner
      .task()
      ?.then(
        () => undefined,
        (error: unknown) => log.error({ err: error }, "bot polling stopped"),
      )
      .finally(() => {
        if (this.runner === runner) this.runner = null;
      });
    return runner;
  }

  /**
   * One pass of the chat outbox (only in the lease holder). The next pass may start once this one has
   * dispatched its sends: a slow or hung send holds its own chat only. Resolves with the messages sent
   * once every send of the pass has ended.
   */
  async deliver(onDispatched?: () => void): Promise<number> {
    if (!this.holdsLease || this.delivering || this.stopped) {
      onDispatched?.();
      return 0;
    }
    const pass = Symbol("outbox pass");
    this.delivering = pass;
    const dispatched = () => {
      if (this.delivering === pass) this.delivering = null;
      onDispatched?.();
    };
    const run = (async () => {
      try {
        return await deliverDue({
          db: this.options.db,
          clock: this.options.clock,
          sender: this.bot.api,
          miniAppUrl: this.options.env.MINI_APP_URL,
          log: this.options.log,
          // A pass ends as soon as this process stops or loses the lease: one deliverer at a time.
          stopped: () => this.stopped || !this.holdsLease,
          signal: this.sending.signal,
          onDispatched: dispatched,
        });
      } catch (error) {
        this.options.log.warn({ err: error }, "chat outbox pass failed");
        return 0;
      } finally {
        dispatched();
      }
    })();
    // Kept until every send of the pass has ended: stop() waits for them before the database closes.
    this.passes.add(run);
    void run.finally(() => this.passes.delete(run));
    return await run;
  }

  /** The chat outbox's job: a pass, done once its sends are dispatched (a hung send holds its own chat only). */
  private outboxPass(): Promise<void> {
    return new Promise<void>((resolve) => {
      void this.deliver(resolve).finally(resolve);
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeSetUp?.();
    const runner = this.runner;
    this.runner = null;
    if (runner?.isRunning()) await runner.stop().catch(() => undefined);
    // A send under way ends now as a failed attempt (recorded, tried again by the next deliverer).
    this.sending.abort();
    await Promise.all(Object.values(BOT_JOBS).map((job) => this.jobs.remove(job.name)));
    await Promise.allSettled([...this.passes]);
    if (this.holdsLease && this.options.env.DATABASE_URL)
      await releaseLease(this.options.db, LEASES.bot, this.holder).catch(() => undefined);
  }
}

/** What Telegram refused in the set-up, and what to change. */
export function setUpProblem(error: unknown, env: Env): string {
  if (error instanceof GrammyError) {
    const what = `${error.method}: ${error.error_code} ${error.description}`;
    if (error.error_code === 401 || error.error_code === 404)
      return `${what}: TELEGRAM_BOT_TOKEN is not a token of this environment (TELEGRAM_ENV=${env.TELEGRAM_ENV}); check the token and TELEGRAM_ENV`;
    if (error.method === "setWebhook")
      return `${what}: PUBLIC_URL (${env.PUBLIC_URL ?? "unset"}) must be a public https:// address on port 443, 80, 88 or 8443 with a certificate Telegram trusts; or unset PUBLIC_URL for long polling`;
    if (error.error_code === 429) return `${what}: Telegram asks to wait; the set-up is tried again`;
    return what;
  }
  if (error instanceof HttpError)
    return `the Bot API at ${env.TELEGRAM_API_ROOT} does not answer (${error.message}); check TELEGRAM_API_ROOT and the network`;
  return String(error instanceof Error ? error.message : error);
}
