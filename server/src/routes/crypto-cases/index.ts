/** `GET /crypto-cases/all` (spec §7 Other): curated bundles of plans. */
import { routes } from "@contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { listCryptoCases } from "../../services/crypto-cases";
import { withErrors } from "../responses";

export const cryptoCasesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    routes.cryptoCases.path,
    {
      schema: {
        tags: ["funds"],
        summary: "Crypto cases: curated portfolios, each a named bundle of plans with a risk level",
        response: withErrors({ 200: routes.cryptoCases.response }),
      },
    },
    async () => listCryptoCases(app.db),
  );
};
