// The route table's calls for refills and deposits (`contract/routes.ts` joins the areas).
import {
  Deposit,
  DepositCloseBody,
  DepositCloseReply,
  DepositCreateBody,
  DepositsQuery,
  DepositsReply,
  IdParams,
  Refill,
  RefillCreateBody,
  RefillsQuery,
  RefillsReply,
  RefillUpdateBody,
} from "../funds";
import { route } from "./route";

export const fundsRoutes = {
  // Funds (docs/decisions.md#d6-funds)
  refills: route({
    method: "GET",
    path: "/funds/refills",
    auth: true,
    tags: ["funds"],
    query: RefillsQuery,
    response: RefillsReply,
  }),
  createRefill: route({
    method: "POST",
    path: "/funds/refills",
    auth: true,
    tags: ["funds"],
    idempotent: true,
    body: RefillCreateBody,
    response: Refill,
  }),
  /** One of the caller's refills; another user's (or an unknown id) is 404. */
  refill: route({
    method: "GET",
    path: "/funds/refills/:id",
    auth: true,
    tags: ["funds"],
    params: IdParams,
    response: Refill,
  }),
  /** Added beside the cabinet's calls: attach the transaction hash while the refill waits. */
  updateRefill: route({
    method: "PATCH",
    path: "/funds/refills/:id",
    auth: true,
    tags: ["funds", "service"],
    params: IdParams,
    body: RefillUpdateBody,
    response: Refill,
  }),
  deposits: route({
    method: "GET",
    path: "/funds/deposits",
    auth: true,
    tags: ["funds"],
    query: DepositsQuery,
    response: DepositsReply,
  }),
  createDeposit: route({
    method: "POST",
    path: "/funds/deposits",
    auth: true,
    tags: ["funds"],
    idempotent: true,
    body: DepositCreateBody,
    response: Deposit,
  }),
  /** Closes the caller's own active deposit early: principal back, held accruals forfeited. */
  closeDeposit: route({
    method: "POST",
    path: "/funds/deposits/client/close/:id",
    auth: true,
    tags: ["funds"],
    idempotent: true,
    params: IdParams,
    body: DepositCloseBody,
    response: DepositCloseReply,
  }),
} as const;
