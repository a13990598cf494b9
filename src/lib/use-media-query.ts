import { useSyncExternalStore } from "react";
import { mediaMatches } from "@/config/media";

/** Whether a CSS media query matches, kept up to date. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (listener) => {
      if (typeof window.matchMedia !== "function") return () => {};
      const list = window.matchMedia(query);
      list.addEventListener("change", listener);
      return () => list.removeEventListener("change", listener);
    },
    () => mediaMatches(query),
    // Rendered on the server (the launcher's painted cabinet, src/app/launcher/first-screen.tsx): a phone's.
    () => false,
  );
}
