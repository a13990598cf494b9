/**
 * Where a session is kept on the web, without the session's state: the app's session (`session.ts`) and the
 * launcher written into index.html (`app/launcher/`), which sends a launch's calls with the kept token, read here.
 */
import { readCookie } from "./cookies";

export const USER_STORAGE_KEY = "kassa.user";
export const TOKEN_COOKIE = "kassa_token";

/** The web's kept token: the cookie's. */
export function readTokenCookie(): string | null {
  return readCookie(TOKEN_COOKIE) ?? null;
}
