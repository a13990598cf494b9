/** Withdrawal wallets of the user calls (docs/cabinet-rules.md#api-calls). Always the caller's own. */
import { routes } from "@contract";
import type { KassaApp } from "../../context";
import { changeWallets, listWallets } from "../../services/wallets";
import { requestMeta } from "../auth";
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
      summary: "Set withdrawal wallets (an empty address removes one); a new or changed address needs a code",
      description:
        "Each address must fit its payment system's format, else 400 VALIDATION_FAILED with " +
        "fields['wallets.<i>.address'] = 'addressFormat'; an unknown payment system is " +
        "fields['wallets.<i>.paymentSystemId'] = 'required'. Nothing is stored unless every entry passes. " +
        "Removals and unchanged addresses are stored at once. When an entry adds or changes an address, " +
        "the call without `code` stores nothing and sends a code to the user's code channel (`walletCode`; " +
        "429 RATE_LIMITED within the resend wait, 403 WITHDRAWALS_LOCKED while withdrawals are locked); " +
        "the same wallets with `code` are stored (CODE_MISMATCH with attemptsLeft, CODE_EXPIRED, CODE_INVALID " +
        "as for a withdrawal's code, whose budgets they share) and the user is told that a wallet changed.",
    },
    ({ ctx, auth, body, request }) => changeWallets(ctx, auth.userId, body, requestMeta(request)),
  );
}
