/**
 * Work with the Bot API that must get done however often Telegram refuses it for a while (the bot's
 * set-up at start): the whole task is run again until it completes. A 429 waits its `retry_after`,
 * a server or network error backs off (5 s, doubling, at most five minutes); any other refusal ends
 * it (a 400 would only repeat). The task must be safe to repeat.
 */
import { GrammyError, HttpError, type Transformer } from "grammy";

export interface PersistOptions {
  log: { warn(obj: object, msg: string): void };
  /** What the task is, for the log. */
  what: string;
  stopped: () => boolean;
  sleep?: (ms: number) => Promise<void>;
}

const realSleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
  });

/** Resolves once `task` completed (or the caller stopped); rejects on a refusal that repeating cannot mend. */
export async function persist(task: () => Promise<void>, options: PersistOptions): Promise<void> {
  const sleep = options.sleep ?? realSleep;
  let backoff = 5_000;
  while (!options.stopped()) {
    try {
      await task();
      return;
    } catch (error) {
      const retryAfter = error instanceof GrammyError ? error.parameters.retry_after : undefined;
      const transient = error instanceof HttpError || (error instanceof GrammyError && error.error_code >= 500);
      if (retryAfter === undefined && !transient) throw error;
      const wait = retryAfter !== undefined ? retryAfter * 1000 : backoff;
      if (retryAfter === undefined) backoff = Math.min(backoff * 2, 300_000);
      options.log.warn({ err: error, waitMs: wait }, `${options.what}: Telegram refused, trying again`);
      await sleep(wait);
    }
  }
}

/**
 * An API transformer: a call Telegram answered with a server error (5xx) is made once more after
 * `delayMs`, so one lost answer does not lose a reply. The chat outbox has its own back-off beyond.
 */
export function retryServerErrorOnce(delayMs = 500): Transformer {
  return async (prev, method, payload, signal) => {
    const first = await prev(method, payload, signal);
    if (first.ok || first.error_code < 500) return first;
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    return prev(method, payload, signal);
  };
}

/**
 * An API transformer that ends every Bot API call after `ms` (`getUpdates`: its long-poll `timeout`
 * plus `ms`): a call Telegram never answers fails as a network error (grammY's `HttpError`) instead
 * of holding its chat (and, before, the whole bot) for grammY's default 500 s. Installed first, so it
 * bounds each attempt of the retrying transformers around it.
 */
export function callTimeout(ms: number): Transformer {
  return async (prev, method, payload, given) => {
    // grammY types the signal with its polyfill's type; Node's own is what it is at run time.
    const signal = given as unknown as AbortSignal | undefined;
    const poll = method === "getUpdates" ? Number((payload as { timeout?: number }).timeout ?? 0) * 1000 : 0;
    const controller = new AbortController();
    const abort = () => controller.abort(signal?.reason);
    if (signal?.aborted) abort();
    signal?.addEventListener("abort", abort, { once: true });
    const timer = setTimeout(
      () => controller.abort(new Error(`${method}: no answer within ${ms + poll} ms`)),
      ms + poll,
    );
    try {
      return await prev(method, payload, controller.signal as unknown as typeof given);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", abort);
    }
  };
}
