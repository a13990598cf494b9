/**
 * Withdrawals (docs/decisions.md#d6-withdrawals; docs/cabinet-rules.md#statuses-and-flows). Request → the
 * amount is reserved and a code sent → the code validated → `pending` → the operator: `on_inspection`,
 * `success` (with the transaction hash), `rejected` or `error` (both give the amount back).
 */
import * as z from "zod/mini";
import { CodeSentReply } from "./auth";
import { AmountInput } from "./balance";
import { deferred } from "./deferred";
import { Currency, WithdrawalStatus } from "./enums";
import { NonNegativeDecimal } from "./money";
import { DateFilter, PageQuery, pageOf } from "./paging";
import { CodeField, text } from "./validation";

/** `POST /funds/payments/request` (and the older one-step `POST /funds/payments`). */
export const WithdrawalRequestBody = deferred(() =>
  z.object({
    paymentSystemId: text().check(z.trim(), z.minLength(1, { error: "required" }), z.maxLength(64)),
    amount: AmountInput,
  }),
);
export type WithdrawalRequestBody = z.infer<typeof WithdrawalRequestBody>;

export const Withdrawal = deferred(() =>
  z.object({
    id: z.string(),
    /**
     * The status the user sees. An application whose code is not yet validated reads `pending` with
     * `awaitingCode: true`; cancelled applications are not listed.
     */
    status: WithdrawalStatus,
    /** True until the code is validated: the app offers the code entry, resend and cancel. */
    awaitingCode: z.boolean(),
    paymentSystemId: z.string(),
    currency: Currency,
    network: z.string(),
    /** The address the coins go to (the user's wallet when the application was made). */
    wallet: z.string(),
    /** Taken from the balance. */
    amount: NonNegativeDecimal,
    /** roundDown(amount × feePercent / 100). */
    fee: NonNegativeDecimal,
    /** amount − fee: what the wallet receives. */
    amountToReceive: NonNegativeDecimal,
    txHash: z.nullable(z.string()),
    /** ISO 8601. */
    createdAt: z.string(),
    /** When the operator set the final status. */
    processedAt: z.nullable(z.string()),
    /** Added: the operator's note on the decision (why it was rejected or failed), when there is one. */
    note: z.optional(z.nullable(z.string())),
  }),
);
export type Withdrawal = z.infer<typeof Withdrawal>;

export const WithdrawalRequestReply = deferred(() => z.object({ withdrawal: Withdrawal, code: CodeSentReply }));
export type WithdrawalRequestReply = z.infer<typeof WithdrawalRequestReply>;

/** `POST /funds/payments/validate`. */
export const WithdrawalValidateBody = deferred(() =>
  z.object({
    withdrawalId: text().check(z.trim(), z.minLength(1, { error: "required" }), z.maxLength(64)),
    code: CodeField,
  }),
);
export type WithdrawalValidateBody = z.infer<typeof WithdrawalValidateBody>;

/** `GET /funds/payments`: newest first; `from`/`to` inclusive (a date without a time is the whole UTC day). */
export const WithdrawalsQuery = deferred(() =>
  z.extend(PageQuery, {
    currency: z.optional(Currency),
    status: z.optional(WithdrawalStatus),
    from: z.optional(DateFilter),
    to: z.optional(DateFilter),
  }),
);
export type WithdrawalsQuery = z.infer<typeof WithdrawalsQuery>;
export const WithdrawalsReply = deferred(() => pageOf(Withdrawal));
export type WithdrawalsReply = z.infer<typeof WithdrawalsReply>;
