/**
 * Operator commands over HTTP (`contract/operator.ts`), for the CLI when the embedded database is
 * held by the running server (PGlite is single-process), and for operators of a remote server.
 * Every call needs `Authorization: Bearer <operator token>` (`auth: "operator"` in the contract);
 * a missing or wrong token gets 404, as if the operator API did not exist.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { operatorRoutes as routes } from "@contract/operator";
import type { FastifyRequest } from "fastify";
import type { KassaApp } from "../../context";
import { AppError } from "../../errors";
import { listJobRuns } from "../../jobs";
import { bearerToken } from "../../plugins/auth";
import { runAccruals } from "../../services/accruals";
import { unlockAccount } from "../../services/auth";
import { applyCatalog, readCatalog, setExplorer } from "../../services/catalog";
import { devClockState, shiftDevClock } from "../../services/dev-clock";
import { auditLedger } from "../../services/ledger";
import { addNews } from "../../services/news";
import { confirmRefill, listRefillsForOperator, rejectRefill } from "../../services/refills";
import { isSettingKey, type SettingKey } from "../../services/setting-defs";
import { getSetting, setMaintenance, setSetting } from "../../services/settings";
import { decideVerification, listVerifications } from "../../services/verification";
import { listWithdrawalsForOperator, processWithdrawal } from "../../services/withdrawals";
import { listWaiting, resendGivenUp, retryWaiting } from "../../telegram/outbox-backlog";
import { defineRoute } from "../define";

const digest = (value: string) => createHash("sha256").update(value).digest();

/** Compares in constant time (digests have equal lengths whatever the input). */
function tokenMatches(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  return timingSafeEqual(digest(given), digest(expected));
}

/** A key the server knows, else 400 VALIDATION_FAILED on `key`. */
function settingKey(key: string): SettingKey {
  if (!isSettingKey(key)) throw new AppError("VALIDATION_FAILED", { fields: { key: "required" } });
  return key;
}

export async function operatorRoutes(app: KassaApp, options: { token: string }) {
  app.decorate("authenticateOperator", async (request: FastifyRequest) => {
    if (!tokenMatches(bearerToken(request), options.token)) throw new AppError("NOT_FOUND");
  });

  defineRoute(app, routes.maintenance, { summary: "Switch the maintenance notice on or off" }, ({ ctx, body }) =>
    setMaintenance(ctx.db, ctx.clock, body),
  );

  defineRoute(app, routes.getSetting, { summary: "Read any setting" }, async ({ ctx, params }) => {
    const key = settingKey(params.key);
    return { key, value: await getSetting(ctx.db, key) };
  });

  defineRoute(
    app,
    routes.setSetting,
    { summary: "Write any setting (checked against the setting's schema)" },
    async ({ ctx, params, body }) => {
      const key = settingKey(params.key);
      return { key, value: await setSetting(ctx.db, ctx.clock, key, body.value) };
    },
  );

  defineRoute(
    app,
    routes.setExplorer,
    {
      summary: "Set (or with null remove) one payment system's block explorer template",
      description:
        "An https URL with {tx} where the transaction hash goes; the app links refill and withdrawal hashes " +
        "there. An unknown payment system is 404.",
    },
    ({ ctx, params, body }) => setExplorer(ctx.db, ctx.clock, params.id, body.template),
  );

  defineRoute(
    app,
    routes.catalog,
    { summary: "The whole catalogue (plans, payment systems, subscription options, crypto cases)" },
    ({ ctx }) => readCatalog(ctx.db),
  );

  defineRoute(
    app,
    routes.applyCatalog,
    {
      summary: "Add and change catalogue entries by id, in one transaction",
      description:
        "Sections left out are not touched; entries missing from the body stay as they are (`notInFile`). " +
        "A broken rule (min above max, an address its own pattern refuses, a case naming an unknown plan) is " +
        "400 VALIDATION_FAILED naming the field, and nothing is written.",
    },
    ({ ctx, body }) => applyCatalog(ctx.db, body),
  );

  defineRoute(
    app,
    routes.refills,
    { summary: "Refills of every user, newest first (optionally one status)" },
    ({ ctx, query }) => listRefillsForOperator(ctx.db, query),
  );

  defineRoute(
    app,
    routes.confirmRefill,
    { summary: "Confirm a waiting refill: replenished, the balance credited (with the amount that arrived)" },
    ({ ctx, params, body }) => confirmRefill(ctx, params.id, body.amount),
  );

  defineRoute(app, routes.rejectRefill, { summary: "Reject a waiting refill" }, ({ ctx, params, body }) =>
    rejectRefill(ctx, params.id, body.note),
  );

  defineRoute(
    app,
    routes.withdrawals,
    { summary: "Withdrawals of every user, newest first (optionally one internal status)" },
    ({ ctx, query }) => listWithdrawalsForOperator(ctx.db, query),
  );

  defineRoute(
    app,
    routes.processWithdrawal,
    {
      summary: "Move a withdrawal: inspect (on_inspection), success (needs txHash), reject or error (amount returned)",
    },
    ({ ctx, params, body }) => processWithdrawal(ctx, params.id, params.action, body),
  );

  defineRoute(
    app,
    routes.runAccruals,
    { summary: "Run the accruals now (they also run every ACCRUAL_INTERVAL_SECONDS)" },
    ({ ctx }) => runAccruals(ctx.db, ctx.clock),
  );

  defineRoute(
    app,
    routes.jobs,
    { summary: "The background jobs' last recorded runs (every instance's, by job)" },
    ({ ctx }) => listJobRuns(ctx.db),
  );

  defineRoute(
    app,
    routes.unlockAccount,
    { summary: "Lift an account's sign-in and code locks (wrong passwords, wrong reset/withdrawal/wallet codes)" },
    ({ ctx, params }) => unlockAccount(ctx, params.login),
  );

  defineRoute(
    app,
    routes.auditLedger,
    { summary: "Check that every balance equals the sum of its operations and none is negative" },
    async ({ ctx }) => {
      const discrepancies = await auditLedger(ctx.db);
      return { ok: discrepancies.length === 0, discrepancies };
    },
  );

  defineRoute(app, routes.clock, { summary: "The server's time and the development offset" }, ({ ctx }) =>
    app.devClock ? devClockState(app.devClock) : { now: ctx.clock.now().toISOString(), offsetSeconds: 0 },
  );

  defineRoute(
    app,
    routes.shiftClock,
    {
      summary: "Development only: move the server's clock forward (or back to real time) and run the accruals",
      description: "Absent in production (404 NOT_FOUND).",
    },
    ({ ctx, body }) => {
      if (!app.devClock) throw new AppError("NOT_FOUND", { params: { feature: "devClock" } });
      const { advanceDays, reset } = body;
      if (!reset && advanceDays === undefined) {
        throw new AppError("VALIDATION_FAILED", { fields: { advanceDays: "required" } });
      }
      return shiftDevClock(ctx.db, app.devClock, {
        reset,
        advanceSeconds: advanceDays === undefined ? undefined : advanceDays * 86_400,
      });
    },
  );

  defineRoute(app, routes.verifications, { summary: "Verification requests, newest first" }, ({ ctx, query }) =>
    listVerifications(ctx.db, query),
  );

  defineRoute(
    app,
    routes.decideVerification,
    {
      summary: "Approve (success) or deny the user's request in process; the user is notified",
      description: "`user` is the user id or login. No request in process: 400 UPDATE_FAILED.",
    },
    ({ ctx, params, body }) =>
      decideVerification(ctx, params.user, params.decision === "approve" ? "success" : "denied", body.note),
  );

  defineRoute(
    app,
    routes.addNews,
    { summary: "Publish a news item (languages not given are English, or the first given)" },
    ({ ctx, body }) => addNews(ctx.db, ctx.clock, body, { mail: ctx.env.PUBLIC_URL !== undefined }),
  );

  defineRoute(
    app,
    routes.chatOutbox,
    { summary: "Chat messages waiting in the bot's outbox, oldest first, with the backlog's size and age" },
    ({ ctx, query }) => listWaiting(ctx.db, ctx.clock.now(), query.limit, query.status),
  );

  defineRoute(
    app,
    routes.resendChatOutbox,
    { summary: "Queue a given-up chat message again, as if new (0: no given-up message with that id)" },
    async ({ ctx, body }) => ({ resent: await resendGivenUp(ctx.db, ctx.clock.now(), body.id) }),
  );

  defineRoute(
    app,
    routes.retryChatOutbox,
    { summary: "Make waiting chat messages (one, or all) due now instead of at their next back-off" },
    async ({ ctx, body }) => ({ retried: await retryWaiting(ctx.db, ctx.clock.now(), body.id) }),
  );
}
