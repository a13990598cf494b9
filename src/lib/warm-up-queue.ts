/**
 * Where the page has no list of the later code's files (the dev server, tests): `warmUp` (`warm-up.ts`) runs the
 * loads here, one per idle moment, and only once the launch has settled (the first screen shown and none of its
 * calls in flight, `launchSettled`) and a quiet moment more, so that neither the preload helper's work nor the
 * modules' evaluation competes with the screen's first replies.
 */

type Load = () => Promise<unknown>;

const queued: Load[] = [];
const started = new WeakSet<Load>();
let scheduled = false;
let settled = false;
let settling = false;
let fallback: ReturnType<typeof setTimeout> | undefined;

/** How long warm-ups wait for the launch to settle before they go anyway (a screen that never says so). */
export const SETTLE_FALLBACK_MS = 10_000;
/**
 * And after it settled, a quiet moment more: the first seconds are when the investor reads and scrolls the
 * cabinet, and a form's code (zod's evaluation, 30-55 ms on a phone four times slower) is not wanted before a tap.
 */
export const AFTER_SETTLE_MS = 3_000;

/** Runs `next` when the main thread is idle (or soon, where the browser has no idle callbacks: Safari). */
function whenIdle(next: () => void): void {
  if (typeof requestIdleCallback === "function") requestIdleCallback(next, { timeout: 2_000 });
  else setTimeout(next, 50);
}

function drain(): void {
  scheduled = false;
  const load = queued.shift();
  if (!load) return;
  // A failed download is not an error here: the component that needs the code asks again (and says so).
  void load().catch(() => undefined);
  if (queued.length > 0) schedule();
}

function schedule(): void {
  if (!settled) {
    if (!settling) fallback ??= setTimeout(launchSettled, SETTLE_FALLBACK_MS);
    return;
  }
  if (scheduled) return;
  scheduled = true;
  whenIdle(drain);
}

/** Runs `load` in an idle moment once the launch has settled, once per `load` (several rows ask for one sheet). */
export function warmUp(load: Load): void {
  if (started.has(load)) return;
  started.add(load);
  queued.push(load);
  schedule();
}

/** The launch's first screen is shown and its calls have answered: what was queued loads `AFTER_SETTLE_MS` later. */
export function launchSettled(): void {
  if (settled || settling) return;
  settling = true;
  // For the launch's measurements (tests, benchmarks): when the first screen was done.
  performance.mark?.("kassa:launch-settled");
  clearTimeout(fallback);
  setTimeout(() => {
    settled = true;
    if (queued.length > 0) schedule();
  }, AFTER_SETTLE_MS);
}
