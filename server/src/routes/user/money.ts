/**
 * Money calls of the user group (docs/cabinet-rules.md#api-calls): balance and current currency, statistics, exchange
 * rate and exchange, operations and case operations. Always the caller's own data: the user comes
 * from the session, never from the request.
 */
import { routes } from "@contract";
import type { KassaApp } from "../../context";
import { getBalance, getStatistics, setCurrentCurrency } from "../../services/balance";
import { exchange, getExchangeRates } from "../../services/exchange";
import { listCaseOperations, listOperations } from "../../services/operations";
import { subscribe } from "../../services/subscriptions";
import { defineRoute } from "../define";

export async function userMoneyRoutes(app: KassaApp) {
  defineRoute(
    app,
    routes.balance,
    { summary: "The caller's balance in every currency and the current currency" },
    // The session links its user's kept money: one map lookup a kept call, the session's.
    ({ ctx, auth }) => getBalance(ctx.db, auth.userId, auth),
  );

  defineRoute(app, routes.setBalanceCurrency, { summary: "Choose the current currency" }, ({ ctx, auth, body }) =>
    setCurrentCurrency(ctx.db, auth.userId, body.currency),
  );

  defineRoute(
    app,
    routes.statistics,
    { summary: "Earned (per currency), referrals, active deposits and the amount on deposit" },
    ({ ctx, auth }) => getStatistics(ctx.db, auth.userId),
  );

  defineRoute(app, routes.exchangeRate, { summary: "USD price per coin and the exchange fee" }, ({ ctx }) =>
    getExchangeRates(ctx.db),
  );

  defineRoute(
    app,
    routes.exchange,
    {
      summary: "Exchange one currency of the balance for another",
      description:
        "received = roundDown(amount × rate(from) / rate(to) × (1 − feePercent / 100), scale(to)) " +
        "(contract/exchange-math.ts). One transaction, two `exchange` operations. A balance too low is 409 " +
        "INSUFFICIENT_FUNDS; an amount yielding nothing is 400 VALIDATION_FAILED (amountBelowMinimum).",
    },
    ({ ctx, auth, body }) => exchange(ctx, auth.userId, body),
  );

  defineRoute(
    app,
    routes.operations,
    {
      summary: "The caller's operations, newest first",
      description:
        "Filters: currency, type (any ledger kind), from/to (inclusive; a date without a time is the whole UTC " +
        "day). Paged: page (1-based), limit (default 20, at most 100).",
    },
    ({ ctx, auth, query }) => listOperations(ctx.db, auth.userId, query),
  );

  defineRoute(
    app,
    routes.caseOperations,
    { summary: "The caller's operations on deposits opened through a crypto case" },
    ({ ctx, auth, query }) => listCaseOperations(ctx.db, auth.userId, query),
  );

  defineRoute(
    app,
    routes.subscribe,
    {
      summary: "Pay a subscription option from the balance; extends subscription.until",
      description:
        "A `subscription` operation debits the option's price in its currency (409 INSUFFICIENT_FUNDS " +
        "'Not enough funds' when short); the end moves durationDays from now or from the current end. " +
        "An unknown option is 400 VALIDATION_FAILED on optionId.",
    },
    ({ ctx, auth, body }) => subscribe(ctx, auth.userId, body.optionId),
  );
}
