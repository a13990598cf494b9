/** Notifications (docs/cabinet-rules.md#api-calls); only ever the caller's own. */
import { routes } from "@contract";
import type { KassaApp } from "../context";
import {
  listNotifications,
  markNotificationRead,
  markNotificationsRead,
  notificationsInbox,
  pulse,
} from "../services/notifications";
import { defineRoute } from "./define";

export async function notificationRoutes(app: KassaApp) {
  defineRoute(
    app,
    routes.notifications,
    { summary: "The caller's newest 100 notifications (newest first) in their language, and the unread count" },
    ({ ctx, auth }) => listNotifications(ctx.db, auth.userId),
  );

  defineRoute(
    app,
    routes.readNotifications,
    {
      summary: "Mark notifications read: `ids`, or all when absent (no body is also all)",
      // No body at all means "all", as `{}` does.
      preValidation: async (request) => {
        if (request.body === undefined || request.body === null) request.body = {};
      },
    },
    ({ ctx, auth, body }) => markNotificationsRead(ctx.db, ctx.clock, auth.userId, body.ids),
  );

  defineRoute(
    app,
    routes.notificationsInbox,
    {
      summary: "The inbox (added): every notification, read and unread, newest first, a page at a time",
      description:
        "Each item says what it concerns (`target`: a refill, withdrawal or deposit by id, or the settings), so the " +
        "app opens that screen. `unread` counts all unread; `next` is the following page's `after` (keyset paging).",
    },
    ({ ctx, auth, query }) => notificationsInbox(ctx.db, auth.userId, query),
  );

  defineRoute(
    app,
    routes.readNotification,
    { summary: "Mark one of the caller's notifications read (added); another's or an unknown id is 404" },
    ({ ctx, auth, params }) => markNotificationRead(ctx.db, ctx.clock, auth.userId, params.id),
  );

  defineRoute(
    app,
    routes.pulse,
    {
      summary:
        "What the open cabinet polls (added, docs/decisions.md#live-money): a version that moves with money and news, and the unread count",
      description:
        "`version` changes whenever an operation is written for the caller or a notification arrives (a credited " +
        "refill, an accrual, a withdrawal the operator moved); the app then refreshes its balances and lists. One " +
        "statement over two indexes; the app polls it every 3 s while the cabinet is in front.",
    },
    ({ ctx, auth }) => pulse(ctx.db, auth.userId),
  );
}
