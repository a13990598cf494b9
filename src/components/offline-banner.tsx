import { useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { fallbackText } from "@/config/fallback-texts";

function subscribe(listener: () => void): () => void {
  window.addEventListener("online", listener);
  window.addEventListener("offline", listener);
  return () => {
    window.removeEventListener("online", listener);
    window.removeEventListener("offline", listener);
  };
}

const isOnline = () => navigator.onLine;

/** Whether the browser says it is online; live. */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, isOnline, () => true);
}

/**
 * The one place that says the app is offline (docs/decisions.md#a-bad-connection): a quiet strip at the top, as
 * Telegram's own "Waiting for network", on every screen; its text ships in the entry chunk. Marks of figures
 * that could not be refreshed stay away meanwhile, so offline is not said twice.
 */
export function OfflineBanner() {
  useTranslation("common", { useSuspense: false });
  if (useOnline()) return null;
  return (
    <div className="offline-banner" role="status" data-testid="offline-banner">
      {fallbackText("offline")}
    </div>
  );
}
