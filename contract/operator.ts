/**
 * The operator API (`/api/operator/*`): the route table the server registers and the CLI's typed
 * client calls, with their schemas. Every call needs `Authorization: Bearer <operator token>`
 * (`auth: "operator"`); a missing or wrong token is 404, as if the API did not exist. Not
 * re-exported from the contract's index: the app never calls it, so it stays out of its bundle.
 */
import { z } from "zod";
import { NewsItem } from "./content";
import { RefillStatus, VerificationStatus } from "./enums";
import { IdParams, Refill, TxHashField } from "./funds";
import { ExplorerTemplate } from "./home";
import { NonNegativeDecimal } from "./money";
import { type RouteDef, routes } from "./routes";
import { LocalizedText, PaymentSystem, TechnicalWorkReply } from "./settings";
import { VerificationState } from "./verification";
import { Withdrawal } from "./withdrawals";

/** A withdrawal's internal statuses: the five the user sees plus `awaiting_code` (before the code) and `cancelled`. */
export const WITHDRAWAL_ROW_STATUSES = [
  "awaiting_code",
  "pending",
  "on_inspection",
  "success",
  "rejected",
  "error",
  "cancelled",
] as const;
export type WithdrawalRowStatus = (typeof WITHDRAWAL_ROW_STATUSES)[number];

export const MaintenanceRequest = z.object({
  enabled: z.boolean(),
  until: z.iso.datetime({ offset: true }).nullable().optional(),
  message: LocalizedText.partial().nullable().optional(),
});
export type MaintenanceRequest = z.infer<typeof MaintenanceRequest>;

/** Any setting by its key (the server checks the key and the value against the setting's schema). */
const SettingKeyParams = z.object({ key: z.string().min(1).max(64) });
const SettingValueReply = z.object({ key: z.string(), value: z.unknown() });

const OperatorRefill = Refill.extend({ login: z.string(), note: z.string().nullable() });
const Limit = z.coerce.number().int().min(1).max(1000).default(100);
const RefillListQuery = z.object({ status: RefillStatus.optional(), limit: Limit });
const RefillConfirmRequest = z.object({
  /** What arrived; the amount requested when absent. */
  amount: NonNegativeDecimal.optional(),
});
const RefillRejectRequest = z.object({ note: z.string().max(500).optional() });

const AccrualRunReply = z.object({
  now: z.string(),
  deposits: z.number().int(),
  days: z.number().int(),
  completed: z.number().int(),
  reinvested: z.number().int(),
  failed: z.array(z.object({ depositId: z.string(), error: z.string() })),
});
/** The last recorded run of each background job (`kassa jobs list`), by whichever instance ran it. */
export const JobRun = z.object({
  name: z.string(),
  instance: z.string(),
  startedAt: z.string(),
  ms: z.number().int().nullable(),
  error: z.string().nullable(),
  runs: z.number().int(),
  failures: z.number().int(),
});
export type JobRun = z.infer<typeof JobRun>;

export const ClockChangeRequest = z.object({
  advanceDays: z.number().positive().max(3650).optional(),
  reset: z.boolean().optional(),
});
export type ClockChangeRequest = z.infer<typeof ClockChangeRequest>;
const ClockStateReply = z.object({ now: z.string(), offsetSeconds: z.number().int() });
/** `kassa account unlock <login>`: whose locks were lifted. */
export const UnlockAccountReply = z.object({ userId: z.string(), login: z.string() });
export type UnlockAccountReply = z.infer<typeof UnlockAccountReply>;

const ClockShiftReply = ClockStateReply.extend({ accruals: AccrualRunReply });
const LedgerDiscrepancy = z.object({
  userId: z.string(),
  currency: z.string(),
  balance: z.string(),
  operationsSum: z.string(),
});
const LedgerAuditReply = z.object({ ok: z.boolean(), discrepancies: z.array(LedgerDiscrepancy) });

const OperatorWithdrawal = Withdrawal.extend({
  login: z.string(),
  /** The internal status: the five the user sees plus awaiting_code and cancelled. */
  state: z.enum(WITHDRAWAL_ROW_STATUSES),
  note: z.string().nullable(),
});
const WithdrawalListQuery = z.object({ status: z.enum(WITHDRAWAL_ROW_STATUSES).optional(), limit: Limit });
const WithdrawalAction = z.enum(["inspect", "success", "reject", "error"]);
const WithdrawalActionParams = IdParams.extend({ action: WithdrawalAction });
const WithdrawalActionRequest = z.object({
  txHash: TxHashField.optional(),
  note: z.string().max(500).optional(),
});

const OperatorVerification = VerificationState.extend({
  id: z.string(),
  userId: z.string(),
  login: z.string(),
  photos: z.object({ documentPhoto: z.string(), loginPhoto: z.string(), walletPhoto: z.string() }),
});
const VerificationListQuery = z.object({ status: VerificationStatus.optional(), limit: Limit });
const VerificationDecisionParams = z.object({
  user: z.string().min(1).max(64),
  decision: z.enum(["approve", "deny"]),
});
const VerificationDecisionRequest = z.object({ note: z.string().max(500).optional() });
/** A news title's longest (per language): a headline, which the chat shows whole above the excerpt. */
export const NEWS_TITLE_MAX_CHARS = 200;
/** A news body's longest (per language, HTML); the chat shows an excerpt, the app the whole. */
export const NEWS_BODY_MAX_CHARS = 20_000;
const localized = (max: number) =>
  z.object({
    en: z.string().max(max, { error: "textTooLong" }),
    ru: z.string().max(max, { error: "textTooLong" }),
    de: z.string().max(max, { error: "textTooLong" }),
    kk: z.string().max(max, { error: "textTooLong" }),
  });
const NewsAddRequest = z.object({
  title: localized(NEWS_TITLE_MAX_CHARS).partial(),
  body: localized(NEWS_BODY_MAX_CHARS).partial(),
});

function route<const R extends RouteDef>(def: R): R {
  return def;
}
const auth = "operator";
const tags = ["operator"];

/** A chat message waiting in the bot's outbox (`kassa outbox list`). */
const ChatOutboxItem = z.object({
  id: z.string(),
  login: z.string(),
  kind: z.string(),
  createdAt: z.string(),
  attempts: z.number().int(),
  nextAttemptAt: z.string(),
  lastError: z.string().nullable(),
  /** When the outbox gave it up (72 h of failures, a refusal for good, a blocked bot); null while it waits. */
  givenUpAt: z.string().nullable(),
});
/** `waiting` (the default): the messages the outbox still tries; `given_up`: those it gave up, newest first. */
const ChatOutboxQuery = z.object({
  status: z.enum(["waiting", "given_up"]).default("waiting"),
  limit: Limit,
});
export const ChatOutboxReply = z.object({
  waiting: z.number().int(),
  oldestWaitingSeconds: z.number().int().nullable(),
  /** Oldest first. */
  items: z.array(ChatOutboxItem),
});
export type ChatOutboxReply = z.infer<typeof ChatOutboxReply>;
/** Without `id`: every waiting message. */
const ChatOutboxRetryRequest = z.object({ id: z.uuid().optional() });
const ChatOutboxRetryReply = z.object({ retried: z.number().int() });
/** A given-up message, queued again. */
const ChatOutboxResendRequest = z.object({ id: z.uuid() });
const ChatOutboxResendReply = z.object({ resent: z.number().int() });
/** `PUT /operator/payment-systems/:id/explorer`: the block explorer of one payment system; null removes it. */
const ExplorerParams = z.object({ id: z.string().min(1).max(64) });
const ExplorerRequest = z.object({ template: ExplorerTemplate.nullable() });
export const operatorRoutes = {
  maintenance: route({
    method: "POST",
    path: "/operator/maintenance",
    auth,
    tags,
    body: MaintenanceRequest,
    response: TechnicalWorkReply,
  }),
  getSetting: route({
    method: "GET",
    path: "/operator/settings/:key",
    auth,
    tags,
    params: SettingKeyParams,
    response: SettingValueReply,
  }),
  setSetting: route({
    method: "PUT",
    path: "/operator/settings/:key",
    auth,
    tags,
    params: SettingKeyParams,
    body: z.object({ value: z.unknown() }),
    response: SettingValueReply,
  }),
  refills: route({
    method: "GET",
    path: "/operator/refills",
    auth,
    tags,
    query: RefillListQuery,
    response: z.array(OperatorRefill),
  }),
  confirmRefill: route({
    method: "POST",
    path: "/operator/refills/:id/confirm",
    auth,
    tags,
    params: IdParams,
    body: RefillConfirmRequest,
    response: Refill,
  }),
  rejectRefill: route({
    method: "POST",
    path: "/operator/refills/:id/reject",
    auth,
    tags,
    params: IdParams,
    body: RefillRejectRequest,
    response: Refill,
  }),
  withdrawals: route({
    method: "GET",
    path: "/operator/withdrawals",
    auth,
    tags,
    query: WithdrawalListQuery,
    response: z.array(OperatorWithdrawal),
  }),
  processWithdrawal: route({
    method: "POST",
    path: "/operator/withdrawals/:id/:action",
    auth,
    tags,
    params: WithdrawalActionParams,
    body: WithdrawalActionRequest,
    response: OperatorWithdrawal,
  }),
  runAccruals: route({ method: "POST", path: "/operator/accruals/run", auth, tags, response: AccrualRunReply }),
  jobs: route({ method: "GET", path: "/operator/jobs", auth, tags, response: z.array(JobRun) }),
  unlockAccount: route({
    method: "POST",
    path: "/operator/accounts/:login/unlock",
    auth,
    tags,
    params: z.object({ login: z.string().min(1).max(254) }),
    response: UnlockAccountReply,
  }),
  auditLedger: route({ method: "GET", path: "/operator/ledger/audit", auth, tags, response: LedgerAuditReply }),
  clock: route({ method: "GET", path: "/operator/clock", auth, tags, response: ClockStateReply }),
  shiftClock: route({
    method: "POST",
    path: "/operator/clock",
    auth,
    tags,
    body: ClockChangeRequest,
    response: ClockShiftReply,
  }),
  verifications: route({
    method: "GET",
    path: "/operator/verifications",
    auth,
    tags,
    query: VerificationListQuery,
    response: z.array(OperatorVerification),
  }),
  decideVerification: route({
    method: "POST",
    path: "/operator/verifications/:user/:decision",
    auth,
    tags,
    params: VerificationDecisionParams,
    body: VerificationDecisionRequest,
    response: OperatorVerification,
  }),
  addNews: route({ method: "POST", path: "/operator/news", auth, tags, body: NewsAddRequest, response: NewsItem }),
  chatOutbox: route({
    method: "GET",
    path: "/operator/chat-outbox",
    auth,
    tags,
    query: ChatOutboxQuery,
    response: ChatOutboxReply,
  }),
  retryChatOutbox: route({
    method: "POST",
    path: "/operator/chat-outbox/retry",
    auth,
    tags,
    body: ChatOutboxRetryRequest,
    response: ChatOutboxRetryReply,
  }),
  /** Queues a given-up message again, as if new (its 72 h start again); `resent` 0: no such given-up message. */
  resendChatOutbox: route({
    method: "POST",
    path: "/operator/chat-outbox/resend",
    auth,
    tags,
    body: ChatOutboxResendRequest,
    response: ChatOutboxResendReply,
  }),
  /** The block explorer of one payment system (the `explorers` setting); an unknown system is 404. */
  setExplorer: route({
    method: "PUT",
    path: "/operator/payment-systems/:id/explorer",
    auth,
    tags,
    params: ExplorerParams,
    body: ExplorerRequest,
    response: PaymentSystem,
  }),
  /** The public news list, which the CLI reads through the same client. */
  news: routes.news,
} as const;
