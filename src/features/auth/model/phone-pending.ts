import type { User } from "@contract/user";

/**
 * The phone still waits for its code: the server's own rule (`phoneConfirmationRequired`), a phone on the account
 * and not confirmed. Accounts made by Telegram sign-in have no phone and are not held. The guards send such a user
 * to phone verification; the launcher paints no cabinet for one.
 */
export function needsPhoneConfirmation(user: Pick<User, "phone" | "phoneConfirmed"> | null): boolean {
  return user !== null && user.phone !== null && !user.phoneConfirmed;
}
