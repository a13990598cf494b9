/** Withdrawal wallets of the user group (spec §7 User). Always the caller's own. */
import { routes } from "@contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireUser } from "../../plugins/auth";
import { listWallets, updateWallets } from "../../services/wallets";
import { withErrors } from "../responses";

const tags = ["user"];
const security = [{ bearer: [] }];

export const userWalletsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    routes.wallets.path,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "The caller's withdrawal wallets, one per payment system",
        security,
        response: withErrors({ 200: routes.wallets.response }),
      },
    },
    async (request) => listWallets(app.db, requireUser(request).userId),
  );

  app.patch(
    routes.updateWallets.path,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "Set withdrawal wallets (an empty address removes one)",
        description:
          "Each address must fit its payment system's format, else 400 VALIDATION_FAILED with " +
          "fields['wallets.<i>.address'] = 'addressFormat'; an unknown payment system is " +
          "fields['wallets.<i>.paymentSystemId'] = 'required'. Nothing is stored unless every entry passes.",
        security,
        body: routes.updateWallets.body,
        response: withErrors({ 200: routes.updateWallets.response }),
      },
    },
    async (request) => updateWallets(app, requireUser(request).userId, request.body),
  );
};
