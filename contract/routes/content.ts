// The route table's calls for news, notifications and what is left (`contract/routes.ts` joins the areas).
import { NewsIdParams, NewsOneReply, NewsQuery, NewsReply } from "../content";
import {
  NotificationIdParams,
  NotificationsInboxQuery,
  NotificationsInboxReply,
  NotificationsReadBody,
  NotificationsReadReply,
  NotificationsReply,
  PulseReply,
} from "../notifications";
import { route } from "./route";

export const contentRoutes = {
  // Other
  notifications: route({
    method: "GET",
    path: "/notification",
    auth: true,
    tags: ["notifications"],
    response: NotificationsReply,
  }),
  /**
   * Added (docs/decisions.md#live-money): the cheap call the open cabinet polls; a new `version` means money or
   * news moved.
   */
  pulse: route({
    method: "GET",
    path: "/user/pulse",
    auth: true,
    tags: ["notifications", "service"],
    response: PulseReply,
  }),
  /** Marks `ids` (every notification when absent) read. */
  readNotifications: route({
    method: "POST",
    path: "/notification/read",
    auth: true,
    tags: ["notifications"],
    body: NotificationsReadBody,
    response: NotificationsReadReply,
  }),
  /** Added: the inbox, every notification read and unread, a page at a time, with what each concerns. */
  notificationsInbox: route({
    method: "GET",
    path: "/notification/inbox",
    auth: true,
    tags: ["notifications", "service"],
    query: NotificationsInboxQuery,
    response: NotificationsInboxReply,
  }),
  /** Added: marks one of the caller's notifications read (another's or an unknown id is 404). */
  readNotification: route({
    method: "POST",
    path: "/notification/:id/read",
    auth: true,
    tags: ["notifications", "service"],
    params: NotificationIdParams,
    response: NotificationsReadReply,
  }),
  news: route({
    method: "GET",
    path: "/content/news",
    auth: false,
    tags: ["content"],
    query: NewsQuery,
    response: NewsReply,
  }),
  newsOne: route({
    method: "GET",
    path: "/content/news/one/:id",
    auth: false,
    tags: ["content"],
    params: NewsIdParams,
    query: NewsQuery,
    response: NewsOneReply,
  }),
} as const;
