/**
 * Lazy screens and dialogs that survive a bad connection (docs/decisions.md#a-bad-connection). A chunk whose
 * download fails is tried once more at once; if that fails too, or nothing answers within `LOAD_DEADLINE_MS`,
 * the error reaches the route's error boundary, which says so. The download goes on in the background
 * (`retryInBackground`: at once when the browser is back online); once it comes, every screen whose chunk
 * failed gets a new `React.lazy` (which otherwise keeps a failed import for good) and the boundary shows it.
 * "Try again" on the error screen does the same at once (`retryFailedChunks()`).
 */
import {
  type ComponentProps,
  type ComponentType,
  type LazyExoticComponent,
  lazy,
  useState,
  useSyncExternalStore,
} from "react";
import { recoveries, retryInBackground, withDeadline } from "@/lib/load-faults";

/** The pause before the second try of a download that failed at once. */
const CHUNK_RETRY_WAIT_MS = 300;

/** A screen's code could not be downloaded. */
export class ChunkLoadError extends Error {
  override readonly name = "ChunkLoadError";
}

/** Lets every failed lazy screen try its download again on its next render (and the error screen go). */
export function retryFailedChunks(): void {
  recoveries.add(1);
}

/** `load()`, tried a second time after a short pause if it fails; a failure (or no answer in time) is a `ChunkLoadError`. */
export function importOrFail<T>(load: () => Promise<T>, pause: number = CHUNK_RETRY_WAIT_MS): Promise<T> {
  const tries = load().catch(() => new Promise((resolve) => setTimeout(resolve, pause)).then(load));
  return withDeadline(tries).catch((error: unknown) => {
    throw new ChunkLoadError("Screen code not downloaded", { cause: error });
  });
}

/** A lazy screen, and how to start its download ahead of its first render. */
type LazyScreen<P> = ComponentType<P> & { preload(): Promise<unknown> };

/**
 * A screen as `React.lazy` makes it, with two differences: a failed download is tried again (above), and a screen
 * whose code has come by the time it first renders (`preload`, started by the launch) renders at once. React.lazy
 * suspends on its first render whatever happened before it; the suspense shows its fallback and React then holds
 * the screen back until 300 ms after that fallback showed (its throttle on revealing suspended content): on a
 * cold launch the cabinet showed about 0.2 s after it could have.
 */
// biome-ignore lint/suspicious/noExplicitAny: the same constraint as React.lazy's.
export function lazyScreen<T extends ComponentType<any>>(
  load: () => Promise<{ default: T }>,
): LazyScreen<ComponentProps<T>> {
  let madeAt = -1;
  let failed = false;
  let Screen: LazyExoticComponent<T> | null = null;
  /** The screen's component once its code has come. */
  let loaded: T | null = null;
  const loadAndKeep = () =>
    load().then((module) => {
      loaded = module.default;
      return module;
    });
  // biome-ignore lint/correctness/noComponentHookFactories: made once per screen at module level, as React.lazy is.
  function LazyScreen(props: ComponentProps<T>) {
    // Decided once per mount: a screen mounted through React.lazy stays so (switching would mount it anew).
    const [ready] = useState(() => loaded);
    const current = useSyncExternalStore(recoveries.subscribe, recoveries.get, recoveries.get);
    if (ready) {
      const Ready = ready;
      return <Ready {...props} />;
    }
    if (Screen === null || (failed && current !== madeAt)) {
      madeAt = current;
      failed = false;
      Screen = lazy(() =>
        importOrFail(loadAndKeep).catch((error: unknown) => {
          failed = true;
          retryInBackground(load, load, retryFailedChunks);
          throw error;
        }),
      );
    }
    return <Screen {...props} />;
  }
  return Object.assign(LazyScreen, { preload: loadAndKeep });
}
