import type { User } from "@contract";
import { callApi, isApiError } from "@/lib/api-client";
import { getSessionToken, type TokenCheck, updateUserAtom } from "@/lib/session";
import { type AppStore, appStore } from "@/lib/store";

/** How long logout waits for the server before it signs out here anyway. */
const LOGOUT_TIMEOUT_MS = 5_000;

/** `POST /auth/logout` with the token being ended; a 401 (already ended) is no news. */
export async function revokeSession(token: string): Promise<void> {
  await callApi("logout", { token, timeoutMs: LOGOUT_TIMEOUT_MS });
}

/** `GET /user/me`. */
function fetchCurrentUser(signal?: AbortSignal): Promise<User> {
  return callApi("currentUser", { signal });
}

/**
 * After a restored session: brings the saved user up to date in the background. A 401 ends the session
 * through the API client ('Session timed out', back to login); other failures keep the saved user.
 */
export async function refreshCurrentUser(store: AppStore = appStore): Promise<void> {
  const token = getSessionToken(store);
  if (!token) return;
  try {
    const user = await fetchCurrentUser();
    // Only if it is still the same session (no sign-out or new sign-in in the meantime).
    if (getSessionToken(store) === token) store.set(updateUserAtom, user);
  } catch {
    // Offline or a server error: the saved user stays until the next start.
  }
}

/** How long the start waits for the server's word on a kept token before it trusts the saved user. */
const TOKEN_CHECK_TIMEOUT_MS = 3_000;

/**
 * `GET /user/me` with a kept token, before it counts as the session (inside Telegram): 401 says the
 * token is no longer good; no answer (offline, slow) says nothing.
 */
export async function checkKeptToken(token: string): Promise<TokenCheck> {
  try {
    const user = await callApi("currentUser", { token, timeoutMs: TOKEN_CHECK_TIMEOUT_MS });
    return { status: "valid", user };
  } catch (error) {
    if (isApiError(error) && error.status === 401) return { status: "invalid" };
    return { status: "unknown" };
  }
}
