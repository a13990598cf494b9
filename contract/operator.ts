/**
 * The operator API (`/api/operator/*`): the route table the server registers and the CLI's typed
 * client calls, with their schemas. Every call needs `Authorization: Bearer <operator token>`
 * (`auth: "operator"`); a missing or wrong token is 404, as if the API did not exist. Not
 * re-exported from the contract's index: the app never calls it, so it stays out of its bundle.
 */
import * as z from "zod/mini";
import { NewsItem } from "./content";
import { deferred } from "./deferred";
import { Currency, RefillStatus, RiskLevel, VerificationStatus } from "./enums";
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

export const MaintenanceRequest = deferred(() =>
  z.object({
    enabled: z.boolean(),
    until: z.optional(z.nullable(z.iso.datetime({ offset: true }))),
    message: z.optional(z.nullable(z.partial(LocalizedText))),
  }),
);
export type MaintenanceRequest = z.infer<typeof MaintenanceRequest>;

/** Any setting by its key (the server checks the key and the value against the setting's schema). */
const SettingKeyParams = deferred(() => z.object({ key: z.string().check(z.minLength(1), z.maxLength(64)) }));
const SettingValueReply = deferred(() => z.object({ key: z.string(), value: z.unknown() }));

const OperatorRefill = deferred(() => z.extend(Refill, { login: z.string(), note: z.nullable(z.string()) }));
const Limit = deferred(() => z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(1000)), 100));
const RefillListQuery = deferred(() => z.object({ status: z.optional(RefillStatus), limit: Limit }));
const RefillConfirmRequest = deferred(() =>
  z.object({
    /** What arrived; the amount requested when absent. */
    amount: z.optional(NonNegativeDecimal),
  }),
);
const RefillRejectRequest = deferred(() => z.object({ note: z.optional(z.string().check(z.maxLength(500))) }));

const AccrualRunReply = deferred(() =>
  z.object({
    now: z.string(),
    deposits: z.int(),
    days: z.int(),
    completed: z.int(),
    reinvested: z.int(),
    failed: z.array(z.object({ depositId: z.string(), error: z.string() })),
  }),
);
/** The last recorded run of each background job (`kassa jobs list`), by whichever instance ran it. */
export const JobRun = deferred(() =>
  z.object({
    name: z.string(),
    instance: z.string(),
    startedAt: z.string(),
    ms: z.nullable(z.int()),
    error: z.nullable(z.string()),
    runs: z.int(),
    failures: z.int(),
  }),
);
export type JobRun = z.infer<typeof JobRun>;

export const ClockChangeRequest = deferred(() =>
  z.object({
    advanceDays: z.optional(z.number().check(z.positive(), z.lte(3650))),
    reset: z.optional(z.boolean()),
  }),
);
export type ClockChangeRequest = z.infer<typeof ClockChangeRequest>;
const ClockStateReply = deferred(() => z.object({ now: z.string(), offsetSeconds: z.int() }));
/** `kassa account unlock <login>`: whose locks were lifted. */
export const UnlockAccountReply = deferred(() => z.object({ userId: z.string(), login: z.string() }));
export type UnlockAccountReply = z.infer<typeof UnlockAccountReply>;

const ClockShiftReply = deferred(() => z.extend(ClockStateReply, { accruals: AccrualRunReply }));
const LedgerDiscrepancy = deferred(() =>
  z.object({
    userId: z.string(),
    currency: z.string(),
    balance: z.string(),
    operationsSum: z.string(),
  }),
);
const LedgerAuditReply = deferred(() => z.object({ ok: z.boolean(), discrepancies: z.array(LedgerDiscrepancy) }));

const OperatorWithdrawal = deferred(() =>
  z.extend(Withdrawal, {
    login: z.string(),
    /** The internal status: the five the user sees plus awaiting_code and cancelled. */
    state: z.enum(WITHDRAWAL_ROW_STATUSES),
    note: z.nullable(z.string()),
  }),
);
const WithdrawalListQuery = deferred(() =>
  z.object({ status: z.optional(z.enum(WITHDRAWAL_ROW_STATUSES)), limit: Limit }),
);
const WithdrawalAction = deferred(() => z.enum(["inspect", "success", "reject", "error"]));
const WithdrawalActionParams = deferred(() => z.extend(IdParams, { action: WithdrawalAction }));
const WithdrawalActionRequest = deferred(() =>
  z.object({
    txHash: z.optional(TxHashField),
    note: z.optional(z.string().check(z.maxLength(500))),
  }),
);

const OperatorVerification = deferred(() =>
  z.extend(VerificationState, {
    id: z.string(),
    userId: z.string(),
    login: z.string(),
    photos: z.object({ documentPhoto: z.string(), loginPhoto: z.string(), walletPhoto: z.string() }),
  }),
);
const VerificationListQuery = deferred(() => z.object({ status: z.optional(VerificationStatus), limit: Limit }));
const VerificationDecisionParams = deferred(() =>
  z.object({
    user: z.string().check(z.minLength(1), z.maxLength(64)),
    decision: z.enum(["approve", "deny"]),
  }),
);
const VerificationDecisionRequest = deferred(() => z.object({ note: z.optional(z.string().check(z.maxLength(500))) }));
/** A catalogue entry's id: what deposits, refills and payments refer to, so it never changes once used. */
const CatalogId = deferred(() => z.string().check(z.regex(/^[a-z0-9][a-z0-9_-]{0,39}$/)));
const CatalogText = deferred(() =>
  z.object({
    en: z.string().check(z.minLength(1), z.maxLength(200)),
    ru: z.string().check(z.minLength(1), z.maxLength(200)),
    de: z.string().check(z.minLength(1), z.maxLength(200)),
    kk: z.string().check(z.minLength(1), z.maxLength(200)),
  }),
);
const Sort = deferred(() => z._default(z.int().check(z.gte(0), z.lte(1_000_000)), 0));
/**
 * The catalogue as an operator writes it (`kassa catalog apply <file>`; `kassa catalog show` prints it in
 * this shape): the plans, payment systems, subscription options and crypto cases the cabinet offers. Every
 * section may be left out (it is then not touched); an entry is matched by its id.
 */
export const Catalog = deferred(() =>
  z.object({
    plans: z.optional(
      z.array(
        z.object({
          id: CatalogId,
          name: CatalogText,
          currency: Currency,
          /** Daily yield in percent of the principal. */
          dailyYieldPercent: NonNegativeDecimal,
          durationDays: z.int().check(z.gte(1), z.lte(3650)),
          minAmount: NonNegativeDecimal,
          maxAmount: NonNegativeDecimal,
          /** Offered for new deposits; a plan is never deleted (deposits refer to it), only switched off. */
          active: z._default(z.boolean(), true),
          sort: Sort,
        }),
      ),
    ),
    paymentSystems: z.optional(
      z.array(
        z.object({
          id: CatalogId,
          name: z.string().check(z.minLength(1), z.maxLength(100)),
          currency: Currency,
          network: z.string().check(z.minLength(1), z.maxLength(50)),
          refillEnabled: z._default(z.boolean(), true),
          withdrawalEnabled: z._default(z.boolean(), true),
          minWithdrawal: NonNegativeDecimal,
          maxWithdrawal: NonNegativeDecimal,
          withdrawalFeePercent: z._default(NonNegativeDecimal, "0"),
          /** The deposit address a refill shows the investor; it must match `addressPattern`. */
          address: z.string().check(z.minLength(1), z.maxLength(200)),
          /** A regular expression every withdrawal wallet on this network must match. */
          addressPattern: z.string().check(z.minLength(1), z.maxLength(500)),
          sort: Sort,
        }),
      ),
    ),
    subscriptionOptions: z.optional(
      z.array(
        z.object({
          id: CatalogId,
          title: CatalogText,
          price: NonNegativeDecimal,
          currency: Currency,
          durationDays: z.int().check(z.gte(1), z.lte(3650)),
          sort: Sort,
        }),
      ),
    ),
    cryptoCases: z.optional(
      z.array(
        z.object({
          id: CatalogId,
          name: CatalogText,
          description: z.object({
            en: z.string().check(z.minLength(1), z.maxLength(500)),
            ru: z.string().check(z.minLength(1), z.maxLength(500)),
            de: z.string().check(z.minLength(1), z.maxLength(500)),
            kk: z.string().check(z.minLength(1), z.maxLength(500)),
          }),
          riskLevel: RiskLevel,
          /** Plan ids in display order: plans of the file or already in the catalogue. */
          planIds: z.array(CatalogId).check(z.minLength(1), z.maxLength(20)),
          active: z._default(z.boolean(), true),
          sort: Sort,
        }),
      ),
    ),
  }),
);
export type Catalog = z.output<typeof Catalog>;
export type CatalogInput = z.input<typeof Catalog>;
const CatalogSectionReport = deferred(() =>
  z.object({
    added: z.array(z.string()),
    changed: z.array(z.string()),
    unchanged: z.array(z.string()),
    /** In the catalogue but not in the file: left as they are (switch one off with `active: false`). */
    notInFile: z.array(z.string()),
  }),
);
/** What `kassa catalog apply` did, per section given. */
export const CatalogApplyReply = deferred(() =>
  z.object({
    plans: z.optional(CatalogSectionReport),
    paymentSystems: z.optional(CatalogSectionReport),
    subscriptionOptions: z.optional(CatalogSectionReport),
    cryptoCases: z.optional(CatalogSectionReport),
  }),
);
export type CatalogApplyReply = z.infer<typeof CatalogApplyReply>;

/** A news title's longest (per language): a headline, which the chat shows whole above the excerpt. */
export const NEWS_TITLE_MAX_CHARS = 200;
/** A news body's longest (per language, HTML); the chat shows an excerpt, the app the whole. */
export const NEWS_BODY_MAX_CHARS = 20_000;
const localized = (max: number) =>
  z.object({
    en: z.string().check(z.maxLength(max, { error: "textTooLong" })),
    ru: z.string().check(z.maxLength(max, { error: "textTooLong" })),
    de: z.string().check(z.maxLength(max, { error: "textTooLong" })),
    kk: z.string().check(z.maxLength(max, { error: "textTooLong" })),
  });
const NewsAddRequest = deferred(() =>
  z.object({
    title: z.partial(localized(NEWS_TITLE_MAX_CHARS)),
    body: z.partial(localized(NEWS_BODY_MAX_CHARS)),
  }),
);

function route<const R extends RouteDef>(def: R): R {
  return def;
}
const auth = "operator";
const tags = ["operator"];

/** A chat message waiting in the bot's outbox (`kassa outbox list`). */
const ChatOutboxItem = deferred(() =>
  z.object({
    id: z.string(),
    login: z.string(),
    kind: z.string(),
    createdAt: z.string(),
    attempts: z.int(),
    nextAttemptAt: z.string(),
    lastError: z.nullable(z.string()),
    /** When the outbox gave it up (72 h of failures, a refusal for good, a blocked bot); null while it waits. */
    givenUpAt: z.nullable(z.string()),
  }),
);
/** `waiting` (the default): the messages the outbox still tries; `given_up`: those it gave up, newest first. */
const ChatOutboxQuery = deferred(() =>
  z.object({
    status: z._default(z.enum(["waiting", "given_up"]), "waiting"),
    limit: Limit,
  }),
);
export const ChatOutboxReply = deferred(() =>
  z.object({
    waiting: z.int(),
    oldestWaitingSeconds: z.nullable(z.int()),
    /** Oldest first. */
    items: z.array(ChatOutboxItem),
  }),
);
export type ChatOutboxReply = z.infer<typeof ChatOutboxReply>;
/** Without `id`: every waiting message. */
const ChatOutboxRetryRequest = deferred(() => z.object({ id: z.optional(z.uuid()) }));
const ChatOutboxRetryReply = deferred(() => z.object({ retried: z.int() }));
/** A given-up message, queued again. */
const ChatOutboxResendRequest = deferred(() => z.object({ id: z.uuid() }));
const ChatOutboxResendReply = deferred(() => z.object({ resent: z.int() }));
/** `PUT /operator/payment-systems/:id/explorer`: the block explorer of one payment system; null removes it. */
const ExplorerParams = deferred(() => z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) }));
const ExplorerRequest = deferred(() => z.object({ template: z.nullable(ExplorerTemplate) }));
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
    params: z.object({ login: z.string().check(z.minLength(1), z.maxLength(254)) }),
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
  /** The whole catalogue, inactive entries and deposit addresses included, in the shape `applyCatalog` takes. */
  catalog: route({ method: "GET", path: "/operator/catalog", auth, tags, response: Catalog }),
  /** Adds and changes catalogue entries by id, in one transaction; sections left out are not touched. */
  applyCatalog: route({
    method: "PUT",
    path: "/operator/catalog",
    auth,
    tags,
    body: Catalog,
    response: CatalogApplyReply,
  }),
  /** The public news list, which the CLI reads through the same client. */
  news: routes.news,
} as const;
