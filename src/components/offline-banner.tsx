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

const isOffline = () => typeof navigator !== "undefined" && navigator.onLine === false;

/** A banner while the browser is offline (docs/decisions.md#a-bad-connection); its text ships in the entry chunk. */
export function OfflineBanner() {
  useTranslation("common", { useSuspense: false });
  const offline = useSyncExternalStore(subscribe, isOffline, () => false);
  if (!offline) return null;
  return (
    <div className="offline-banner" role="status" data-testid="offline-banner">
      {fallbackText("offline")}
    </div>
  );
}
