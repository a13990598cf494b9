/**
 * The device cookie (docs/security.md, "Lock-out"): after a successful sign-in the browser gets an HttpOnly
 * cookie naming the account and a random nonce, signed with HMAC (CODE_SECRET's key). OWASP's "device cookie"
 * against online guessing: a password typed on a device that carries a valid cookie of that very account is
 * judged outside the outsiders' queue (the per-account wait that anyone knowing the login can fill), with a
 * budget of its own per device; a device that spends its budget is trusted no more until the day ends.
 *
 * Stateless on purpose: nothing to store per device, and an outsider cannot forge one without the key. The
 * cookie proves "this browser signed in to this account before", nothing more: it is no session.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { parseCookie, stringifySetCookie } from "cookie";

export const DEVICE_COOKIE = "kassa_device";
/** How long a device stays known after its last sign-in. */
const DEVICE_COOKIE_MAX_AGE_SECONDS = 180 * 86_400;
/** The cookie is sent only to the sign-in calls. */
const COOKIE_PATH = "/api/auth";
const FORMAT = /^v1\.([0-9a-f-]{36})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

export interface KnownDevice {
  userId: string;
  /** The device's own id (its budget's key). */
  nonce: string;
}

function mac(secret: string, userId: string, nonce: string): string {
  return createHmac("sha256", `device-cookie:${secret}`).update(`v1:${userId}:${nonce}`).digest("base64url");
}

/** A new cookie value for `userId` (or the same device again when `nonce` is given). */
function deviceCookieValue(secret: string, userId: string, nonce = randomBytes(16).toString("base64url")): string {
  return `v1.${userId}.${nonce}.${mac(secret, userId, nonce)}`;
}

/** The device a cookie header names, when its signature holds; undefined for none, junk or a forgery. */
export function knownDevice(secret: string, cookieHeader: string | undefined): KnownDevice | undefined {
  if (!cookieHeader) return undefined;
  let value: string | undefined;
  try {
    value = parseCookie(cookieHeader)[DEVICE_COOKIE];
  } catch {
    return undefined;
  }
  const match = value ? FORMAT.exec(value) : null;
  if (!match) return undefined;
  const [, userId = "", nonce = "", signature = ""] = match;
  const expected = Buffer.from(mac(secret, userId, nonce));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  return { userId, nonce };
}

/** The `Set-Cookie` header that remembers this device for `userId` (keeping its nonce when it had one). */
export function deviceSetCookie(
  secret: string,
  userId: string,
  options: { secure: boolean; nonce?: string | undefined },
): string {
  return stringifySetCookie({
    name: DEVICE_COOKIE,
    value: deviceCookieValue(secret, userId, options.nonce),
    path: COOKIE_PATH,
    maxAge: DEVICE_COOKIE_MAX_AGE_SECONDS,
    httpOnly: true,
    secure: options.secure,
    sameSite: "strict",
  });
}
