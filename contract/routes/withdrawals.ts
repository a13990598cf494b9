// The route table's calls for withdrawal wallets and withdrawals (`contract/routes.ts` joins the areas).
import { CodeSentReply } from "../auth";
import { IdParams } from "../funds";
import { WalletsReply, WalletsUpdateBody, WalletsUpdateReply } from "../wallets";
import {
  Withdrawal,
  WithdrawalRequestBody,
  WithdrawalRequestReply,
  WithdrawalsQuery,
  WithdrawalsReply,
  WithdrawalValidateBody,
} from "../withdrawals";
import { route } from "./route";

export const withdrawalsRoutes = {
  // Wallets
  wallets: route({ method: "GET", path: "/user-data/wallets", auth: true, tags: ["user"], response: WalletsReply }),
  updateWallets: route({
    method: "PATCH",
    path: "/user-data/wallets/update",
    auth: true,
    tags: ["user"],
    body: WalletsUpdateBody,
    response: WalletsUpdateReply,
  }),

  // Withdrawals (docs/decisions.md#d6-withdrawals, #d5-codes)
  /** Creates the application, reserves the amount and sends a code. */
  requestWithdrawal: route({
    method: "POST",
    path: "/funds/payments/request",
    auth: true,
    tags: ["funds"],
    idempotent: true,
    body: WithdrawalRequestBody,
    response: WithdrawalRequestReply,
  }),
  /** The older one-step variant: the same as `requestWithdrawal`. */
  createWithdrawal: route({
    method: "POST",
    path: "/funds/payments",
    auth: true,
    tags: ["funds"],
    idempotent: true,
    body: WithdrawalRequestBody,
    response: WithdrawalRequestReply,
  }),
  validateWithdrawal: route({
    method: "POST",
    path: "/funds/payments/validate",
    auth: true,
    tags: ["funds"],
    idempotent: true,
    body: WithdrawalValidateBody,
    response: Withdrawal,
  }),
  withdrawals: route({
    method: "GET",
    path: "/funds/payments",
    auth: true,
    tags: ["funds"],
    query: WithdrawalsQuery,
    response: WithdrawalsReply,
  }),
  /**
   * Added: one of the caller's withdrawals, with its transaction hash and payment system (what a history row
   * opens); another user's, a cancelled one or an unknown id is 404.
   */
  withdrawal: route({
    method: "GET",
    path: "/funds/payments/:id",
    auth: true,
    tags: ["funds", "service"],
    params: IdParams,
    response: Withdrawal,
  }),
  /** Added: a new code for an application awaiting one, after the resend wait. */
  resendWithdrawalCode: route({
    method: "POST",
    path: "/funds/payments/:id/resend",
    auth: true,
    tags: ["funds", "service"],
    params: IdParams,
    response: CodeSentReply,
  }),
  /** Added: cancels an application still awaiting its code; the amount returns to the balance. */
  cancelWithdrawal: route({
    method: "POST",
    path: "/funds/payments/:id/cancel",
    auth: true,
    tags: ["funds", "service"],
    params: IdParams,
    response: Withdrawal,
  }),
} as const;
