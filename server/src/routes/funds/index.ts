/** Funds group of spec §7 (decision D6): refills and deposits. Rules live in services/refills.ts and services/deposits.ts. */
import { routes } from "@contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireUser } from "../../plugins/auth";
import { closeDeposit, listDeposits, openDeposit } from "../../services/deposits";
import { createRefill, getRefill, listRefills, updateRefillTxHash } from "../../services/refills";
import { withErrors } from "../responses";

const tags = ["funds"];
const security = [{ bearer: [] }];

export const fundsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    routes.refills.path,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "The caller's refills, newest first (filters: currency, status)",
        security,
        querystring: routes.refills.query,
        response: withErrors({ 200: routes.refills.response }),
      },
    },
    async (request) => listRefills(app.db, requireUser(request).userId, request.query),
  );

  app.post(
    routes.createRefill.path,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "Start a refill: the address to pay to, waiting for the operator",
        description:
          "The payment system fixes the currency, the network and the address. An unknown payment system or one " +
          "closed for refills is 400 VALIDATION_FAILED (fields.paymentSystemId); the amount is truncated to the " +
          "currency's scale and must stay above zero (amountBelowMinimum).",
        security,
        body: routes.createRefill.body,
        response: withErrors({ 200: routes.createRefill.response }),
      },
    },
    async (request) => createRefill(app, requireUser(request).userId, request.body),
  );

  app.get(
    routes.refill.path,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "One of the caller's refills (another user's is 404)",
        security,
        params: routes.refill.params,
        response: withErrors({ 200: routes.refill.response }),
      },
    },
    async (request) => getRefill(app.db, requireUser(request).userId, request.params.id),
  );

  app.patch(
    routes.updateRefill.path,
    {
      onRequest: app.authenticate,
      schema: {
        tags: [...tags, "service"],
        summary: "Attach the transaction hash while the refill waits (added beside the spec's calls)",
        description: "Another user's refill is 404; a refill no longer waiting is 400 UPDATE_FAILED.",
        security,
        params: routes.updateRefill.params,
        body: routes.updateRefill.body,
        response: withErrors({ 200: routes.updateRefill.response }),
      },
    },
    async (request) => updateRefillTxHash(app.db, requireUser(request).userId, request.params.id, request.body.txHash),
  );

  app.get(
    routes.deposits.path,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "The caller's deposits, newest first",
        security,
        querystring: routes.deposits.query,
        response: withErrors({ 200: routes.deposits.response }),
      },
    },
    async (request) => listDeposits(app.db, requireUser(request).userId, request.query),
  );

  app.post(
    routes.createDeposit.path,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "Open a deposit on a plan, paid from the balance of `currency`",
        description:
          "Unknown or inactive plan, a currency other than the plan's, or a crypto case without the plan: 400 " +
          "DEPOSIT_CREATE_FAILED ('Deposit creation error', params.reason). Amount below zero, below the plan's " +
          "minimum or above its maximum: 400 VALIDATION_FAILED (fields.amount amountNegative / amountBelowMinimum " +
          "/ amountAboveMaximum). Balance too low: 409 INSUFFICIENT_FUNDS ('Not enough funds').",
        security,
        body: routes.createDeposit.body,
        response: withErrors({ 200: routes.createDeposit.response }),
      },
    },
    async (request) => openDeposit(app, requireUser(request).userId, request.body),
  );

  app.post(
    routes.closeDeposit.path,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "Close the caller's own active deposit early",
        description:
          "The principal returns to the balance (`deposit_return`), the held accruals are forfeited; the reply " +
          "states both. Not the caller's, unknown, not active, or its term already over (then it paid out in " +
          "full): 400 DEPOSIT_CLOSE_FAILED ('Deposit closing error').",
        security,
        params: routes.closeDeposit.params,
        response: withErrors({ 200: routes.closeDeposit.response }),
      },
    },
    async (request) => closeDeposit(app, requireUser(request).userId, request.params.id),
  );
};
