/** Partners calls of the user group (spec §7; decision D6). Always the caller's own tree. */
import { routes } from "@contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireUser } from "../../plugins/auth";
import { getBonuses, getReferral, listReferrals } from "../../services/partners";
import { withErrors } from "../responses";

const tags = ["partners"];
const security = [{ bearer: [] }];

export const userPartnersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    routes.referrals.path,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "The caller's referrals within the referral lines, with totals",
        description:
          "Filters: search (login substring, any case), line (1…N). Sort: login | investments | profit | line | " +
          "createdAt (investments and profit order by their USD value at the current exchange rates), sortDir " +
          "asc | desc. Amounts per currency. Totals are over the whole downline, not the filtered page.",
        security,
        querystring: routes.referrals.query,
        response: withErrors({ 200: routes.referrals.response }),
      },
    },
    async (request) => listReferrals(app.db, requireUser(request).userId, request.query),
  );

  app.get(
    routes.referral.path,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "One member of the caller's downline (anyone else is 404)",
        security,
        params: routes.referral.params,
        response: withErrors({ 200: routes.referral.response }),
      },
    },
    async (request) => getReferral(app.db, requireUser(request).userId, request.params.id),
  );

  app.get(
    routes.bonus.path,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "The four turnover bonuses: target, award, the caller's turnover, reached, paid",
        security,
        response: withErrors({ 200: routes.bonus.response }),
      },
    },
    async (request) => getBonuses(app.db, requireUser(request).userId),
  );
};
