/**
 * Inside Telegram (with the flag on) sign-in is automatic. After the user signs out on purpose it must
 * not sign them straight back in: the login screen then waits for them to choose, for this tab.
 */
const OPT_OUT_KEY = "kassa.telegramAutoSignIn";

export function optOutOfTelegramAutoSignIn(): void {
  try {
    sessionStorage.setItem(OPT_OUT_KEY, "off");
  } catch {
    // Without storage the next visit to the login screen signs in again; nothing is lost.
  }
}

export function clearTelegramAutoSignInOptOut(): void {
  try {
    sessionStorage.removeItem(OPT_OUT_KEY);
  } catch {
    // Nothing to clear.
  }
}

export function telegramAutoSignInOptedOut(): boolean {
  try {
    return sessionStorage.getItem(OPT_OUT_KEY) === "off";
  } catch {
    return false;
  }
}

/** The automatic attempt is made once per page load (again only after a sign-in, e.g. once it timed out). */
let attempted = false;

export function autoSignInAttempted(): boolean {
  return attempted;
}

export function markAutoSignInAttempted(): void {
  attempted = true;
}

export function resetAutoSignInAttempt(): void {
  attempted = false;
}
