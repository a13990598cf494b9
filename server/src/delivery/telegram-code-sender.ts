/**
 * Codes as Telegram messages from the bot (Bot API `sendMessage`). The bot can write only to
 * users who started it or signed in through the Mini App, and only accounts linked to Telegram
 * have a chat to write to.
 */
import { type ChannelNotice, type CodeDelivery, CodeSendError, type CodeSender, codeMessageText } from "./code-sender";

export interface TelegramCodeSenderOptions {
  botToken: string;
  /** Bot API base, `https://api.telegram.org` unless a local Bot API server is used. */
  apiBase?: string;
  /** Telegram's test environment: calls go to `<apiBase>/bot<token>/test/<method>`. */
  environment?: "prod" | "test";
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export class TelegramCodeSender implements CodeSender {
  private readonly apiBase: string;
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;

  constructor(private readonly options: TelegramCodeSenderOptions) {
    this.apiBase = options.apiBase ?? "https://api.telegram.org";
    this.fetch = options.fetch ?? fetch;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  send(delivery: CodeDelivery): Promise<void> {
    return this.sendMessage(delivery.telegramId, codeMessageText(delivery), "HTML");
  }

  tell(notice: ChannelNotice): Promise<void> {
    return this.sendMessage(notice.telegramId, notice.text);
  }

  private async sendMessage(chatId: number | null, text: string, parseMode?: "HTML"): Promise<void> {
    if (chatId === null) throw new CodeSendError("the account is not linked to Telegram");
    let response: Response;
    try {
      const test = this.options.environment === "test" ? "/test" : "";
      response = await this.fetch(`${this.apiBase}/bot${this.options.botToken}${test}/sendMessage`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          chat_id: chatId,
          text,
          protect_content: true,
          ...(parseMode ? { parse_mode: parseMode } : {}),
        }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new CodeSendError("the Bot API did not answer", { cause: error, transient: true });
    }
    const body = (await response.json().catch(() => null)) as {
      ok?: boolean;
      description?: string;
      parameters?: { retry_after?: number };
    } | null;
    if (!response.ok || body?.ok !== true) {
      // The description says why (blocked by the user, chat not found); the token never appears in it.
      // Busy (429) and down (5xx) are worth another try; the rest (403 blocked, 400) would only repeat.
      throw new CodeSendError(
        `the Bot API refused the message (${response.status}: ${body?.description ?? "no body"})`,
        {
          transient: response.status === 429 || response.status >= 500,
          retryAfterSeconds: body?.parameters?.retry_after,
          blocked: response.status === 403,
        },
      );
    }
  }
}
