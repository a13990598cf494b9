import { useSyncExternalStore } from "react";

/**
 * The text waiting to be copied by hand (inside Telegram, when the client refused both ways of copying;
 * `clipboard.ts`), shown by the copy-by-hand sheet. A module of its own, so the cabinet's frame watches it without
 * loading the boot's code, and the first screen, which never copies, without loading it at all.
 */
let manualCopy: string | null = null;
const manualCopyListeners = new Set<() => void>();

function setManualCopy(next: string | null): void {
  manualCopy = next;
  for (const listener of manualCopyListeners) listener();
}

export function requestManualCopy(text: string): void {
  setManualCopy(text);
}

export function dismissManualCopy(): void {
  setManualCopy(null);
}

/** The text to copy by hand, or null; live. */
export function useManualCopyText(): string | null {
  return useSyncExternalStore(
    (listener) => {
      manualCopyListeners.add(listener);
      return () => manualCopyListeners.delete(listener);
    },
    () => manualCopy,
  );
}
