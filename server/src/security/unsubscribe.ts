/**
 * The unsubscribe link of a news e-mail (docs/delivery.md#news-by-e-mail): `<PUBLIC_URL>/api/mail/unsubscribe?token=…`,
 * the token `<user id>.<HMAC-SHA256 of it>` under a key derived from `CODE_SECRET`, so it is stateless (nothing
 * stored), per investor, and cannot be made for another account without the key. It does one thing: turns news
 * e-mails off for that account.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const UNSUBSCRIBE_PATH = "/api/mail/unsubscribe";

function mac(secret: string, userId: string): string {
  return createHmac("sha256", `email-unsubscribe:${secret}`).update(`v1:${userId}`).digest("base64url");
}

/** The token of `userId`'s unsubscribe link. */
function unsubscribeToken(secret: string, userId: string): string {
  return `${userId}.${mac(secret, userId)}`;
}

/** The whole link for `userId` under `publicUrl`. */
export function emailUnsubscribeUrl(publicUrl: string, secret: string, userId: string): string {
  return `${publicUrl}${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(unsubscribeToken(secret, userId))}`;
}

/** The account a token names, or null when it is not one this server made. */
export function openUnsubscribeToken(secret: string, token: unknown): string | null {
  if (typeof token !== "string" || token.length > 200) return null;
  const [userId, given, ...rest] = token.split(".");
  if (rest.length > 0 || userId === undefined || given === undefined || !UUID.test(userId)) return null;
  const expected = Buffer.from(mac(secret, userId));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected) ? userId : null;
}
