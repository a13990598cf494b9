/**
 * Downloads that fail on a bad connection — a screen's code, its texts (docs/decisions.md#a-bad-connection): the
 * failure is said fast, and what failed is downloaded again in the background until it comes.
 */

/** A download not answered by then counts as failed, so the screen says so; the download itself goes on. */
export const LOAD_DEADLINE_MS = 1_500;
/**
 * The deadline in force: `LOAD_DEADLINE_MS` in the app. The unit tests lengthen it (tests/unit/setup.ts): there a
 * screen's first import compiles its modules, which a busy machine stretches past any deadline a network warrants.
 */
export const loadDeadline = { ms: LOAD_DEADLINE_MS };
/** Pauses between background retries (the last one repeats); the browser's `online` event retries at once. */
export const BACKGROUND_RETRY_WAITS_MS = [1_000, 2_000, 4_000] as const;

/**
 * `loading`, or a rejection once `ms` have passed without an answer. The timer ends with the download and the error
 * is made only when the deadline passes: a launch starts about ten downloads, which nearly always come in time.
 */
export function withDeadline<T>(loading: Promise<T>, ms: number = loadDeadline.ms): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("stalled")), ms);
  });
  return Promise.race([loading, deadline]).finally(() => clearTimeout(timer));
}

/** A number that components read with `useSyncExternalStore(counter.subscribe, counter.get)`. */
function counter() {
  let value = 0;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    add(delta: number): void {
      value += delta;
      for (const listener of listeners) listener();
    },
  };
}

/**
 * Grows each time something that failed to download has come: an error screen that said so goes away, and every
 * lazy screen whose code failed downloads it again.
 */
export const recoveries = counter();

const retrying = new Set<unknown>();

/**
 * Runs `attempt` again in the background until it succeeds, then `onLoaded`: at once when the browser says it is
 * online again, else after the pauses above. One loop per `key`.
 */
export function retryInBackground(key: unknown, attempt: () => Promise<unknown>, onLoaded?: () => void): void {
  if (retrying.has(key)) return;
  retrying.add(key);
  let tries = 1;
  let busy = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = () => {
    if (busy) return;
    busy = true;
    clearTimeout(timer);
    withDeadline(Promise.resolve().then(attempt)).then(
      () => {
        retrying.delete(key);
        removeEventListener("online", run);
        onLoaded?.();
      },
      () => {
        busy = false;
        const waits = BACKGROUND_RETRY_WAITS_MS;
        timer = setTimeout(run, waits[Math.min(tries++, waits.length - 1)]);
      },
    );
  };
  addEventListener("online", run);
  timer = setTimeout(run, BACKGROUND_RETRY_WAITS_MS[0]);
}
