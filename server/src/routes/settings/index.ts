/** Settings group of spec §7: public settings, plans, payment systems, subscription options. */
import { PUBLIC_SETTING_KEYS, routes } from "@contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { listAvailablePlans, listPaymentSystems, listSubscriptionOptions } from "../../services/catalog";
import { getPublicSetting, getSetting } from "../../services/settings";
import { withErrors } from "../responses";

const tags = ["settings"];

export const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    routes.telegramAuthAvailable.path,
    {
      schema: {
        tags,
        summary: "Whether the login screen offers Telegram sign-in",
        response: withErrors({ 200: routes.telegramAuthAvailable.response }),
      },
    },
    async () => ({ available: await getSetting(app.db, "telegramAuthAvailable") }),
  );

  app.get(
    routes.technicalWork.path,
    {
      schema: {
        tags,
        summary: "The maintenance notice: on or off, the note for users and the expected end",
        response: withErrors({ 200: routes.technicalWork.response }),
      },
    },
    async () => getSetting(app.db, "technicalWork"),
  );

  app.get(
    routes.subscriptionOptions.path,
    {
      schema: {
        tags,
        summary: "Subscriptions the user may activate",
        response: withErrors({ 200: routes.subscriptionOptions.response }),
      },
    },
    async () => listSubscriptionOptions(app.db),
  );

  app.get(
    routes.setting.path,
    {
      schema: {
        tags,
        summary: "One public setting",
        description: `Public keys: ${PUBLIC_SETTING_KEYS.join(", ")}. Any other key replies 404 NOT_FOUND.`,
        // Any string, so that a private or unknown key is "not found" rather than "invalid".
        params: z.object({ key: z.string().max(64) }),
        response: withErrors({ 200: routes.setting.response }),
      },
    },
    async (request) => getPublicSetting(app.db, request.params.key),
  );

  app.get(
    routes.plansAvailable.path,
    {
      schema: {
        tags,
        summary: "Active plans in display order",
        response: withErrors({ 200: routes.plansAvailable.response }),
      },
    },
    async () => listAvailablePlans(app.db),
  );

  app.get(
    routes.paymentSystems.path,
    {
      schema: {
        tags,
        summary: "Coins and networks for refills and withdrawals",
        response: withErrors({ 200: routes.paymentSystems.response }),
      },
    },
    async () => listPaymentSystems(app.db),
  );
};
