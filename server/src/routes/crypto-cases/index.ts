/** `GET /crypto-cases/all` (docs/cabinet-rules.md#api-calls): curated bundles of plans. */
import { routes } from "@contract";
import type { KassaApp } from "../../context";
import { listCryptoCases } from "../../services/crypto-cases";
import { defineRoute } from "../define";

export async function cryptoCasesRoutes(app: KassaApp) {
  defineRoute(
    app,
    routes.cryptoCases,
    { summary: "Crypto cases: curated portfolios, each a named bundle of plans with a risk level" },
    ({ ctx }) => listCryptoCases(ctx.db),
  );
}
