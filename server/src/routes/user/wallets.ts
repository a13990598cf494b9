/** Withdrawal wallets of the user calls (docs/cabinet-rules.md#api-calls). Always the caller's own. */
import { routes } from "@contract";
import type { KassaApp } from "../../context";
import { listWallets, updateWallets } from "../../services/wallets";
import { defineRoute } from "../define";

export async function userWalletsRoutes(app: KassaApp) {
  defineRoute(
    app,
    routes.wallets,
    { summary: "The caller's withdrawal wallets, one per payment system" },
    ({ ctx, auth }) => listWallets(ctx.db, auth.userId),
  );

  defineRoute(
    app,
    routes.updateWallets,
    {
      summary: "Set withdrawal wallets (an empty address removes one)",
      description:
        "Each address must fit its payment system's format, else 400 VALIDATION_FAILED with " +
        "fields['wallets.<i>.address'] = 'addressFormat'; an unknown payment system is " +
        "fields['wallets.<i>.paymentSystemId'] = 'required'. Nothing is stored unless every entry passes.",
    },
    ({ ctx, auth, body }) => updateWallets(ctx, auth.userId, body),
  );
}
