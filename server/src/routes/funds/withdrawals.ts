/**
 * Withdrawals of the funds calls (docs/decisions.md#d6-withdrawals, #d5-codes). Rules live in
 * services/withdrawals.ts.
 */
import { routes } from "@contract";
import type { KassaApp } from "../../context";
import {
  cancelWithdrawal,
  listWithdrawals,
  requestWithdrawal,
  resendWithdrawalCode,
  validateWithdrawal,
} from "../../services/withdrawals";
import { defineRoute } from "../define";

const REQUEST_RULES =
  "Checked in this order: payment system unknown or closed for withdrawals → 400 VALIDATION_FAILED " +
  "(fields.paymentSystemId); no wallet for it → 400 NO_WITHDRAWAL_WALLET ('No withdrawal wallet specified'); " +
  "a replenished refill but no deposit → 403 DEPOSIT_REQUIRED ('You must have a deposit to withdraw'); no " +
  "replenished refill (with or without a deposit) → 403 DEPOSIT_AND_REFILL_REQUIRED ('To withdraw, you must " +
  "have a deposit and a recharge'); amount outside the system's min/max → 400 VALIDATION_FAILED " +
  "(fields.amount amountBelowMinimum / amountAboveMaximum); balance too low → 409 INSUFFICIENT_FUNDS. " +
  "The amount is reserved at once (a `withdrawal` operation), the application awaits its code, and the code " +
  "goes out through the user's channel (502 CODE_SEND_FAILED: nothing reserved).";

export async function withdrawalRoutes(app: KassaApp) {
  defineRoute(
    app,
    routes.requestWithdrawal,
    { summary: "Apply for a withdrawal: the amount is reserved and a code sent", description: REQUEST_RULES },
    ({ ctx, auth, body }) => requestWithdrawal(ctx, auth.userId, body),
  );

  defineRoute(
    app,
    routes.createWithdrawal,
    { summary: "The older one-step variant: the same as POST /funds/payments/request", description: REQUEST_RULES },
    ({ ctx, auth, body }) => requestWithdrawal(ctx, auth.userId, body),
  );

  defineRoute(
    app,
    routes.validateWithdrawal,
    {
      summary: "Confirm an application with its code: it becomes pending",
      description:
        "Wrong code → 400 CODE_MISMATCH ('The code doesn't match. Try again', params.attemptsLeft); too old → " +
        "410 CODE_EXPIRED ('The verification code is out of date'); used, voided after 5 wrong tries, absent, " +
        "or the application not awaiting a code → 400 CODE_INVALID ('The code is not valid'). Wrong codes are " +
        "limited per user and per client address across applications (429 RATE_LIMITED with Retry-After); " +
        "the 15th wrong code within a day (whatever ended the applications) locks the user's withdrawals for " +
        "24 hours (403 WITHDRAWALS_LOCKED, " +
        "params.until; the user gets a notification).",
    },
    ({ ctx, auth, body, request }) =>
      validateWithdrawal(ctx, auth.userId, body.withdrawalId, body.code, { ip: request.ip }),
  );

  defineRoute(
    app,
    routes.withdrawals,
    { summary: "The caller's withdrawals, newest first (filters: currency, status, from/to)" },
    ({ ctx, auth, query }) => listWithdrawals(ctx.db, auth.userId, query),
  );

  defineRoute(
    app,
    routes.resendWithdrawalCode,
    {
      summary: "A new code for an application awaiting one (added beside the cabinet's calls)",
      description:
        "Before the resend wait (60 s) 429 RATE_LIMITED with params.retryAfter; not awaiting → CODE_INVALID.",
    },
    ({ ctx, auth, params }) => resendWithdrawalCode(ctx, auth.userId, params.id),
  );

  defineRoute(
    app,
    routes.cancelWithdrawal,
    {
      summary: "Cancel an application awaiting its code; the amount returns (added beside the cabinet's calls)",
      description: "Not awaiting a code → 400 WITHDRAWAL_FAILED (params.reason); another user's → 404.",
    },
    ({ ctx, auth, params }) => cancelWithdrawal(ctx, auth.userId, params.id),
  );
}
