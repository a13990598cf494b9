/**
 * Code that a screen will want on a tap (a dialog, a sheet) but does not show yet: ready ahead, so the tap opens it
 * at once, offline as well, without running it while the screen is being read.
 *
 * In the built app its files are downloaded at once with module preload (the page lists them: `laterCode`,
 * build/later-code.mjs) and run only when the tap imports them: a form's code brings zod, whose evaluation is a long
 * task of its own (30-55 ms on a phone four times slower than this machine), and it belongs to the tap. Before,
 * each was imported from an effect of the first commit, which ran five preload helpers and the modules in the task
 * that showed the balance. Where the page has no list (the dev server, tests), `warm-up-queue.ts` runs the loads
 * one per idle moment once the launch has settled; it is not on the launch's way to the balance.
 */

import { preloadFile } from "./preload-file";

type Load = () => Promise<unknown>;

/** The keys of the built page's list of code wanted later (`laterCode` in build/later-code.mjs). */
export type LaterCode = "exchange" | "details" | "subscription";

interface LaterFiles {
  code: string[];
  css: string[];
}

/** The built page's list of what each later piece of code is made of (written by the build); none in development. */
function filesOf(key: LaterCode): LaterFiles | undefined {
  const block = document.getElementById("kassa-later-code")?.textContent;
  return block ? (JSON.parse(block) as Record<string, LaterFiles>)[key] : undefined;
}

/**
 * The files downloaded ahead without running them: the code by module preload (it runs when the tap imports it, from
 * the module map, offline as well), the stylesheets applied (they style only what is not there yet). At low
 * priority, after what the screen shows. The import's own helper sees these links and does not ask again.
 */
function preload({ code, css }: LaterFiles): void {
  for (const file of [...css, ...code]) preloadFile(file, { applyStyles: true, low: true });
}

const queue = () => import("./warm-up-queue");

/** The later code whose files are asked for already: each once a page (every row of a long list asks on mount). */
const preloaded = new Set<LaterCode>();

/**
 * Has `load`'s code ready for a tap: its files downloaded where the page lists them (`key`), else queued.
 */
export function warmUp(load: Load, key?: LaterCode): void {
  // Once per key: a virtualised list mounts its rows again as they scroll in, each asking for its sheet.
  if (key && preloaded.has(key)) return;
  const files = key ? filesOf(key) : undefined;
  // In a task of its own: called from the effects of the commit that shows the balance, the preloads' links
  // (each one starts a download, ~10 ms of a phone's main thread for a dialog's files) would lengthen that task.
  if (files && key) {
    preloaded.add(key);
    setTimeout(() => preload(files));
  } else
    void queue().then(
      (module) => module.warmUp(load),
      () => undefined,
    );
}

/** The launch's first screen is shown and its calls have answered (`warm-up-queue.ts`). */
export function launchSettled(): void {
  void queue().then(
    (module) => module.launchSettled(),
    () => undefined,
  );
}
