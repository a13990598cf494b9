/**
 * The investor's home (added beside the cabinet's calls; server/README.md, "Home: statements, overview,
 * income, inbox"): the statement of a period as CSV, the whole picture in USDT and the income by day.
 * Always the caller's own data: the user comes from the session, never from the request.
 */
import { routes, type StatementQuery } from "@contract";
import type { FastifyReply } from "fastify";
import type { KassaApp, ServiceContext } from "../../context";
import { AppError } from "../../errors";
import { getOwnWithdrawal } from "../../services/history";
import { getIncome, getOverview } from "../../services/income";
import { sessionLives } from "../../services/sessions";
import {
  openStatementLink,
  STATEMENT_LIMIT,
  statementFileName,
  statementLink,
  statementStream,
} from "../../services/statements";
import { defineRoute } from "../define";

export async function userHomeRoutes(app: KassaApp) {
  /** Sends the statement file of `userId` (after the account's statement budget). */
  async function sendStatement(ctx: ServiceContext, reply: FastifyReply, userId: string, query: StatementQuery) {
    await ctx.limiter.consume(`statement-account:${userId}`, STATEMENT_LIMIT);
    reply
      .header("content-type", "text/csv; charset=utf-8")
      .header("content-disposition", `attachment; filename="${statementFileName(query)}"`)
      .header("cache-control", "no-store");
    return reply.send(statementStream(ctx.db, userId, query)) as unknown as string;
  }

  defineRoute(
    app,
    routes.statement,
    {
      summary: "The caller's operations of a period as a CSV file (added)",
      description:
        "`from` and `to` are UTC days, both included, at most 366 days apart (else 400 VALIDATION_FAILED: " +
        "periodOrder / periodTooLong on `to`); `currency` narrows it. The reply is `text/csv; charset=utf-8`, an " +
        "attachment, oldest first: a header row, then date (ISO 8601, UTC), operation_id, type, description " +
        "(in the caller's language), currency, amount (exact, signed), deposit_id, refill_id, withdrawal_id, " +
        "tx_hash. Text a spreadsheet would run as a formula is prefixed with an apostrophe. Streamed in batches. " +
        "At most 30 statements per account and hour (429 RATE_LIMITED).",
    },
    ({ ctx, auth, query, reply }) => sendStatement(ctx, reply, auth.userId, query),
  );

  defineRoute(
    app,
    routes.statementLink,
    {
      summary: "A link that opens the same statement file for 5 minutes without the session header (added)",
      description:
        "For a download the app cannot send headers with (Telegram's downloadFile). The body is the statement's " +
        "query; `url` is relative to the API base and signed with the server's secret: it opens that file of the " +
        "caller and nothing else, until `expiresAt` or the end of the session that asked for it.",
    },
    ({ ctx, auth, body }) => statementLink(ctx.codeSecret, ctx.clock.now(), auth, body),
  );

  defineRoute(
    app,
    routes.statementFile,
    {
      summary: "The statement file of a link (added; the signed link is the permission)",
      description:
        "A forged, altered, oddly spelled or expired link is 404, and so is one whose session has ended (logout). " +
        "Counts toward the account's 30 statements an hour.",
    },
    async ({ ctx, query, reply }) => {
      const opened = openStatementLink(ctx.codeSecret, ctx.clock.now(), query.link);
      // The link ends with the session that made it (logout, a password reset).
      if (!(await sessionLives(ctx.db, ctx.clock, opened.sessionId, opened.userId))) throw new AppError("NOT_FOUND");
      return sendStatement(ctx, reply, opened.userId, opened.query);
    },
  );

  defineRoute(
    app,
    routes.overview,
    {
      summary: "Everything the caller holds in USDT at the operator's rates, each currency's line beneath (added)",
      description:
        "Per currency: the balance, the principal of active deposits and their USDT value (amount × rate ÷ " +
        "rate(USDT), no exchange fee, rounded half-up to 6 decimals); the totals are the sums of the lines.",
    },
    ({ ctx, auth }) => getOverview(ctx.db, auth.userId),
  );

  defineRoute(
    app,
    routes.income,
    {
      summary: "Accruals and partner income by UTC day, in USDT, for the cabinet's chart (added)",
      description:
        "period 7d (default), 30d or all. Every day of the period is listed, oldest first, zeros included " +
        "(`all`: from the first day with income). accruals: the deposits' daily accruals by the day each fell " +
        "due (a deposit closed early drops its days: that income was forfeited); bonuses: referral, matching " +
        "and turnover bonuses by the day paid. USDT at today's rates; `byCurrency` has the exact totals.",
    },
    ({ ctx, auth, query }) => getIncome(ctx.db, ctx.clock, auth.userId, query.period),
  );

  defineRoute(
    app,
    routes.withdrawal,
    {
      summary: "One of the caller's withdrawals, with its transaction hash and payment system (added)",
      description:
        "What a history row opens: `txHash` (set when paid) and `paymentSystemId`, whose `explorerUrl` " +
        "(GET /payment-systems) links the hash. Another user's, a cancelled one or an unknown id is 404.",
    },
    ({ ctx, auth, params }) => getOwnWithdrawal(ctx.db, auth.userId, params.id),
  );
}
