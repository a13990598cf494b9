/**
 * A stand-in for Telegram's Bot API: a local HTTP server on a free port that answers the methods the
 * bot calls (`/bot<token>/<method>`), records every call, and feeds updates through `getUpdates`
 * (long polling) or not at all (webhook tests post updates themselves). A method can be made to fail
 * (429 with `retry_after`, 403) or to hang, as Telegram might. As Telegram does, it refuses a message
 * with a `web_app` button to a group or channel (a negative chat id): those buttons are for private chats,
 * and a message whose text is longer than 4,096 characters once its HTML is parsed. It answers the test
 * environment's paths (`/bot<token>/test/<method>`) too, and records which environment each call used.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import { request as httpsRequest } from "node:https";
import type { AddressInfo } from "node:net";

export interface RecordedCall {
  method: string;
  params: Record<string, unknown>;
  at: number;
  /** The HTTP status answered (0 while a hung call waits). */
  status: number;
  /** The request's path, e.g. `/bot123:ABC/test/sendMessage`. */
  path: string;
  /** Telegram's environment the path names: `test` for `/bot<token>/test/<method>`. */
  environment: "prod" | "test";
}

type Answer = { status: number; body: unknown } | "hang";
type Override = (params: Record<string, unknown>, call: RecordedCall) => Answer | undefined;

export interface BotApiStandIn {
  /** The API root to give the bot (`TELEGRAM_API_ROOT`). */
  url: string;
  calls: RecordedCall[];
  callsOf(method: string): RecordedCall[];
  /** Queues an update for getUpdates; its update_id is assigned when absent. Returns the update_id. */
  pushUpdate(update: Record<string, unknown>): number;
  /** Answers `method` with `override` while it returns an answer (undefined: the usual answer). */
  override(method: string, override: Override | null): void;
  /** Releases every hung call without an answer (their sockets are destroyed). */
  dropHung(): void;
  waitForCall(method: string, predicate?: (call: RecordedCall) => boolean, timeoutMs?: number): Promise<RecordedCall>;
  /**
   * Sends `update` as Telegram sends one to a webhook: a POST of its JSON to the URL of the last `setWebhook`,
   * with that call's `secret_token` in `X-Telegram-Bot-Api-Secret-Token` (`secret`: another one, to forge).
   * `ca`: a certificate to trust beside the system's (a throw-away one). Returns the HTTP status.
   */
  sendToWebhook(update: Record<string, unknown>, options?: { ca?: string; secret?: string }): Promise<number>;
  close(): Promise<void>;
}

export const BOT_USER = { id: 7000001, is_bot: true, first_name: "Kassa", username: "KassaTestBot" };

async function readBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (!text) return {};
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return Object.fromEntries(new URLSearchParams(text));
  }
}

/** A message as Telegram echoes it for sendMessage. */
let messageId = 1;
function sentMessage(params: Record<string, unknown>) {
  return {
    message_id: messageId++,
    date: Math.floor(Date.now() / 1000),
    chat: { id: Number(params.chat_id), type: Number(params.chat_id) < 0 ? "supergroup" : "private" },
    from: BOT_USER,
    text: params.text,
  };
}

export async function startBotApiStandIn(): Promise<BotApiStandIn> {
  const calls: RecordedCall[] = [];
  const queue: Record<string, unknown>[] = [];
  const overrides = new Map<string, Override>();
  const hung = new Set<() => void>();
  let pollWaiters: (() => void)[] = [];
  let nextUpdateId = 100_000;

  const usual = async (method: string, params: Record<string, unknown>): Promise<unknown> => {
    switch (method) {
      case "getMe":
        return BOT_USER;
      case "getMyName":
        return { name: "" };
      case "getMyDescription":
        return { description: "" };
      case "getMyShortDescription":
        return { short_description: "" };
      case "sendMessage":
        return sentMessage(params);
      case "editMessageText":
        return sentMessage(params);
      case "savePreparedInlineMessage":
        // Bot API 8.0: the stored message's id, kept for a day.
        return {
          id: `prepared-${Math.random().toString(36).slice(2)}`,
          expiration_date: Math.floor(Date.now() / 1000) + 86_400,
        };
      case "getUpdates": {
        const offset = Number(params.offset ?? 0);
        const pending = () => queue.filter((u) => Number(u.update_id) >= offset);
        // Confirmed updates leave the queue, as Telegram forgets them.
        for (let i = queue.length - 1; i >= 0; i--) if (Number(queue[i]?.update_id) < offset) queue.splice(i, 1);
        if (pending().length === 0) {
          const timeout = Math.min(Number(params.timeout ?? 0), 2) * 1000;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, timeout);
            pollWaiters.push(() => {
              clearTimeout(timer);
              resolve();
            });
          });
        }
        return pending();
      }
      default:
        return true;
    }
  };

  const server: Server = createServer((request, response) => {
    void (async () => {
      const match = /^\/bot[^/]+\/(test\/)?(\w+)$/.exec(request.url ?? "");
      const params = await readBody(request);
      if (!match?.[2]) {
        response.writeHead(404).end(JSON.stringify({ ok: false, error_code: 404, description: "Not Found" }));
        return;
      }
      const method = match[2];
      const call: RecordedCall = {
        method,
        params,
        at: Date.now(),
        status: 0,
        path: request.url ?? "",
        environment: match[1] ? "test" : "prod",
      };
      // getUpdates is the poll itself, not a call worth recording each time it comes back empty.
      if (method !== "getUpdates") calls.push(call);
      const answer =
        overrides.get(method)?.(params, call) ??
        refusedOutsidePrivate(method, params) ??
        refusedTooLong(method, params);
      if (answer === "hang") {
        hung.add(() => request.socket.destroy());
        return;
      }
      const { status, body } = answer ?? { status: 200, body: { ok: true, result: await usual(method, params) } };
      call.status = status;
      if (method === "getUpdates" && status === 200 && (body as { result: unknown[] }).result.length > 0)
        calls.push(call);
      response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    })();
  });
  // Idle connections stay open as long as a test may keep the bot quiet (Node's 5 s default closed one while a test
  // kept the database busy, and the bot's next call, sent on it at that moment, was reset: a stand-in artefact).
  server.keepAliveTimeout = 10 * 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    callsOf: (method) => calls.filter((c) => c.method === method),
    pushUpdate(update) {
      const update_id = Number(update.update_id ?? nextUpdateId++);
      queue.push({ ...update, update_id });
      const waiters = pollWaiters;
      pollWaiters = [];
      for (const wake of waiters) wake();
      return update_id;
    },
    override(method, override) {
      if (override) overrides.set(method, override);
      else overrides.delete(method);
    },
    dropHung() {
      for (const drop of hung) drop();
      hung.clear();
    },
    async waitForCall(method, predicate = () => true, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = calls.find((c) => c.method === method && c.status !== 0 && predicate(c));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no ${method} call within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async sendToWebhook(update, options = {}) {
      const set = calls.findLast((c) => c.method === "setWebhook");
      if (!set) throw new Error("no setWebhook call yet");
      const body = JSON.stringify({ update_id: nextUpdateId++, ...update });
      const secret = options.secret ?? String(set.params.secret_token ?? "");
      const url = new URL(String(set.params.url));
      if (url.protocol !== "https:") throw new Error(`Telegram sends webhooks only to https, not ${url.href}`);
      return new Promise<number>((resolve, reject) => {
        const req = httpsRequest(
          url,
          {
            method: "POST",
            agent: false,
            ...(options.ca ? { ca: options.ca } : {}),
            headers: {
              "content-type": "application/json",
              "content-length": Buffer.byteLength(body),
              ...(secret ? { "x-telegram-bot-api-secret-token": secret } : {}),
            },
          },
          (response) => {
            response.resume();
            response.on("end", () => resolve(response.statusCode ?? 0));
          },
        );
        req.on("error", reject);
        req.end(body);
      });
    },
    async close() {
      for (const wake of pollWaiters) wake();
      for (const drop of hung) drop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The text as Telegram counts it: HTML tags dropped and entities read (parse_mode HTML). */
export function parsedText(params: Record<string, unknown>): string {
  const text = String(params.text ?? "");
  if (params.parse_mode !== "HTML") return text;
  return text
    .replace(/<[^>]*>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
}

/** Telegram's answer to a text over 4,096 characters. */
function refusedTooLong(method: string, params: Record<string, unknown>): Answer | undefined {
  if (!["sendMessage", "editMessageText"].includes(method) || parsedText(params).length <= 4096) return undefined;
  return { status: 400, body: { ok: false, error_code: 400, description: "Bad Request: message is too long" } };
}

/** Telegram's answer to a `web_app` button sent to a group or channel (negative chat ids). */
function refusedOutsidePrivate(method: string, params: Record<string, unknown>): Answer | undefined {
  if (!["sendMessage", "editMessageText", "editMessageReplyMarkup"].includes(method)) return undefined;
  if (!(Number(params.chat_id) < 0) || !JSON.stringify(params.reply_markup ?? "").includes('"web_app"'))
    return undefined;
  return { status: 400, body: { ok: false, error_code: 400, description: "Bad Request: BUTTON_TYPE_INVALID" } };
}

type From = { id: number; first_name: string; language_code?: string };

/** A text message in a group (a negative chat id), e.g. `/balance` or `/balance@KassaTestBot`. */
export function groupUpdate(from: From, chatId: number, text: string) {
  const update = textUpdate(from, text);
  return { message: { ...update.message, chat: { id: chatId, type: "supergroup", title: "Investors" } } };
}

/** A photo (no text) in the user's private chat. */
export function photoUpdate(from: From) {
  const { text: _, ...message } = textUpdate(from, "").message;
  return { message: { ...message, photo: [{ file_id: "photo-1", file_unique_id: "p1", width: 90, height: 90 }] } };
}

/** A tap on an inline button with `data` under a message the bot sent to the user's private chat. */
export function callbackUpdate(from: From, data: string) {
  return {
    callback_query: {
      id: String(Math.floor(Math.random() * 1e12)),
      from: { ...from, is_bot: false },
      chat_instance: "ci-1",
      data,
      message: {
        message_id: 1,
        date: Math.floor(Date.now() / 1000),
        chat: { id: from.id, type: "private", first_name: from.first_name },
        from: BOT_USER,
        text: "…",
      },
    },
  };
}

/** A private-chat text message update, as Telegram sends for `/start ref_demo`. */
export function textUpdate(from: { id: number; first_name: string; language_code?: string }, text: string) {
  const entities = text.startsWith("/")
    ? [{ type: "bot_command", offset: 0, length: text.split(" ")[0]?.length ?? 0 }]
    : undefined;
  return {
    message: {
      message_id: Math.floor(Math.random() * 1e6),
      date: Math.floor(Date.now() / 1000),
      chat: { id: from.id, type: "private", first_name: from.first_name },
      from: { ...from, is_bot: false },
      text,
      ...(entities ? { entities } : {}),
    },
  };
}

/** The most messages within any one second of `times` (milliseconds, ascending): a pace's peak. */
export function peakPerSecond(times: number[]): number {
  let best = 0;
  for (let i = 0, j = 0; j < times.length; j++) {
    while ((times[j] ?? 0) - (times[i] ?? 0) >= 1000) i++;
    best = Math.max(best, j - i + 1);
  }
  return best;
}
