import { useMiniAppReady, usePlaceholder } from "@/tma/hooks";

/**
 * The spinner shown before the first screen (the route and its translations loading). Drawn in CSS:
 * telegram-ui's Spinner ships six SVG variants (~3 KB gzip) the first screen would otherwise download
 * just to show this for a moment. Screens use telegram-ui's Spinner (`ContentSpinner`).
 *
 * Inside Telegram it is the first thing painted, so it tells the client the app is ready: the client's
 * own placeholder goes at once, not after the session's restore and the first screen's data. While it is up (its
 * class), a download that failed is said at once (the route's error boundary).
 */
export function SpinnerScreen({ label }: { label?: string }) {
  useMiniAppReady();
  usePlaceholder();
  return (
    <div className="spinner-screen" role="status" aria-live="polite" aria-label={label}>
      <span className="boot-spinner" />
    </div>
  );
}
