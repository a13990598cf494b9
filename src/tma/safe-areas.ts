// The client's safe areas as the CSS variables the layout pads with (`styles/base.css` makes `--safe-*` of them):
// asked for and followed once per page, by the launcher when it paints the balance before the app's code (the
// painted block pads as the app will) or else by the boot.
import { onClientEvent, postToClient } from "./client-events";

const SIDES = ["top", "bottom", "left", "right"] as const;
type Insets = Partial<Record<(typeof SIDES)[number], unknown>>;

/** The client's two kinds of inset and the variables each is kept in. */
const KINDS = {
  safe_area_changed: "--tg-viewport-safe-area-inset",
  content_safe_area_changed: "--tg-viewport-content-safe-area-inset",
} as const;

/** What asks the client for each kind (Bot API 8.0). */
export const SAFE_AREA_REQUESTS = ["web_app_request_safe_area", "web_app_request_content_safe_area"];

function setInsetVars(prefix: string, insets: Insets | undefined): void {
  for (const side of SIDES) {
    const value = insets?.[side];
    if (typeof value === "number" && Number.isFinite(value))
      document.documentElement.style.setProperty(`${prefix}-${side}`, `${value}px`);
  }
}

/**
 * Zero insets from the start (a client that never answers, Telegram Web K, pads with none rather than the
 * browser's `env()`), the client's answers as they come, and the two requests where `offered` (Bot API 8.0). The
 * first call of the page does it; later ones (the boot after the launcher) find it done.
 */
export function followSafeAreas(offered: (method: string) => boolean): void {
  const root = document.documentElement;
  if (root.dataset.tgSafeAreas !== undefined) return;
  root.dataset.tgSafeAreas = "";
  const zero = { top: 0, bottom: 0, left: 0, right: 0 };
  for (const prefix of Object.values(KINDS)) setInsetVars(prefix, zero);
  onClientEvent((eventType, eventData) => {
    if (eventType in KINDS) setInsetVars(KINDS[eventType as keyof typeof KINDS], eventData);
  });
  for (const method of SAFE_AREA_REQUESTS) if (offered(method)) postToClient(method);
}
