/**
 * When a withdrawal's new code may be requested (decision D5: 60 s after the last one; the server
 * keeps a wait per application). Kept for the browser tab, so leaving the code step and resuming it
 * from the history does not offer a resend the server would refuse.
 */
import { isApiError } from "@/lib/api-client";

const keyOf = (withdrawalId: string) => `kassa.codeResendAt.withdrawal.${withdrawalId}`;

export function startWithdrawalCooldown(withdrawalId: string, seconds: number, now = Date.now()): number {
  const until = now + Math.max(0, seconds) * 1000;
  try {
    sessionStorage.setItem(keyOf(withdrawalId), String(until));
  } catch {
    // Without storage the wait lasts as long as the step.
  }
  return until;
}

export function withdrawalCooldownUntil(withdrawalId: string): number | null {
  try {
    const value = Number(sessionStorage.getItem(keyOf(withdrawalId)));
    return Number.isFinite(value) && value > Date.now() ? value : null;
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
