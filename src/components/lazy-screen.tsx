/**
 * Lazy screens and dialogs that survive a bad connection (docs/decisions.md#a-bad-connection). The chunk's
 * download is tried three times (waiting 0.5 s, then 1.5 s); if it still fails the error reaches the route's
 * error boundary, whose "Try again" calls `retryFailedChunks()`: every screen whose chunk failed gets a new
 * `React.lazy` (which otherwise keeps a failed import for good) and downloads again.
 */
import { type ComponentProps, type ComponentType, type LazyExoticComponent, lazy, useSyncExternalStore } from "react";

export const CHUNK_RETRY_WAITS_MS = [500, 1500] as const;

/** A screen's code could not be downloaded. */
export class ChunkLoadError extends Error {
  override readonly name = "ChunkLoadError";
}

let generation = 0;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const getGeneration = () => generation;

/** Lets every failed lazy screen try its download again on its next render. */
export function retryFailedChunks(): void {
  generation += 1;
  for (const listener of listeners) listener();
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function importWithRetry<T>(load: () => Promise<T>, waits: readonly number[] = CHUNK_RETRY_WAITS_MS) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await load();
    } catch (error) {
      const pause = waits[attempt];
      if (pause === undefined) throw new ChunkLoadError("A screen's code could not be downloaded", { cause: error });
      await wait(pause);
    }
  }
}

// biome-ignore lint/suspicious/noExplicitAny: the same constraint as React.lazy's.
export function lazyScreen<T extends ComponentType<any>>(
  load: () => Promise<{ default: T }>,
): ComponentType<ComponentProps<T>> {
  let madeAt = -1;
  let failed = false;
  let Screen: LazyExoticComponent<T> | null = null;
  // biome-ignore lint/correctness/noComponentHookFactories: made once per screen at module level, as React.lazy is.
  function LazyScreen(props: ComponentProps<T>) {
    const current = useSyncExternalStore(subscribe, getGeneration, getGeneration);
    if (Screen === null || (failed && current !== madeAt)) {
      madeAt = current;
      failed = false;
      Screen = lazy(() =>
        importWithRetry(load).catch((error: unknown) => {
          failed = true;
          throw error;
        }),
      );
    }
    return <Screen {...props} />;
  }
  return LazyScreen;
}
