/**
 * "Later" on the subscription prompt (docs/decisions.md#subscription-without-surprises): the prompt stays away
 * for `LATER_DAYS` days for that user, on this device, across reloads and sign-ins. Kept in local storage under
 * the user's id, so another account on the same device is still asked.
 */
import { DAY_MS } from "@contract/deposit-math";

/** How long "Later" keeps the prompt away. */
const LATER_DAYS = 7;

function key(userId: string): string {
  return `kassa.subscription-later.${userId}`;
}

/** Whether `userId` chose "Later" less than `LATER_DAYS` days before `now`. */
export function isPostponed(userId: string, now: Date = new Date()): boolean {
  try {
    const until = Number(localStorage.getItem(key(userId)));
    return Number.isFinite(until) && until > now.getTime();
  } catch {
    return false;
  }
}

/** Keeps the prompt away from `userId` for `LATER_DAYS` days from `now`. */
export function postpone(userId: string, now: Date = new Date()): void {
  try {
    localStorage.setItem(key(userId), String(now.getTime() + LATER_DAYS * DAY_MS));
  } catch {
    // Without storage the prompt comes back on the next visit: nothing is charged either way.
  }
}

/** The end of a subscription bought now: `durationDays` from the later of now and the current end (as the server counts). */
export function subscriptionEnd(current: string | null, durationDays: number, now: Date = new Date()): Date {
  const from = current && new Date(current).getTime() > now.getTime() ? new Date(current).getTime() : now.getTime();
  return new Date(from + durationDays * DAY_MS);
}
