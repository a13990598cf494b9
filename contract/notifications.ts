/** The notification dialog (`GET /notification`, `POST /notification/read`). */
import { z } from "zod";

/** What happened; the server writes the title and body in the user's language. */
export const NOTIFICATION_KINDS = [
  "refill_credited",
  "refill_rejected",
  "withdrawal_status",
  "deposit_ended",
  "verification_success",
  "verification_denied",
  "subscription_activated",
  "withdrawals_locked",
] as const;
export const NotificationKind = z.enum(NOTIFICATION_KINDS);
export type NotificationKind = z.infer<typeof NotificationKind>;

export const Notification = z.object({
  id: z.string(),
  kind: NotificationKind,
  title: z.string(),
  body: z.string(),
  /** ISO 8601. */
  createdAt: z.string(),
  /** ISO 8601; null while unread. */
  readAt: z.string().nullable(),
});
export type Notification = z.infer<typeof Notification>;

/** The newest 100 notifications, newest first, and how many of all are unread. */
export const NotificationsReply = z.object({
  items: z.array(Notification),
  unread: z.number().int().nonnegative(),
});
export type NotificationsReply = z.infer<typeof NotificationsReply>;

/** `ids` absent: every notification of the user is marked read. */
export const NotificationsReadBody = z.object({ ids: z.array(z.uuid()).max(500).optional() });
export type NotificationsReadBody = z.infer<typeof NotificationsReadBody>;

export const NotificationsReadReply = z.object({ unread: z.number().int().nonnegative() });
export type NotificationsReadReply = z.infer<typeof NotificationsReadReply>;

/**
 * `GET /user/pulse` (added, docs/decisions.md#live-money): what the open cabinet polls to stay live. `version`
 * changes whenever the user's ledger gains an operation or a notification arrives (a credited refill, an
 * accrual, a withdrawal moved by the operator); the app then refreshes balances, operations and lists. `unread`
 * is the unread notifications count (the user object's).
 */
export const PulseReply = z.object({ version: z.string(), unread: z.number().int().nonnegative() });
export type PulseReply = z.infer<typeof PulseReply>;
