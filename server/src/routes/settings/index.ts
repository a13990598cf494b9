/**
 * Settings calls (docs/cabinet-rules.md#api-calls): public settings, plans, payment systems, subscription
 * options.
 */
import { PUBLIC_SETTING_KEYS, routes } from "@contract";
import { z } from "zod";
import type { KassaApp } from "../../context";
import { listAvailablePlans, listPaymentSystems, listSubscriptionOptions } from "../../services/catalog";
import { getPublicSetting, getSetting } from "../../services/settings";
import { defineRoute } from "../define";

export async function settingsRoutes(app: KassaApp) {
  defineRoute(
    app,
    routes.telegramAuthAvailable,
    { summary: "Whether the login screen offers Telegram sign-in" },
    async ({ ctx }) => ({
      available: await getSetting(ctx.db, "telegramAuthAvailable"),
    }),
  );

  defineRoute(
    app,
    routes.technicalWork,
    { summary: "The maintenance notice: on or off, the note for users and the expected end" },
    ({ ctx }) => getSetting(ctx.db, "technicalWork"),
  );

  defineRoute(app, routes.subscriptionOptions, { summary: "Subscriptions the user may activate" }, ({ ctx }) =>
    listSubscriptionOptions(ctx.db),
  );

  defineRoute(
    app,
    routes.setting,
    {
      summary: "One public setting",
      description: `Public keys: ${PUBLIC_SETTING_KEYS.join(", ")}. Any other key replies 404 NOT_FOUND.`,
      // Any string, so that a private or unknown key is "not found" rather than "invalid".
      params: z.object({ key: z.string().max(64) }),
    },
    ({ ctx, params }) => getPublicSetting(ctx.db, params.key),
  );

  defineRoute(app, routes.plansAvailable, { summary: "Active plans in display order" }, ({ ctx }) =>
    listAvailablePlans(ctx.db),
  );

  defineRoute(app, routes.paymentSystems, { summary: "Coins and networks for refills and withdrawals" }, ({ ctx }) =>
    listPaymentSystems(ctx.db),
  );
}
