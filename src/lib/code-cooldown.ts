/**
 * When a new code may be requested (docs/decisions.md#d5-codes: 60 s after the last one; the server keeps the wait
 * per account and purpose, and per withdrawal application). One module for every code step — phone,
 * password reset, withdrawal. Kept for the browser tab, so a reload, a trip to another screen or
 * resuming a withdrawal from the history does not offer a resend the server would refuse.
 */
import { isApiError } from "./api-client";

export type CodePurpose = "phone" | "password_reset" | "withdrawal";

/** A new code may be requested 60 seconds after the last one (docs/decisions.md#d5-codes). */
export const DEFAULT_RESEND_SECONDS = 60;

/** The subject is the account (a login or user id) or, for a withdrawal, the application's id. */
const keyOf = (purpose: CodePurpose, subject: string) => `kassa.codeResendAt.${purpose}.${subject.toLowerCase()}`;

/** Starts the wait: a new code from `seconds` from now. Returns when it ends (epoch ms). */
export function startCodeCooldown(purpose: CodePurpose, subject: string, seconds: number, now = Date.now()): number {
  const until = now + Math.max(0, seconds) * 1000;
  try {
    sessionStorage.setItem(keyOf(purpose, subject), String(until));
  } catch {
    // Without storage the wait lasts as long as the screen.
  }
  return until;
}

/** When the wait ends (epoch ms), or null when none is known or it is over. */
export function codeCooldownUntil(purpose: CodePurpose, subject: string, now = Date.now()): number | null {
  try {
    const value = Number(sessionStorage.getItem(keyOf(purpose, subject)));
    return Number.isFinite(value) && value > now ? value : null;
  } catch {
    return null;
  }
}

/** `m:ss` of a number of seconds. */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** A 429 says in `params.retryAfter` how many seconds to wait before asking again. */
export function retryAfterSeconds(error: unknown): number | undefined {
  if (!isApiError(error) || error.code !== "RATE_LIMITED") return undefined;
  const seconds = Number(error.params?.retryAfter);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}
