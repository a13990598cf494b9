/** Notifications of spec §7 Other; only ever the caller's own. */
import { routes } from "@contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireUser } from "../plugins/auth";
import { listNotifications, markNotificationsRead } from "../services/notifications";
import { withErrors } from "./responses";

const tags = ["notifications"];
const security = [{ bearer: [] }];

export const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    routes.notifications.path,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "The caller's newest 100 notifications (newest first) in their language, and the unread count",
        security,
        response: withErrors({ 200: routes.notifications.response }),
      },
    },
    async (request) => listNotifications(app.db, requireUser(request).userId),
  );
  app.post(
    routes.readNotifications.path,
    {
      onRequest: app.authenticate,
      // No body at all means "all", as `{}` does.
      preValidation: async (request) => {
        if (request.body === undefined || request.body === null) request.body = {};
      },
      schema: {
        tags,
        summary: "Mark notifications read: `ids`, or all when absent (no body is also all)",
        security,
        body: routes.readNotifications.body,
        response: withErrors({ 200: routes.readNotifications.response }),
      },
    },
    async (request) => markNotificationsRead(app.db, app.clock, requireUser(request).userId, request.body.ids),
  );
};
