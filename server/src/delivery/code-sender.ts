/**
 * How a verification code reaches its user (docs/decisions.md#d5-codes): through the user's channel (their
 * security setting). Development and tests use the outbox sender; production routes each channel
 * to its provider, and a channel without one fails (502 CODE_SEND_FAILED at the call). A provider
 * that refuses for a while (429, 5xx, no answer) is tried again within the code's life; one that
 * cannot deliver (a blocked bot, no provider) hands the code to the user's next channel, and the
 * sender says which channel took it.
 */
import type { CodeChannel, Language } from "@contract";
import type { CodePurpose } from "../db/schema";
import { botText } from "../texts/bot";

export interface CodeDelivery {
  login: string;
  language: Language;
  channel: CodeChannel;
  telegramId: number | null;
  /** The user blocked the bot (marked on a 403): the chat is tried last, after every other channel. */
  telegramBlocked?: boolean;
  email: string | null;
  phone: string | null;
  purpose: CodePurpose;
  code: string;
  expiresInSeconds: number;
  /** How long the sender may keep trying (seconds); by default `SEND_PATIENCE_MS`, the caller waits. */
  patienceSeconds?: number;
  /** On `channel` or not at all: a code that confirms the channel must not reach the user another way. */
  only?: boolean;
  /**
   * Called when the user's chat refused the bot (403: blocked): the caller marks the chat blocked, as
   * the chat outbox does, so the next code and Settings go to the next channel.
   */
  onBotBlocked?: () => Promise<void>;
}

/** Whom a code is for: the chosen channel and the addresses the user has. */
export type CodeRecipient = Pick<CodeDelivery, "channel" | "telegramId" | "email" | "phone" | "telegramBlocked">;

/** A message without a code through the user's channel: something changed on the account. */
export interface ChannelNotice {
  login: string;
  channel: CodeChannel;
  telegramId: number | null;
  email: string | null;
  phone: string | null;
  /** The whole message, in the user's language. */
  text: string;
  /** Its headline (an e-mail's subject), in the same language. */
  title?: string;
  /** The user's language (an e-mail's footer). */
  language?: Language;
  /** The same for every attempt at one notice (the outbox row's): an e-mail's Message-ID is made from it. */
  key?: string;
  /** An HTML body (already safe: a news item's sanitised body) for an e-mail; else the text is escaped. */
  html?: string;
  /** `List-Unsubscribe` (an https link, one-click, RFC 8058) for a mailing: news by e-mail. */
  unsubscribe?: string;
}

export interface CodeSender {
  /**
   * Resolves once a provider accepted the message, with the channel it went through when the sender
   * knows it; rejects (any error) when none did.
   */
  send(delivery: CodeDelivery): Promise<CodeChannel | undefined> | Promise<void>;
  /** Sends a notice the same way; rejects when it was not accepted (a sender without notices rejects). */
  tell?(notice: ChannelNotice): Promise<void>;
  /**
   * The channel a code for `recipient` would go through now, as `send` chooses it (null: none can take
   * it), so Settings can say where codes really go. A sender without it delivers on the chosen channel.
   */
  route?(recipient: CodeRecipient): CodeChannel | null;
  /**
   * Whether this server has a provider for `channel` (a sender without it: every channel, as the
   * development outbox takes them all).
   */
  delivers?(channel: CodeChannel): boolean;
}

export class CodeSendError extends Error {
  /** Worth trying again: the provider was busy or down (429, 5xx, no answer), not refusing this message. */
  readonly transient: boolean;
  /** The wait the provider asked for (429 `retry_after`). */
  readonly retryAfterSeconds: number | undefined;
  /** The recipient refuses this sender for good (Telegram's 403: the user blocked the bot). */
  readonly blocked: boolean;

  constructor(
    message: string,
    options?: { cause?: unknown; transient?: boolean; retryAfterSeconds?: number | undefined; blocked?: boolean },
  ) {
    super(message, options);
    this.name = "CodeSendError";
    this.transient = options?.transient ?? false;
    this.retryAfterSeconds = options?.retryAfterSeconds;
    this.blocked = options?.blocked ?? false;
  }
}

/** How long a code's sending may wait for a busy or failing provider while the user waits for the reply. */
const SEND_PATIENCE_MS = 15_000;
const FIRST_RETRY_MS = 1_000;
const CHANNEL_ORDER: readonly CodeChannel[] = ["telegram", "email", "sms"];

/** Whether the user has an address on `channel` (a Telegram chat, an e-mail, a phone number). */
function reachable(delivery: CodeRecipient, channel: CodeChannel): boolean {
  if (channel === "telegram") return delivery.telegramId !== null;
  if (channel === "email") return delivery.email !== null;
  return delivery.phone !== null;
}

/**
 * The channels in the order a code tries them: the chosen one, then the others (`CHANNEL_ORDER`); a
 * chat that blocked the bot goes last, so it is tried only when nothing else can take the code.
 */
function channelOrder(recipient: CodeRecipient): CodeChannel[] {
  const order = [recipient.channel, ...CHANNEL_ORDER.filter((c) => c !== recipient.channel)];
  if (!recipient.telegramBlocked) return order;
  return [...order.filter((c) => c !== "telegram"), "telegram"];
}

/**
 * Routes each channel to its provider. The user's channel first: a busy or failing provider is tried
 * again (after its `retry_after`, else 1 s, 2 s, 4 s, …) while the code lives and the patience
 * lasts; a provider that cannot deliver, or that stayed down, hands the code to the next channel the
 * user has an address on and a provider exists for. Resolves with the channel that took the code.
 */
export class ChannelCodeSender implements CodeSender {
  constructor(
    private readonly providers: Partial<Record<CodeChannel, CodeSender>>,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  async send(delivery: CodeDelivery): Promise<CodeChannel> {
    const deadline =
      Date.now() +
      Math.min(delivery.expiresInSeconds * 1000, (delivery.patienceSeconds ?? SEND_PATIENCE_MS / 1000) * 1000);
    const order = channelOrder(delivery);
    const channels = delivery.only
      ? [delivery.channel]
      : order.filter((c) => c === delivery.channel || (this.providers[c] !== undefined && reachable(delivery, c)));
    let failure: unknown;
    for (const channel of channels) {
      const provider = this.providers[channel];
      if (!provider) {
        failure ??= new CodeSendError(`no provider is configured for the ${channel} channel`);
        continue;
      }
      try {
        await this.sendPatiently(provider, { ...delivery, channel }, deadline);
        return channel;
      } catch (error) {
        if (channel === "telegram" && error instanceof CodeSendError && error.blocked)
          await delivery.onBotBlocked?.().catch(() => {});
        // The first channel's reason is the one worth reporting.
        failure ??= error;
      }
    }
    throw failure;
  }

  /** The first channel `send` would try that has a provider and an address: the chosen one, else the fallback. */
  route(recipient: CodeRecipient): CodeChannel | null {
    return channelOrder(recipient).find((c) => this.providers[c] !== undefined && reachable(recipient, c)) ?? null;
  }

  delivers(channel: CodeChannel): boolean {
    return this.providers[channel] !== undefined;
  }

  private async sendPatiently(provider: CodeSender, delivery: CodeDelivery, deadline: number): Promise<void> {
    for (let retry = FIRST_RETRY_MS; ; retry *= 2) {
      try {
        await provider.send(delivery);
        return;
      } catch (error) {
        if (!(error instanceof CodeSendError) || !error.transient) throw error;
        const wait = error.retryAfterSeconds !== undefined ? error.retryAfterSeconds * 1000 : retry;
        if (Date.now() + wait > deadline) throw error;
        await this.sleep(wait);
      }
    }
  }

  async tell(notice: ChannelNotice): Promise<void> {
    const provider = this.providers[notice.channel];
    if (!provider?.tell) throw new CodeSendError(`no provider sends notices on the ${notice.channel} channel`);
    await provider.tell(notice);
  }
}

/**
 * The message in the user's language (`code` in locales/<lng>/bot.json), as Telegram HTML: the code
 * sits in `<code>`, so the chat copies it with a tap. The code is digits and the purpose comes from
 * the catalogue, so nothing needs escaping.
 */
export function codeMessageText(delivery: CodeDelivery): string {
  const minutes = String(Math.max(1, Math.round(delivery.expiresInSeconds / 60)));
  const purpose = botText(delivery.language, `code.purpose.${delivery.purpose}`);
  return botText(delivery.language, "code.message", { code: delivery.code, purpose, count: minutes });
}
