/** Withdrawals of the funds group (spec §7; decisions D5, D6). Rules live in services/withdrawals.ts. */
import { routes } from "@contract";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { KassaApp } from "../../app";
import { requireUser } from "../../plugins/auth";
import {
  cancelWithdrawal,
  listWithdrawals,
  requestWithdrawal,
  resendWithdrawalCode,
  validateWithdrawal,
  type WithdrawalDeps,
} from "../../services/withdrawals";
import { withErrors } from "../responses";

const tags = ["funds"];
const security = [{ bearer: [] }];

function deps(app: KassaApp, request: FastifyRequest): WithdrawalDeps {
  return { db: app.db, clock: app.clock, secret: app.codeSecret, sender: app.codeSender, log: request.log };
}

const REQUEST_RULES =
  "Checked in this order: payment system unknown or closed for withdrawals → 400 VALIDATION_FAILED " +
  "(fields.paymentSystemId); no wallet for it → 400 NO_WITHDRAWAL_WALLET ('No withdrawal wallet specified'); " +
  "a replenished refill but no deposit → 403 DEPOSIT_REQUIRED ('You must have a deposit to withdraw'); no " +
  "replenished refill (with or without a deposit) → 403 DEPOSIT_AND_REFILL_REQUIRED ('To withdraw, you must " +
  "have a deposit and a recharge'); amount outside the system's min/max → 400 VALIDATION_FAILED " +
  "(fields.amount amountBelowMinimum / amountAboveMaximum); balance too low → 409 INSUFFICIENT_FUNDS. " +
  "The amount is reserved at once (a `withdrawal` operation), the application awaits its code, and the code " +
  "goes out through the user's channel (502 CODE_SEND_FAILED: nothing reserved).";

export const withdrawalRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    routes.requestWithdrawal.path,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "Apply for a withdrawal: the amount is reserved and a code sent",
        description: REQUEST_RULES,
        security,
        body: routes.requestWithdrawal.body,
        response: withErrors({ 200: routes.requestWithdrawal.response }),
      },
    },
    async (request) => requestWithdrawal(deps(app, request), requireUser(request).userId, request.body),
  );

  app.post(
    routes.createWithdrawal.path,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "The older one-step variant: the same as POST /funds/payments/request",
        description: REQUEST_RULES,
        security,
        body: routes.createWithdrawal.body,
        response: withErrors({ 200: routes.createWithdrawal.response }),
      },
    },
    async (request) => requestWithdrawal(deps(app, request), requireUser(request).userId, request.body),
  );

  app.post(
    routes.validateWithdrawal.path,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "Confirm an application with its code: it becomes pending",
        description:
          "Wrong code → 400 CODE_MISMATCH ('The code doesn't match. Try again', params.attemptsLeft); too old → " +
          "410 CODE_EXPIRED ('The verification code is out of date'); used, voided after 5 wrong tries, absent, " +
          "or the application not awaiting a code → 400 CODE_INVALID ('The code is not valid').",
        security,
        body: routes.validateWithdrawal.body,
        response: withErrors({ 200: routes.validateWithdrawal.response }),
      },
    },
    async (request) =>
      validateWithdrawal(deps(app, request), requireUser(request).userId, request.body.withdrawalId, request.body.code),
  );

  app.get(
    routes.withdrawals.path,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "The caller's withdrawals, newest first (filters: currency, status, from/to)",
        security,
        querystring: routes.withdrawals.query,
        response: withErrors({ 200: routes.withdrawals.response }),
      },
    },
    async (request) => listWithdrawals(app.db, requireUser(request).userId, request.query),
  );

  app.post(
    routes.resendWithdrawalCode.path,
    {
      onRequest: app.authenticate,
      schema: {
        tags: [...tags, "service"],
        summary: "A new code for an application awaiting one (added beside the spec's calls)",
        description:
          "Before the resend wait (60 s) 429 RATE_LIMITED with params.retryAfter; not awaiting → CODE_INVALID.",
        security,
        params: routes.resendWithdrawalCode.params,
        response: withErrors({ 200: routes.resendWithdrawalCode.response }),
      },
    },
    async (request) => resendWithdrawalCode(deps(app, request), requireUser(request).userId, request.params.id),
  );

  app.post(
    routes.cancelWithdrawal.path,
    {
      onRequest: app.authenticate,
      schema: {
        tags: [...tags, "service"],
        summary: "Cancel an application awaiting its code; the amount returns (added beside the spec's calls)",
        description: "Not awaiting a code → 400 WITHDRAWAL_FAILED (params.reason); another user's → 404.",
        security,
        params: routes.cancelWithdrawal.params,
        response: withErrors({ 200: routes.cancelWithdrawal.response }),
      },
    },
    async (request) => cancelWithdrawal(deps(app, request), requireUser(request).userId, request.params.id),
  );
};
