/**
 * Money calls of the user group (spec §7): balance and current currency, statistics, exchange
 * rate and exchange, operations and case operations. Always the caller's own data: the user comes
 * from the session, never from the request.
 */
import { routes } from "@contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireUser } from "../../plugins/auth";
import { getBalance, getStatistics, setCurrentCurrency } from "../../services/balance";
import { exchange, getExchangeRates } from "../../services/exchange";
import { listCaseOperations, listOperations } from "../../services/operations";
import { subscribe } from "../../services/subscriptions";
import { withErrors } from "../responses";

const tags = ["user"];
const security = [{ bearer: [] }];

export const userMoneyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    routes.balance.path,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "The caller's balance in every currency and the current currency",
        security,
        querystring: routes.balance.query,
        response: withErrors({ 200: routes.balance.response }),
      },
    },
    async (request) => getBalance(app.db, requireUser(request).userId),
  );

  app.post(
    routes.setBalanceCurrency.path,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "Choose the current currency",
        security,
        body: routes.setBalanceCurrency.body,
        response: withErrors({ 200: routes.setBalanceCurrency.response }),
      },
    },
    async (request) => setCurrentCurrency(app.db, requireUser(request).userId, request.body.currency),
  );

  app.get(
    routes.statistics.path,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "Earned (per currency), referrals, active deposits and the amount on deposit",
        security,
        response: withErrors({ 200: routes.statistics.response }),
      },
    },
    async (request) => getStatistics(app.db, requireUser(request).userId),
  );

  app.get(
    routes.exchangeRate.path,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "USD price per coin and the exchange fee",
        security,
        response: withErrors({ 200: routes.exchangeRate.response }),
      },
    },
    async () => getExchangeRates(app.db),
  );

  app.post(
    routes.exchange.path,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "Exchange one currency of the balance for another",
        description:
          "received = roundDown(amount × rate(from) / rate(to) × (1 − feePercent / 100), scale(to)) " +
          "(contract/exchange-math.ts). One transaction, two `exchange` operations. A balance too low is 409 " +
          "INSUFFICIENT_FUNDS; an amount yielding nothing is 400 VALIDATION_FAILED (amountBelowMinimum).",
        security,
        body: routes.exchange.body,
        response: withErrors({ 200: routes.exchange.response }),
      },
    },
    async (request) => exchange(app, requireUser(request).userId, request.body),
  );

  app.get(
    routes.operations.path,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "The caller's operations, newest first",
        description:
          "Filters: currency, type (any ledger kind), from/to (inclusive; a date without a time is the whole UTC " +
          "day). Paged: page (1-based), limit (default 20, at most 100).",
        security,
        querystring: routes.operations.query,
        response: withErrors({ 200: routes.operations.response }),
      },
    },
    async (request) => listOperations(app.db, requireUser(request).userId, request.query),
  );

  app.get(
    routes.caseOperations.path,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "The caller's operations on deposits opened through a crypto case",
        security,
        querystring: routes.caseOperations.query,
        response: withErrors({ 200: routes.caseOperations.response }),
      },
    },
    async (request) => listCaseOperations(app.db, requireUser(request).userId, request.query),
  );

  app.post(
    routes.subscribe.path,
    {
      onRequest: app.authenticate,
      schema: {
        tags: ["user"],
        summary: "Pay a subscription option from the balance; extends subscription.until",
        description:
          "A `subscription` operation debits the option's price in its currency (409 INSUFFICIENT_FUNDS " +
          "'Not enough funds' when short); the end moves durationDays from now or from the current end. " +
          "An unknown option is 400 VALIDATION_FAILED on optionId.",
        security: [{ bearer: [] }],
        body: routes.subscribe.body,
        response: withErrors({ 200: routes.subscribe.response }),
      },
    },
    async (request) => subscribe(app, requireUser(request).userId, request.body.optionId),
  );
};
