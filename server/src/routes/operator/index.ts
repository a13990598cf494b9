/**
 * Operator commands over HTTP, for the CLI when the embedded database is held by the running
 * server (PGlite is single-process), and for operators of a remote server. Every call needs
 * `Authorization: Bearer <operator token>`; a missing or wrong token gets 404, as if the operator
 * API did not exist.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import {
  IdParams,
  LocalizedText,
  NewsItem,
  NonNegativeDecimal,
  Refill,
  RefillStatus,
  TechnicalWorkReply,
  TxHashField,
  VerificationState,
  VerificationStatus,
  Withdrawal,
} from "@contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { WITHDRAWAL_ROW_STATUSES } from "../../db/schema";
import { AppError, sendError } from "../../errors";
import { runAccruals } from "../../services/accruals";
import { devClockState, shiftDevClock } from "../../services/dev-clock";
import { auditLedger } from "../../services/ledger";
import { addNews } from "../../services/news";
import { confirmRefill, listRefillsForOperator, rejectRefill } from "../../services/refills";
import { getSetting, SETTING_KEYS, setMaintenance, setSetting } from "../../services/settings";
import { decideVerification, listVerifications } from "../../services/verification";
import { listWithdrawalsForOperator, processWithdrawal } from "../../services/withdrawals";
import { withErrors } from "../responses";

const digest = (value: string) => createHash("sha256").update(value).digest();

/** Compares in constant time (digests have equal lengths whatever the input). */
export function tokenMatches(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  return timingSafeEqual(digest(given), digest(expected));
}

export const MaintenanceRequest = z.object({
  enabled: z.boolean(),
  until: z.iso.datetime({ offset: true }).nullable().optional(),
  message: LocalizedText.partial().nullable().optional(),
});
export type MaintenanceRequest = z.infer<typeof MaintenanceRequest>;

export const OperatorRefill = Refill.extend({ login: z.string(), note: z.string().nullable() });
export const RefillListQuery = z.object({
  status: RefillStatus.optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});
export const RefillConfirmRequest = z.object({
  /** What arrived; the amount requested when absent. */
  amount: NonNegativeDecimal.optional(),
});
export const RefillRejectRequest = z.object({ note: z.string().max(500).optional() });
export const AccrualRunReply = z.object({
  now: z.string(),
  deposits: z.number().int(),
  days: z.number().int(),
  completed: z.number().int(),
  reinvested: z.number().int(),
  failed: z.array(z.object({ depositId: z.string(), error: z.string() })),
});
export const ClockChangeRequest = z.object({
  advanceDays: z.number().positive().max(3650).optional(),
  reset: z.boolean().optional(),
});
export type ClockChangeRequest = z.infer<typeof ClockChangeRequest>;
export const ClockStateReply = z.object({ now: z.string(), offsetSeconds: z.number().int() });
export const ClockShiftReply = ClockStateReply.extend({ accruals: AccrualRunReply });
export const LedgerAuditReply = z.object({
  ok: z.boolean(),
  discrepancies: z.array(
    z.object({ userId: z.string(), currency: z.string(), balance: z.string(), operationsSum: z.string() }),
  ),
});

export const OperatorWithdrawal = Withdrawal.extend({
  login: z.string(),
  /** The internal status: the spec's five plus awaiting_code and cancelled. */
  state: z.enum(WITHDRAWAL_ROW_STATUSES),
  note: z.string().nullable(),
});
export const WithdrawalListQuery = z.object({
  status: z.enum(WITHDRAWAL_ROW_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});
export const WithdrawalActionParams = IdParams.extend({ action: z.enum(["inspect", "success", "reject", "error"]) });
export const WithdrawalActionRequest = z.object({
  txHash: TxHashField.optional(),
  note: z.string().max(500).optional(),
});

export const OperatorVerificationSchema = VerificationState.extend({
  id: z.string(),
  userId: z.string(),
  login: z.string(),
  photos: z.object({ documentPhoto: z.string(), loginPhoto: z.string(), walletPhoto: z.string() }),
});
export const VerificationListQuery = z.object({
  status: VerificationStatus.optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});
export const VerificationDecisionParams = z.object({
  user: z.string().min(1).max(64),
  decision: z.enum(["approve", "deny"]),
});
export const VerificationDecisionRequest = z.object({ note: z.string().max(500).optional() });
export const NewsAddRequest = z.object({ title: LocalizedText.partial(), body: LocalizedText.partial() });

const SettingKeyParam = z.object({ key: z.enum(SETTING_KEYS as [string, ...string[]]) });
const SettingValueReply = z.object({ key: z.string(), value: z.unknown() });

export const operatorRoutes: FastifyPluginAsyncZod<{ token: string }> = async (app, options) => {
  app.addHook("onRequest", async (request, reply) => {
    const header = request.headers.authorization;
    const given = header?.startsWith("Bearer ") ? header.slice("Bearer ".length).trim() : undefined;
    if (!tokenMatches(given, options.token)) return sendError(reply, "NOT_FOUND");
  });

  const security = [{ operator: [] }];

  app.post(
    "/operator/maintenance",
    {
      schema: {
        tags: ["operator"],
        summary: "Switch the maintenance notice on or off",
        security,
        body: MaintenanceRequest,
        response: withErrors({ 200: TechnicalWorkReply }),
      },
    },
    async (request) => setMaintenance(app.db, app.clock, request.body),
  );

  app.get(
    "/operator/settings/:key",
    {
      schema: {
        tags: ["operator"],
        summary: "Read any setting",
        security,
        params: SettingKeyParam,
        response: withErrors({ 200: SettingValueReply }),
      },
    },
    async (request) => {
      const key = request.params.key as (typeof SETTING_KEYS)[number];
      return { key, value: await getSetting(app.db, key) };
    },
  );

  app.put(
    "/operator/settings/:key",
    {
      schema: {
        tags: ["operator"],
        summary: "Write any setting (checked against the setting's schema)",
        security,
        params: SettingKeyParam,
        body: z.object({ value: z.unknown() }),
        response: withErrors({ 200: SettingValueReply }),
      },
    },
    async (request) => {
      const key = request.params.key as (typeof SETTING_KEYS)[number];
      return { key, value: await setSetting(app.db, app.clock, key, request.body.value) };
    },
  );

  app.get(
    "/operator/refills",
    {
      schema: {
        tags: ["operator"],
        summary: "Refills of every user, newest first (optionally one status)",
        security,
        querystring: RefillListQuery,
        response: withErrors({ 200: z.array(OperatorRefill) }),
      },
    },
    async (request) => listRefillsForOperator(app.db, request.query),
  );

  app.post(
    "/operator/refills/:id/confirm",
    {
      schema: {
        tags: ["operator"],
        summary: "Confirm a waiting refill: replenished, the balance credited (with the amount that arrived)",
        security,
        params: IdParams,
        body: RefillConfirmRequest,
        response: withErrors({ 200: Refill }),
      },
    },
    async (request) => confirmRefill(app, request.params.id, request.body.amount),
  );

  app.post(
    "/operator/refills/:id/reject",
    {
      schema: {
        tags: ["operator"],
        summary: "Reject a waiting refill",
        security,
        params: IdParams,
        body: RefillRejectRequest,
        response: withErrors({ 200: Refill }),
      },
    },
    async (request) => rejectRefill(app, request.params.id, request.body.note),
  );

  app.get(
    "/operator/withdrawals",
    {
      schema: {
        tags: ["operator"],
        summary: "Withdrawals of every user, newest first (optionally one internal status)",
        security,
        querystring: WithdrawalListQuery,
        response: withErrors({ 200: z.array(OperatorWithdrawal) }),
      },
    },
    async (request) => listWithdrawalsForOperator(app.db, request.query),
  );

  app.post(
    "/operator/withdrawals/:id/:action",
    {
      schema: {
        tags: ["operator"],
        summary:
          "Move a withdrawal: inspect (on_inspection), success (needs txHash), reject or error (amount returned)",
        security,
        params: WithdrawalActionParams,
        body: WithdrawalActionRequest,
        response: withErrors({ 200: OperatorWithdrawal }),
      },
    },
    async (request) => processWithdrawal(app, request.params.id, request.params.action, request.body),
  );

  app.post(
    "/operator/accruals/run",
    {
      schema: {
        tags: ["operator"],
        summary: "Run the accruals now (they also run every ACCRUAL_INTERVAL_SECONDS)",
        security,
        response: withErrors({ 200: AccrualRunReply }),
      },
    },
    async () => runAccruals(app.db, app.clock),
  );

  app.get(
    "/operator/ledger/audit",
    {
      schema: {
        tags: ["operator"],
        summary: "Check that every balance equals the sum of its operations and none is negative",
        security,
        response: withErrors({ 200: LedgerAuditReply }),
      },
    },
    async () => {
      const discrepancies = await auditLedger(app.db);
      return { ok: discrepancies.length === 0, discrepancies };
    },
  );

  app.get(
    "/operator/clock",
    {
      schema: {
        tags: ["operator"],
        summary: "The server's time and the development offset",
        security,
        response: withErrors({ 200: ClockStateReply }),
      },
    },
    async () => (app.devClock ? devClockState(app.devClock) : { now: app.clock.now().toISOString(), offsetSeconds: 0 }),
  );

  app.post(
    "/operator/clock",
    {
      schema: {
        tags: ["operator"],
        summary: "Development only: move the server's clock forward (or back to real time) and run the accruals",
        description: "Absent in production (404 NOT_FOUND).",
        security,
        body: ClockChangeRequest,
        response: withErrors({ 200: ClockShiftReply }),
      },
    },
    async (request) => {
      if (!app.devClock) throw new AppError("NOT_FOUND", { params: { feature: "devClock" } });
      const { advanceDays, reset } = request.body;
      if (!reset && advanceDays === undefined) {
        throw new AppError("VALIDATION_FAILED", { fields: { advanceDays: "required" } });
      }
      return shiftDevClock(app.db, app.devClock, {
        reset,
        advanceSeconds: advanceDays === undefined ? undefined : advanceDays * 86_400,
      });
    },
  );

  app.get(
    "/operator/verifications",
    {
      schema: {
        tags: ["operator"],
        summary: "Verification requests, newest first",
        security,
        querystring: VerificationListQuery,
        response: withErrors({ 200: z.array(OperatorVerificationSchema) }),
      },
    },
    async (request) => listVerifications(app.db, request.query),
  );

  app.post(
    "/operator/verifications/:user/:decision",
    {
      schema: {
        tags: ["operator"],
        summary: "Approve (success) or deny the user's request in process; the user is notified",
        description: "`user` is the user id or login. No request in process: 400 UPDATE_FAILED.",
        security,
        params: VerificationDecisionParams,
        body: VerificationDecisionRequest,
        response: withErrors({ 200: OperatorVerificationSchema }),
      },
    },
    async (request) =>
      decideVerification(
        app,
        request.params.user,
        request.params.decision === "approve" ? "success" : "denied",
        request.body.note,
      ),
  );

  app.post(
    "/operator/news",
    {
      schema: {
        tags: ["operator"],
        summary: "Publish a news item (languages not given are English, or the first given)",
        security,
        body: NewsAddRequest,
        response: withErrors({ 200: NewsItem }),
      },
    },
    async (request) => addNews(app.db, app.clock, request.body),
  );
};
