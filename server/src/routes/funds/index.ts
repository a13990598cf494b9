/**
 * Funds calls (docs/cabinet-rules.md#api-calls; docs/decisions.md#d6-funds): refills and deposits. Rules live
 * in services/refills.ts and services/deposits.ts.
 */
import { routes } from "@contract";
import type { KassaApp } from "../../context";
import { closeDeposit, listDeposits, openDeposit } from "../../services/deposits";
import { createRefill, getRefill, listRefills, updateRefillTxHash } from "../../services/refills";
import { defineRoute } from "../define";

export async function fundsRoutes(app: KassaApp) {
  defineRoute(
    app,
    routes.refills,
    { summary: "The caller's refills, newest first (filters: currency, status)" },
    ({ ctx, auth, query }) => listRefills(ctx.db, auth.userId, query),
  );

  defineRoute(
    app,
    routes.createRefill,
    {
      summary: "Start a refill: the address to pay to, waiting for the operator",
      description:
        "The payment system fixes the currency, the network and the address. An unknown payment system or one " +
        "closed for refills is 400 VALIDATION_FAILED (fields.paymentSystemId); the amount is truncated to the " +
        "currency's scale and must stay above zero (amountBelowMinimum).",
    },
    ({ ctx, auth, body }) => createRefill(ctx, auth.userId, body),
  );

  defineRoute(
    app,
    routes.refill,
    { summary: "One of the caller's refills (another user's is 404)" },
    ({ ctx, auth, params }) => getRefill(ctx.db, auth.userId, params.id),
  );

  defineRoute(
    app,
    routes.updateRefill,
    {
      summary: "Attach the transaction hash while the refill waits (added beside the cabinet's calls)",
      description: "Another user's refill is 404; a refill no longer waiting is 400 UPDATE_FAILED.",
    },
    ({ ctx, auth, params, body }) => updateRefillTxHash(ctx.db, auth.userId, params.id, body.txHash),
  );

  defineRoute(app, routes.deposits, { summary: "The caller's deposits, newest first" }, ({ ctx, auth, query }) =>
    listDeposits(ctx.db, auth.userId, query),
  );

  defineRoute(
    app,
    routes.createDeposit,
    {
      summary: "Open a deposit on a plan, paid from the balance of `currency`",
      description:
        "Unknown or inactive plan, a currency other than the plan's, or a crypto case without the plan: 400 " +
        "DEPOSIT_CREATE_FAILED ('Deposit creation error', params.reason). Amount below zero, below the plan's " +
        "minimum or above its maximum: 400 VALIDATION_FAILED (fields.amount amountNegative / amountBelowMinimum " +
        "/ amountAboveMaximum). Balance too low: 409 INSUFFICIENT_FUNDS ('Not enough funds').",
    },
    ({ ctx, auth, body }) => openDeposit(ctx, auth.userId, body),
  );

  defineRoute(
    app,
    routes.closeDeposit,
    {
      summary: "Close the caller's own active deposit early",
      description:
        "The principal returns to the balance (`deposit_return`), the held accruals are forfeited; the reply " +
        "states both. Not the caller's, unknown, not active, or its term already over (then it paid out in " +
        "full): 400 DEPOSIT_CLOSE_FAILED ('Deposit closing error'). The optional body names the amounts the " +
        "investor agreed to; when the server's differ (a day accrued in between), nothing is closed: 400 " +
        "DEPOSIT_CLOSE_FAILED with params.reason `amounts_changed` and the amounts it would use now in " +
        "params.returned and params.forfeited.",
      // No body: closed at the server's amounts, as before the body was added.
      preValidation: async (request) => {
        if (request.body === undefined || request.body === null) request.body = {};
      },
    },
    ({ ctx, auth, params, body }) => closeDeposit(ctx, auth.userId, params.id, body),
  );
}
