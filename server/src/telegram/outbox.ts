/**
 * The chat outbox worker: sends the notifications `notify()` queued in `chat_outbox` to the user's
 * Telegram chat, in the account's language of the moment, with a `web_app` button to the screen
 * concerned. Each row is marked sent once Telegram took it; a failure is retried with exponential
 * backoff capped at five minutes for 72 hours from queueing (a 429 waits `retry_after` and pauses
 * every send); a blocked bot (403) marks the user and ends the row (the account's own notices,
 * `HELD_WHILE_BLOCKED`, wait for the investor to come back), as do an unlinked account and
 * chat notifications turned off. A chat gets its messages in order, one at a time, paced (`PACE`) on a
 * monotonic clock (a wall-clock step back or forward neither stops nor floods delivery). Chats do not
 * wait for each other: a send that takes longer than `SEND_GRACE_MS` goes on by itself (ended by the
 * client's per-call timeout) while the pass goes on to the other chats, and its chat is left out of
 * passes until it ends; the bot starts its next pass once this one has dispatched (`onDispatched`). A message whose send was cut short by a crash (sent, not yet marked) may go
 * out twice: delivery is at least once, never lost. A rendered message is cut to Telegram's 4,096
 * characters (`fitMessage`), never refused for its length.
 */
import { type Language, parseStartParam } from "@contract";
import { and, asc, eq, lte, sql } from "drizzle-orm";
import { type Api, GrammyError, HttpError, InlineKeyboard } from "grammy";
import type { Clock } from "../clock";
import type { Database } from "../db/client";
import { chatOutbox, users } from "../db/schema";
import { renderNotification } from "../services/notifications";
import { userLanguage } from "../services/users";
import { botText } from "../texts/bot";
import { waiting } from "./outbox-backlog";

export { listWaiting, resendGivenUp, retryWaiting } from "./outbox-backlog";

/** What the worker needs of the bot: `bot.api.sendMessage`. */
/** grammY types a call's abort signal with its own shim; the platform's AbortSignal is what it gets at run time. */
type BotApiSignal = Parameters<Api["sendMessage"]>[3];

export interface ChatSender {
  sendMessage(
    chatId: number,
    text: string,
    other: { parse_mode: "HTML"; reply_markup: InlineKeyboard; link_preview_options: { is_disabled: boolean } },
    signal?: BotApiSignal,
  ): Promise<unknown>;
}

export interface OutboxLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** Rows read per pass: per chat at most `PACE.chat.burst`, oldest first. */
const OUTBOX_BATCH = 200;
/** A message is tried this long after it was queued (then given up, with its last error kept). */
export const OUTBOX_GIVE_UP_MS = 72 * 3_600_000;
const BACKOFF_BASE_MS = 5_000;
const BACKOFF_MAX_MS = 5 * 60_000;
/** The longest a pass waits for the overall pace; a longer wait ends the pass (the next one goes on). */
const PASS_MAX_WAIT_MS = 1_000;
/** The longest a pass waits for one send before it goes on to the next chat (the send goes on by itself). */
const SEND_GRACE_MS = 1_000;
/** Notices about the account's safety and money, kept while the bot is blocked and sent when the investor is back. */
const HELD_WHILE_BLOCKED: ReadonlySet<string> = new Set(["withdrawal_status", "wallet_changed", "withdrawals_locked"]);
/** Telegram's longest message text. */
export const MESSAGE_MAX_CHARS = 4096;

/** The wait before attempt `attempts + 1`: 5 s, 10 s, 20 s, … up to five minutes. */
function backoffMs(attempts: number): number {
  return Math.min(BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1), BACKOFF_MAX_MS);
}

/**
 * How fast the outbox writes: per chat about one message a second after a short burst, and overall
 * below Telegram's broadcast limit (about 30 a second), so a mass event does not earn 429s.
 */
export const PACE = {
  chat: { perSecond: 1, burst: 3 },
  overall: { perSecond: 25, burst: 3 },
} as const;

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Token buckets (overall and per chat) on a monotonic clock (`performance.now()` in the outbox, never
 * the wall clock); a 429 pauses them all.
 */
export class Pacer {
  private readonly overall: Bucket;
  private readonly chats = new Map<number, Bucket>();
  private pausedUntil = 0;

  constructor(private readonly pace: { chat: Rate; overall: Rate } = PACE) {
    this.overall = { tokens: pace.overall.burst, at: 0 };
  }

  /** Milliseconds until `chatId` may get its next message (0: now). */
  chatWait(chatId: number, now: number): number {
    const bucket = this.chats.get(chatId);
    return bucket ? waitFor(bucket, this.pace.chat, now) : 0;
  }

  /** Milliseconds until any next message may go (0: now). */
  overallWait(now: number): number {
    return Math.max(this.pausedUntil - now, waitFor(this.overall, this.pace.overall, now));
  }

  /** Counts one message to `chatId` sent at `now`. */
  take(chatId: number, now: number): void {
    refill(this.overall, this.pace.overall, now);
    this.overall.tokens -= 1;
    let bucket = this.chats.get(chatId);
    if (!bucket) {
      if (this.chats.size >= 10_000) this.forgetIdle(now);
      bucket = { tokens: this.pace.chat.burst, at: now };
      this.chats.set(chatId, bucket);
    }
    refill(bucket, this.pace.chat, now);
    bucket.tokens -= 1;
  }

  /** Whether a 429 holds every send at `now`. */
  paused(now: number): boolean {
    return this.pausedUntil > now;
  }

  /** Telegram asked to wait (429 `retry_after`): nothing goes out before `until`. */
  pause(until: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, until);
  }

  /** Chats whose bucket is full again are no different from chats never seen. */
  private forgetIdle(now: number): void {
    for (const [chatId, bucket] of this.chats) {
      refill(bucket, this.pace.chat, now);
      if (bucket.tokens >= this.pace.chat.burst) this.chats.delete(chatId);
    }
  }
}

interface Rate {
  perSecond: number;
  burst: number;
}

function refill(bucket: Bucket, rate: Rate, now: number): void {
  if (now > bucket.at) {
    bucket.tokens = Math.min(rate.burst, bucket.tokens + ((now - bucket.at) * rate.perSecond) / 1000);
    bucket.at = now;
  }
}

function waitFor(bucket: Bucket, rate: Rate, now: number): number {
  refill(bucket, rate, now);
  return bucket.tokens >= 1 ? 0 : Math.ceil(((1 - bucket.tokens) * 1000) / rate.perSecond);
}

/** The pace of this process's deliveries when the caller brings none (one deliverer per process). */
const processPacer = new Pacer();

/**
 * The chats with a send under way in this process. A chat is skipped while its send runs, and by a
 * pass that read the outbox before that send ended (what it read of the chat may be stale).
 */
export class ChatsInFlight {
  private readonly busy = new Map<string, Promise<unknown>>();
  private readonly endedAt = new Map<string, number>();
  private tick = 0;

  /** A mark taken before the outbox is read. */
  mark(): number {
    return ++this.tick;
  }

  /** Whether `userId` may be sent to by a pass that read the outbox at `mark`. */
  free(userId: string, mark: number): boolean {
    return !this.busy.has(userId) && (this.endedAt.get(userId) ?? 0) < mark;
  }

  run<T>(userId: string, work: Promise<T>): Promise<T> {
    this.busy.set(userId, work);
    const end = () => {
      this.busy.delete(userId);
      this.endedAt.set(userId, ++this.tick);
      // Ends older than any pass under way tell nothing: kept small.
      if (this.endedAt.size > 10_000) this.endedAt.clear();
    };
    work.then(end, end);
    return work;
  }

  /** Waits for every send under way (tests, a clean stop). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.busy.values()]);
  }

  get size(): number {
    return this.busy.size;
  }
}

const processInFlight = new ChatsInFlight();

/**
 * The message as Telegram takes it: `<b>title</b>\nbody`, escaped, at most `MESSAGE_MAX_CHARS`
 * characters. The body is cut first, then the title, on the plain text before escaping (so no tag
 * and no `&amp;` is ever cut in two), at a code point boundary, with an ellipsis.
 */
export function fitMessage(title: string, body: string, max = MESSAGE_MAX_CHARS): string {
  const render = (t: string, b: string) => `<b>${escapeHtml(t)}</b>\n${escapeHtml(b)}`;
  if (render(title, body).length <= max) return render(title, body);
  const cut = (text: string, room: number): string => {
    const chars = [...text];
    let out = "";
    let used = 1; // the ellipsis
    for (const ch of chars) {
      const size = escapeHtml(ch).length;
      if (used + size > room) break;
      out += ch;
      used += size;
    }
    return `${out.trimEnd()}…`;
  };
  const titleRoom = max - render("", "").length;
  const fittedTitle = render(title, "").length <= max ? title : cut(title, titleRoom);
  const bodyRoom = max - render(fittedTitle, "").length;
  if (bodyRoom <= 1) return render(fittedTitle, "");
  return render(fittedTitle, cut(body, bodyRoom));
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** The Mini App's address opening `startParam` (`?startapp=<param>`; the app reads it as a start parameter). */
export function miniAppUrl(base: string, startParam: string | null | undefined): string {
  const url = new URL(base);
  if (startParam) url.searchParams.set("startapp", startParam);
  return url.toString();
}

/** The button's words for the screen a start parameter opens. */
function buttonText(language: Language, startParam: string | null | undefined): string {
  const target = parseStartParam(startParam);
  switch (target?.kind) {
    case "refill":
    case "withdrawal":
    case "deposit":
    case "news":
    case "settings":
      return botText(language, `buttons.${target.kind}`);
    case "ref":
      return botText(language, "buttons.register");
    default:
      return botText(language, "buttons.cabinet");
  }
}

export function webAppKeyboard(language: Language, base: string, startParam: string | null | undefined) {
  return new InlineKeyboard().webApp(buttonText(language, startParam), miniAppUrl(base, startParam));
}

export interface OutboxDeps {
  db: Database;
  clock: Clock;
  sender: ChatSender;
  miniAppUrl: string;
  log: OutboxLog;
  /** The pace kept across passes; by default the process's own. */
  pacer?: Pacer;
  /** Waits for the overall pace (a test moves its clock instead). */
  sleep?: (ms: number) => Promise<void>;
  /** Ends the pass early (the bot stopping). */
  stopped?: () => boolean;
  /** Aborts the sends under way (the bot stopping): each ends as a failed attempt, tried again later. */
  signal?: AbortSignal;
  /** The pace's monotonic clock in ms; `performance.now()` by default (a test passes its own). */
  monotonic?: () => number;
  /** The chats with a send under way; by default the process's own. */
  inFlight?: ChatsInFlight;
  /** Overrides `SEND_GRACE_MS`. */
  sendGraceMs?: number;
  /**
   * Called when the pass has started every send it will (the slow ones still under way). The bot
   * starts its next pass from then on; the returned promise settles when every send has ended.
   */
  onDispatched?: () => void;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Sends what is due now, paced, and returns how many rows were sent. Each chat gets its messages in
 * the order they were queued, one at a time: a row waits until the one before it was sent or given
 * up, so a retried message is never overtaken. Telegram down (5xx, no answer) ends the pass.
 */
export async function deliverDue(deps: OutboxDeps): Promise<number> {
  const { db, clock } = deps;
  const pacer = deps.pacer ?? processPacer;
  const sleep = deps.sleep ?? realSleep;
  const monotonic = deps.monotonic ?? (() => performance.now());
  const inFlight = deps.inFlight ?? processInFlight;
  const graceMs = deps.sendGraceMs ?? SEND_GRACE_MS;
  const mark = inFlight.mark();
  // Per chat the first `burst` waiting rows, when the first of them (the chat's head) is due.
  const ranked = db.$with("ranked").as(
    db
      .select({
        id: chatOutbox.id,
        place: sql<number>`row_number() over (partition by ${chatOutbox.userId} order by ${chatOutbox.seq})`.as(
          "place",
        ),
        headDue:
          sql<Date>`first_value(${chatOutbox.nextAttemptAt}) over (partition by ${chatOutbox.userId} order by ${chatOutbox.seq})`.as(
            "head_due",
          ),
      })
      .from(chatOutbox)
      .where(waiting),
  );
  const due = await db
    .with(ranked)
    .select({
      row: chatOutbox,
      telegramId: users.telegramId,
      language: users.language,
      chatNotifications: users.chatNotifications,
      botBlockedAt: users.botBlockedAt,
    })
    .from(ranked)
    .innerJoin(chatOutbox, eq(chatOutbox.id, ranked.id))
    .innerJoin(users, eq(users.id, chatOutbox.userId))
    .where(and(lte(ranked.place, PACE.chat.burst), sql`${ranked.headDue} <= ${clock.now().toISOString()}`))
    .orderBy(asc(chatOutbox.seq))
    .limit(OUTBOX_BATCH);

  let sent = 0;
  // Chats that get nothing more in this pass: their previous message failed or waits, or their pace is spent.
  const held = new Set<string>();
  const slow: Promise<{ ok: true } | { ok: false; telegramDown: boolean }>[] = [];
  for (const item of due) {
    if (deps.stopped?.()) break;
    const { row } = item;
    if (held.has(row.userId)) continue;
    // A send to this chat is under way (or ended after the outbox was read): the next pass sees it.
    if (!inFlight.free(row.userId, mark)) {
      held.add(row.userId);
      continue;
    }
    const giveUp = (reason: string) =>
      db.update(chatOutbox).set({ failedAt: clock.now(), lastError: reason }).where(eq(chatOutbox.id, row.id));
    if (item.telegramId === null) {
      await giveUp("the account is no longer linked to Telegram");
      continue;
    }
    if (!item.chatNotifications) {
      await giveUp("chat notifications are off");
      continue;
    }
    if (item.botBlockedAt !== null) {
      // The account's own notices wait for the investor to come back (any sign of life unblocks);
      // the rest would be stale by then.
      if (!HELD_WHILE_BLOCKED.has(row.kind)) await giveUp("the user blocked the bot");
      continue;
    }
    const telegramId = item.telegramId;
    let now = monotonic();
    if (row.nextAttemptAt.getTime() > clock.now().getTime() || pacer.chatWait(telegramId, now) > 0) {
      held.add(row.userId);
      continue;
    }
    // After a 429 the next pass starts afresh (the refused message, due again, goes first).
    if (pacer.paused(now)) break;
    const wait = pacer.overallWait(now);
    if (wait > PASS_MAX_WAIT_MS) break;
    if (wait > 0) {
      await sleep(wait);
      now = monotonic();
    }
    pacer.take(telegramId, now);
    const language = userLanguage(item);
    const { title, body } = renderNotification(row.kind, row.params, language);
    const send = inFlight.run(
      row.userId,
      (async (): Promise<{ ok: true } | { ok: false; telegramDown: boolean }> => {
        try {
          await deps.sender.sendMessage(
            telegramId,
            fitMessage(title, body),
            {
              parse_mode: "HTML",
              reply_markup: webAppKeyboard(language, deps.miniAppUrl, row.startParam),
              link_preview_options: { is_disabled: true },
            },
            deps.signal as BotApiSignal,
          );
        } catch (error) {
          const outcome = await failed(deps, row, telegramId, error);
          if (outcome.retryAfterMs !== undefined) pacer.pause(monotonic() + outcome.retryAfterMs);
          return { ok: false, telegramDown: outcome.telegramDown };
        }
        await db
          .update(chatOutbox)
          .set({ sentAt: clock.now(), attempts: row.attempts + 1, lastError: null })
          .where(eq(chatOutbox.id, row.id));
        return { ok: true };
      })(),
    );
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      send,
      new Promise<"slow">((resolve) => {
        timer = setTimeout(() => resolve("slow"), graceMs);
      }),
    ]);
    clearTimeout(timer);
    if (outcome === "slow") {
      // Telegram is slow for this chat (or hangs, or a 429 is waited out): the others go on.
      held.add(row.userId);
      slow.push(send);
      continue;
    }
    if (!outcome.ok) {
      held.add(row.userId);
      if (outcome.telegramDown) break;
      continue;
    }
    sent++;
  }
  deps.onDispatched?.();
  // The slow sends, counted when they have ended (the bot does not wait for them: onDispatched).
  for (const outcome of await Promise.all(slow)) if (outcome.ok) sent++;
  return sent;
}

async function failed(
  deps: OutboxDeps,
  row: typeof chatOutbox.$inferSelect,
  telegramId: number,
  error: unknown,
): Promise<{ retryAfterMs?: number; telegramDown: boolean }> {
  const { db, clock } = deps;
  const now = clock.now();
  const attempts = row.attempts + 1;
  const description = error instanceof GrammyError ? `${error.error_code}: ${error.description}` : String(error);
  if (error instanceof GrammyError && error.error_code === 403) {
    // Blocked (or deactivated): no retry; the user is marked until they write to the bot again. An
    // account notice waits for then (HELD_WHILE_BLOCKED).
    await db.update(users).set({ botBlockedAt: now }).where(eq(users.telegramId, telegramId));
    const held = HELD_WHILE_BLOCKED.has(row.kind);
    await db
      .update(chatOutbox)
      .set({ attempts, failedAt: held ? null : now, lastError: description })
      .where(eq(chatOutbox.id, row.id));
    deps.log.info({ outboxId: row.id }, "the user blocked the bot: chat notification dropped");
    return { telegramDown: false };
  }
  const permanent = error instanceof GrammyError && error.error_code === 400;
  const retryAfter = error instanceof GrammyError ? error.parameters.retry_after : undefined;
  const wait = retryAfter !== undefined ? retryAfter * 1000 : backoffMs(attempts);
  const giveUp = permanent || now.getTime() - row.createdAt.getTime() >= OUTBOX_GIVE_UP_MS;
  await db
    .update(chatOutbox)
    .set({
      attempts,
      lastError: description,
      nextAttemptAt: new Date(now.getTime() + wait),
      failedAt: giveUp ? now : null,
    })
    .where(eq(chatOutbox.id, row.id));
  const telegramDown = error instanceof HttpError || (error instanceof GrammyError && error.error_code >= 500);
  deps.log.warn(
    { outboxId: row.id, attempts, error: description, network: error instanceof HttpError, giveUp },
    giveUp ? "chat notification given up" : "chat notification not sent",
  );
  return { ...(retryAfter !== undefined ? { retryAfterMs: retryAfter * 1000 } : {}), telegramDown };
}
