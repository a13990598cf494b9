/**
 * Code that a screen will want soon but does not show yet (a sheet's chunk, the dialog behind a button): loaded
 * ahead, so a tap opens it at once, offline as well, but one load per task and only when the main thread is idle.
 *
 * Why not `void load()` in an effect: each dynamic import goes through the build's preload helper, which looks up
 * and appends a `<link>` for every file the chunk needs, and the module is evaluated when it comes. Started from
 * the effects of one commit (the cabinet's first render starts five), all of that ran in the commit's task, which
 * on a phone four times slower than this machine was a long task (over 50 ms) right after the balance showed.
 * Queued, each load starts in its own idle moment, after what is on screen has rendered.
 */

type Load = () => Promise<unknown>;

const queued: Load[] = [];
const started = new WeakSet<Load>();
let scheduled = false;

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
