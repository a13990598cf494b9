/**
 * Links and sharing through Telegram: each opens in the client inside Telegram (so the Mini App stays) and in a
 * new tab on the web. Apart from the hooks (`hooks.ts`), which the first screen loads: only later screens open
 * links, so their code comes with those screens (docs/decisions.md#bundle-budget).
 */
import { getTelegramBridge } from "./bridge";

/** Opens a t.me link: inside Telegram without leaving it, on the web in a new tab. */
export function openTelegramLink(url: string): void {
  const bridge = getTelegramBridge();
  if (bridge) bridge.openTelegramLink(url);
  else window.open(url, "_blank", "noopener,noreferrer");
}

/** A t.me address (`https://t.me/...`, `telegram.me`), which Telegram opens itself. */
function isTelegramLink(href: string): boolean {
  try {
    const url = new URL(href);
    return (url.protocol === "https:" || url.protocol === "http:") && /^(t|telegram)\.me$/i.test(url.hostname);
  } catch {
    return false;
  }
}

/**
 * Opens a link found in content (news): inside Telegram through the client (`openTelegramLink` for
 * t.me, `openLink` for the rest), so the Mini App is never navigated away; on the web in a new tab.
 * Returns false for what is not an http(s) link, which the caller then leaves alone.
 */
export function openExternalLink(href: string): boolean {
  let url: URL;
  try {
    url = new URL(href, window.location.href);
  } catch {
    return false;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return false;
  const bridge = getTelegramBridge();
  if (!bridge) {
    window.open(url.toString(), "_blank", "noopener,noreferrer");
    return true;
  }
  if (isTelegramLink(url.toString())) {
    url.protocol = "https:";
    url.hostname = "t.me";
    bridge.openTelegramLink(url.toString());
  } else bridge.openLink(url.toString());
  return true;
}

/**
 * Telegram's share sheet where the client has one that keeps the Mini App open; false when it has
 * none (outside Telegram, or Web A, which closes the Mini App on a t.me link), so the caller shares
 * another way (the system sheet, a copy).
 */
export function shareThroughTelegram(url: string, text: string): boolean {
  const bridge = getTelegramBridge();
  return bridge ? bridge.share(url, text) : false;
}
