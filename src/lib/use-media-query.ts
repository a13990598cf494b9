import { useSyncExternalStore } from "react";
import { mediaMatches, watchMedia } from "@/config/media";

/** Whether a CSS media query matches, kept up to date. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (listener) => watchMedia(query, listener),
    () => mediaMatches(query),
    // Rendered on the server (the launcher's painted cabinet, src/app/launcher/first-screen.tsx): a phone's.
    () => false,
  );
}
