/** The notification dialog (`GET /notification`, `POST /notification/read`). */
import * as z from "zod/mini";
import { deferred } from "./deferred";

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
  "wallet_changed",
] as const;
export const NotificationKind = deferred(() => z.enum(NOTIFICATION_KINDS));
export type NotificationKind = z.infer<typeof NotificationKind>;

/**
 * What a notification concerns, so the app opens its screen: the refill, withdrawal or deposit (by id), or
 * the settings (a verification decided, a withdrawal wallet changed); null when nothing in particular (a
 * subscription, a withdrawal lock).
 * The same targets as the Mini App's start parameters (contract/start-param.ts).
 */
export const NotificationTarget = deferred(() =>
  z.discriminatedUnion("kind", [
    z.object({ kind: z.enum(["refill", "withdrawal", "deposit"]), id: z.string() }),
    z.object({ kind: z.literal("settings") }),
  ]),
);
export type NotificationTarget = z.infer<typeof NotificationTarget>;

export const Notification = deferred(() =>
  z.object({
    id: z.string(),
    kind: NotificationKind,
    /** What it concerns (absent from older servers). */
    target: z.optional(z.nullable(NotificationTarget)),
    title: z.string(),
    body: z.string(),
    /** ISO 8601. */
    createdAt: z.string(),
    /** ISO 8601; null while unread. */
    readAt: z.nullable(z.string()),
  }),
);
export type Notification = z.infer<typeof Notification>;

/** The newest 100 notifications, newest first, and how many of all are unread. */
export const NotificationsReply = deferred(() =>
  z.object({
    items: z.array(Notification),
    unread: z.int().check(z.nonnegative()),
  }),
);
export type NotificationsReply = z.infer<typeof NotificationsReply>;

/**
 * `GET /notification/inbox?limit=20[&after=…]`: every notification, read and unread, newest first, a page at a
 * time (keyset paging: pass the reply's `next` as `after`).
 */
export const NotificationsInboxQuery = deferred(() =>
  z.object({
    limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 20),
    after: z.optional(z.string().check(z.regex(/^\d{1,20}\.[0-9a-f-]{36}$/))),
  }),
);
export type NotificationsInboxQuery = z.infer<typeof NotificationsInboxQuery>;

export const NotificationsInboxReply = deferred(() =>
  z.object({
    items: z.array(Notification),
    /** Unread notifications of all, not only of this page. */
    unread: z.int().check(z.nonnegative()),
    /** Every notification of the caller. */
    total: z.int().check(z.nonnegative()),
    /** Pass as `after` for the next page; null on the last. */
    next: z.nullable(z.string()),
  }),
);
export type NotificationsInboxReply = z.infer<typeof NotificationsInboxReply>;

/** `POST /notification/:id/read`: one notification, the caller's own (another's or an unknown id is 404). */
export const NotificationIdParams = deferred(() => z.object({ id: z.string() }));

/** `ids` absent: every notification of the user is marked read. */
export const NotificationsReadBody = deferred(() =>
  z.object({ ids: z.optional(z.array(z.uuid()).check(z.maxLength(500))) }),
);
export type NotificationsReadBody = z.infer<typeof NotificationsReadBody>;

export const NotificationsReadReply = deferred(() => z.object({ unread: z.int().check(z.nonnegative()) }));
export type NotificationsReadReply = z.infer<typeof NotificationsReadReply>;

/**
 * `GET /user/pulse` (added, docs/decisions.md#live-money): what the open cabinet polls to stay live. `version`
 * changes whenever the user's ledger gains an operation or a notification arrives (a credited refill, an
 * accrual, a withdrawal moved by the operator); the app then refreshes balances, operations and lists. `unread`
 * is the unread notifications count (the user object's).
 */
export const PulseReply = deferred(() => z.object({ version: z.string(), unread: z.int().check(z.nonnegative()) }));
export type PulseReply = z.infer<typeof PulseReply>;
