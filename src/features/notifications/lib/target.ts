/** Where a notification leads: the screen it concerns, as the chat's button of the same notification opens it. */
import type { Notification } from "@contract";
import { formatStartParam } from "@contract/start-param";
import { paths, startParamPath } from "@/config/paths";

/** The screen of a kind whose notification names no item (or came from a server that did not say). */
const KIND_SCREENS: Partial<Record<string, string>> = {
  refill_credited: paths.refill,
  refill_rejected: paths.refill,
  withdrawal_status: paths.withdrawal,
  withdrawals_locked: paths.withdrawal,
  deposit_ended: paths.deposits,
  verification_success: paths.settings,
  verification_denied: paths.settings,
  subscription_activated: paths.settings,
  wallet_changed: paths.settings,
};

/**
 * The path a notification opens: its target's screen (a refill, withdrawal or deposit with that item open, or
 * the settings), else its kind's screen; undefined for a kind this app does not know (it is only read).
 */
export function notificationPath(notification: Pick<Notification, "kind" | "target">): string | undefined {
  const { target } = notification;
  if (target) {
    const param = formatStartParam(target);
    const path = param ? startParamPath(param) : undefined;
    if (path) return path;
  }
  return KIND_SCREENS[notification.kind];
}
