export { telegramReferralLink } from "@contract";

/**
 * The referral links (docs/decisions.md#d4-identity-and-sessions): `/register/<login>` on the web,
 * `startapp=ref_<login>` in Telegram.
 */

/** `<origin>/register/<login>`. */
export function webReferralLink(origin: string, login: string): string {
  return `${origin.replace(/\/+$/, "")}/register/${encodeURIComponent(login)}`;
}

/** Telegram's share sheet for `url` with `text`. */
export function telegramShareLink(url: string, text: string): string {
  return `https://t.me/share/url?url=${encodeURIComponent(url)}&text=${encodeURIComponent(text)}`;
}
