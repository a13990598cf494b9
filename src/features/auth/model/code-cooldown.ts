/**
 * When a new code may be requested (decision D5: 60 s after the last one). Kept for the browser tab,
 * so a reload or a trip to another screen does not offer a resend the server would refuse.
 */
import { isApiError } from "@/lib/api-client";

export type CodePurpose = "phone" | "password_reset";

/** Decision D5: a new code may be requested 60 seconds after the last one. */
export const DEFAULT_RESEND_SECONDS = 60;

const keyOf = (purpose: CodePurpose, subject: string) => `kassa.codeResendAt.${purpose}.${subject.toLowerCase()}`;

/** Starts the wait: a new code from `seconds` from now. */
export function startCodeCooldown(purpose: CodePurpose, subject: string, seconds: number, now = Date.now()): number {
  const until = now + Math.max(0, seconds) * 1000;
  try {
    sessionStorage.setItem(keyOf(purpose, subject), String(until));
  } catch {
    // Without storage the wait lasts as long as the screen.
  }
  return until;
}

/** When the wait ends (epoch ms), or null when there is none known. */
export function codeCooldownUntil(purpose: CodePurpose, subject: string): number | null {
  try {
    const value = Number(sessionStorage.getItem(keyOf(purpose, subject)));
    return Number.isFinite(value) && value > 0 ? value : null;
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
