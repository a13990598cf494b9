/**
 * Where the refresh token is kept inside Telegram and how long the client is waited for, without the SDK or the
 * session's state: the boot's token store (`token-store.ts`, `boot.ts`) and the launcher written into index.html
 * (`app/launcher/`), which reads the kept token before the app's code has come, both take them from here.
 */
import { readCookie } from "@/lib/cookies";
import { TOKEN_COOKIE } from "@/lib/session-keys";

/** Where the framed store keeps its copy when cookies are refused altogether. */
export const TOKEN_STORAGE_KEY = "kassa.token";

/** The key the token has in Telegram's storages. */
export const TELEGRAM_TOKEN_KEY = "kassa_refresh_token";

/** How long a storage call may stay unanswered before the next place is tried (Telegram Web never answers). */
export const STORAGE_ANSWER_TIMEOUT_MS = 800;

/**
 * How long the biometric lock's questions wait (is the lock on, is a biometric token kept): asked only of the phones
 * that answer them, and a lock must never open because a busy phone answered late. Normally answered at once.
 */
export const LOCK_ANSWER_TIMEOUT_MS = 8_000;

/**
 * Which clients keep which of Telegram's storages (Bot API 9.0): SecureStorage is the phone's Keychain
 * or Keystore (iOS, Android); DeviceStorage is the client's own store (the phones and the desktop
 * clients). Telegram Web K and A have neither (Web K never answers, Web A refuses), so they are not
 * asked: a question nobody answers would hold the session's restore, and with it the first screen.
 */
export const STORAGE_PLATFORMS: Record<"secure" | "device", readonly string[]> = {
  secure: ["ios", "android"],
  device: ["ios", "android", "tdesktop", "macos"],
};

/** The framed store's token: the cookie a frame keeps, else the local-storage copy. */
export function readFramedToken(): string | null {
  const fromCookie = readCookie(TOKEN_COOKIE);
  if (fromCookie) return fromCookie;
  try {
    return localStorage.getItem(TOKEN_STORAGE_KEY);
  } catch {
    return null;
  }
}
