/**
 * The Mini App's life around the screen: a confirmation before closing it with unsaved input, and the app coming
 * back to the front. Apart from the hooks (`hooks.ts`), which the first screen loads: only later screens and the
 * cabinet's frame use these, so their code comes with them (docs/decisions.md#bundle-budget).
 */
import { useEffect, useRef } from "react";
import { getTelegramBridge } from "./bridge";

/** Asks the user to confirm closing the Mini App while `enabled` (unsaved input). */
export function useClosingConfirmation(enabled: boolean): void {
  useEffect(() => {
    const bridge = getTelegramBridge();
    if (!bridge || !enabled) return;
    bridge.setClosingConfirmation(true);
    return () => bridge.setClosingConfirmation(false);
  }, [enabled]);
}

/**
 * Calls `listener` when the app comes back to the front: the page becomes visible again
 * (`visibilitychange`) or Telegram reports the Mini App active again (`visibility_changed`, the
 * WebApp API's `activated`).
 */
export function useBackToFront(listener: () => void): void {
  const handler = useRef(listener);
  handler.current = listener;
  useEffect(() => {
    const onVisibility = () => {
      if (document.visibilityState === "visible") handler.current();
    };
    document.addEventListener("visibilitychange", onVisibility);
    const offTelegram = getTelegramBridge()?.onActivated?.(() => handler.current());
    return () => {
      document.removeEventListener("visibilitychange", onVisibility);
      offTelegram?.();
    };
  }, []);
}
