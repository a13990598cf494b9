/**
 * Code that a screen will want soon but does not show yet (a sheet's chunk, the dialog behind a button): loaded
 * ahead, so a tap opens it at once, offline as well, but one load per task and only when the main thread is idle.
 *
 * Why not `void load()` in an effect: each dynamic import goes through the build's preload helper, which looks up
 * and appends a `<link>` for every file the chunk needs, and the module is evaluated when it comes. Started from
 * the effects of one commit (the cabinet's first render starts five), all of that ran in the commit's task, which
 * on a phone four times slower than this machine was a long task (over 50 ms) right after the balance showed.
 * Queued, each load starts in its own idle moment, and only once the launch has settled (the first screen shown
 * and none of its calls in flight, `launchSettled`): a form's code brings zod with it, whose evaluation is a long
 * task of its own, and it must not compete with the screen's first replies.
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

/** Loads `load`'s code in an idle moment, once per `load` (the same function from several rows is one load). */
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
