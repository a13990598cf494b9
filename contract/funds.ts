/** Funds calls: refills, deposits; and crypto cases (docs/decisions.md#d6-funds). Amounts are decimal strings. */
import * as z from "zod/mini";
import { AmountInput } from "./balance";
import { deferred } from "./deferred";
import { Currency, DepositStatus, RefillStatus, RiskLevel } from "./enums";
import { Decimal, NonNegativeDecimal } from "./money";
import { PageQuery, pageOf } from "./paging";
import { LocalizedText } from "./settings";
import { text } from "./validation";

/** A blockchain transaction hash or id (hex, 0x-hex, base64/base64url), 8 to 200 characters. */
export const TxHashField = deferred(() =>
  z
    .string({ error: "required" })
    .check(
      z.trim(),
      z.minLength(1, { error: "required" }),
      z.regex(/^[A-Za-z0-9_:+/=-]{8,200}$/, { error: "required" }),
    ),
);

/** A path id; any string (an unknown or malformed id is 404, not a validation error). */
export const IdParams = deferred(() => z.object({ id: text().check(z.minLength(1), z.maxLength(64)) }));
export type IdParams = z.infer<typeof IdParams>;

// ---------------------------------------------------------------------------------------------
// Refills

/** `POST /funds/refills`: the payment system fixes currency, network and the address to pay to. */
export const RefillCreateBody = deferred(() =>
  z.object({
    paymentSystemId: text().check(z.trim(), z.minLength(1, { error: "required" }), z.maxLength(64)),
    amount: AmountInput,
    txHash: z.optional(TxHashField),
  }),
);
export type RefillCreateBody = z.infer<typeof RefillCreateBody>;

/** `PATCH /funds/refills/:id` (added): attach the transaction hash while the refill waits. */
export const RefillUpdateBody = deferred(() => z.object({ txHash: TxHashField }));
export type RefillUpdateBody = z.infer<typeof RefillUpdateBody>;

export const Refill = deferred(() =>
  z.object({
    id: z.string(),
    /** waiting → replenished (credited) or rejected, set by the operator. */
    status: RefillStatus,
    currency: Currency,
    paymentSystemId: z.string(),
    network: z.string(),
    /** Where the user sends the coins (the payment system's deposit address). */
    address: z.string(),
    amountRequested: NonNegativeDecimal,
    /** What reached the balance; null until replenished (may differ from the request). */
    amountCredited: z.nullable(NonNegativeDecimal),
    txHash: z.nullable(z.string()),
    /** ISO 8601. */
    createdAt: z.string(),
    /** When the operator confirmed or rejected it. */
    processedAt: z.nullable(z.string()),
  }),
);
export type Refill = z.infer<typeof Refill>;

export const RefillsQuery = deferred(() =>
  z.extend(PageQuery, { currency: z.optional(Currency), status: z.optional(RefillStatus) }),
);
export type RefillsQuery = z.infer<typeof RefillsQuery>;
export const RefillsReply = deferred(() => pageOf(Refill));
export type RefillsReply = z.infer<typeof RefillsReply>;

// ---------------------------------------------------------------------------------------------
// Deposits

/**
 * `POST /funds/deposits`. `currency` is the payment method: the balance that pays, which must be
 * the plan's currency. `caseId` opens the deposit through a crypto case that bundles the plan.
 */
export const DepositCreateBody = deferred(() =>
  z.object({
    planId: text().check(z.trim(), z.minLength(1, { error: "required" }), z.maxLength(64)),
    currency: Currency,
    amount: AmountInput,
    autoInvest: z._default(z.boolean(), false),
    caseId: z.nullish(text().check(z.trim(), z.minLength(1), z.maxLength(64))),
  }),
);
export type DepositCreateBody = z.infer<typeof DepositCreateBody>;

export const Deposit = deferred(() =>
  z.object({
    id: z.string(),
    planId: z.string(),
    planName: LocalizedText,
    /** The crypto case it was opened through, if any. */
    caseId: z.nullable(z.string()),
    currency: Currency,
    /** The principal. */
    amount: NonNegativeDecimal,
    dailyYieldPercent: Decimal,
    durationDays: z.int().check(z.positive()),
    dailyIncome: NonNegativeDecimal,
    /** amount + dailyIncome × durationDays. */
    totalAtEnd: NonNegativeDecimal,
    /** Accrued and held until the plan ends. */
    accruedHeld: NonNegativeDecimal,
    daysAccrued: z.int().check(z.nonnegative()),
    startedAt: z.string(),
    endsAt: z.string(),
    status: DepositStatus,
    autoInvest: z.boolean(),
    /** When it completed or was closed. */
    closedAt: z.nullable(z.string()),
    /** Principal given back to the balance (null while active, or when reinvested). */
    returned: z.nullable(NonNegativeDecimal),
    /** Held accruals given up by an early close (null otherwise). */
    forfeited: z.nullable(NonNegativeDecimal),
    /** Auto-investment: the deposit that principal and accruals went into at the end. */
    reinvestedInto: z.nullable(z.string()),
  }),
);
export type Deposit = z.infer<typeof Deposit>;

export const DepositsQuery = deferred(() => z.extend(PageQuery, { status: z.optional(DepositStatus) }));
export type DepositsQuery = z.infer<typeof DepositsQuery>;
export const DepositsReply = deferred(() => pageOf(Deposit));
export type DepositsReply = z.infer<typeof DepositsReply>;

/**
 * `POST /funds/deposits/client/close/:id` (body added, optional): the amounts the investor was shown and agreed
 * to. When given and the server's differ (a day accrued in between), the close is refused with
 * DEPOSIT_CLOSE_FAILED, `params.reason` `amounts_changed` and the amounts it would use now in
 * `params.returned` / `params.forfeited`; nothing is closed. No body: closed at the server's amounts.
 */
export const DepositCloseBody = deferred(() =>
  z.object({
    returned: z.optional(NonNegativeDecimal),
    forfeited: z.optional(NonNegativeDecimal),
  }),
);
export type DepositCloseBody = z.infer<typeof DepositCloseBody>;

/** `POST /funds/deposits/client/close/:id`: the closed deposit and what the close did. */
export const DepositCloseReply = deferred(() =>
  z.object({
    deposit: Deposit,
    /** Principal back on the balance. */
    returned: NonNegativeDecimal,
    /** Held accruals given up. */
    forfeited: NonNegativeDecimal,
  }),
);
export type DepositCloseReply = z.infer<typeof DepositCloseReply>;

// ---------------------------------------------------------------------------------------------
// Crypto cases

/**
 * A crypto case: a curated portfolio, a named bundle of plans with a risk level. A deposit may be
 * opened through a case (`caseId`) on one of its plans; `GET /user/case-operations` lists the
 * operations of such deposits.
 */
export const CryptoCase = deferred(() =>
  z.object({
    id: z.string(),
    name: LocalizedText,
    description: LocalizedText,
    riskLevel: RiskLevel,
    /** Plans of the case, in display order. */
    planIds: z.array(z.string()),
  }),
);
export type CryptoCase = z.infer<typeof CryptoCase>;
export const CryptoCasesReply = deferred(() => z.array(CryptoCase));
export type CryptoCasesReply = z.infer<typeof CryptoCasesReply>;
