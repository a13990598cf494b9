// The route table's calls for the balance, its figures, the exchange and the operations (`contract/routes.ts` joins the areas).
import {
  BalanceQuery,
  BalanceReply,
  CaseOperationsQuery,
  ExchangeBody,
  ExchangeRateReply,
  ExchangeReply,
  OperationsQuery,
  OperationsReply,
  SetCurrentCurrencyBody,
  StatisticsReply,
} from "../balance";
import { CryptoCasesReply } from "../funds";
import {
  IncomeQuery,
  IncomeReply,
  OverviewReply,
  StatementFileQuery,
  StatementLinkReply,
  StatementQuery,
  StatementReply,
} from "../home";
import { route } from "./route";

export const balanceRoutes = {
  // Balance, statistics, exchange, operations (docs/decisions.md#d3-money)
  balance: route({
    method: "GET",
    path: "/user/balance",
    auth: true,
    tags: ["user"],
    query: BalanceQuery,
    response: BalanceReply,
  }),
  /** Chooses the current currency. */
  setBalanceCurrency: route({
    method: "POST",
    path: "/user/balance",
    auth: true,
    tags: ["user"],
    body: SetCurrentCurrencyBody,
    response: BalanceReply,
  }),
  statistics: route({ method: "GET", path: "/user/statistics", auth: true, tags: ["user"], response: StatisticsReply }),
  exchangeRate: route({
    method: "GET",
    path: "/user/exchange-rate",
    auth: true,
    tags: ["user"],
    response: ExchangeRateReply,
  }),
  exchange: route({
    method: "POST",
    path: "/user/exchange",
    auth: true,
    tags: ["user"],
    idempotent: true,
    body: ExchangeBody,
    response: ExchangeReply,
  }),
  /** The caller's operations, newest first (the path without the slash answers the same). */
  operations: route({
    method: "GET",
    path: "/user/operations/",
    auth: true,
    tags: ["user"],
    query: OperationsQuery,
    response: OperationsReply,
  }),
  /**
   * Added: the caller's operations of a period (UTC days, both included, at most a year) as a CSV file
   * (`text/csv; charset=utf-8`, an attachment), oldest first (contract/home.ts).
   */
  statement: route({
    method: "GET",
    path: "/user/operations/statement",
    auth: true,
    tags: ["user", "service"],
    query: StatementQuery,
    response: StatementReply,
  }),
  /** Added: a link that opens the same statement file for 5 minutes without the session header. */
  statementLink: route({
    method: "POST",
    path: "/user/operations/statement/link",
    auth: true,
    tags: ["user", "service"],
    body: StatementQuery,
    response: StatementLinkReply,
  }),
  /** Added: the statement file of a link (no session header: the signed link is the permission). */
  statementFile: route({
    method: "GET",
    path: "/user/operations/statement/file",
    auth: false,
    tags: ["user", "service"],
    query: StatementFileQuery,
    response: StatementReply,
  }),
  /** Added: everything the caller holds in USDT at the operator's rates, each currency's line beneath. */
  overview: route({
    method: "GET",
    path: "/user/overview",
    auth: true,
    tags: ["user", "service"],
    response: OverviewReply,
  }),
  /** Added: accruals and partner income by day, in USDT, for the cabinet's chart. */
  income: route({
    method: "GET",
    path: "/user/income",
    auth: true,
    tags: ["user", "service"],
    query: IncomeQuery,
    response: IncomeReply,
  }),
  /** The caller's operations on deposits opened through a crypto case. */
  caseOperations: route({
    method: "GET",
    path: "/user/case-operations",
    auth: true,
    tags: ["user"],
    query: CaseOperationsQuery,
    response: OperationsReply,
  }),
  cryptoCases: route({
    method: "GET",
    path: "/crypto-cases/all",
    auth: false,
    tags: ["funds"],
    response: CryptoCasesReply,
  }),
} as const;
