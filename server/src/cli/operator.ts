/**
 * Where an operator command runs. With PostgreSQL, or with an embedded database no server holds,
 * the CLI opens the database itself. While a server holds the embedded database (PGlite is
 * single-process) the CLI sends the command to that server's `/api/operator/*`, with the address
 * and token the server left beside the folder. `--server`/`KASSA_SERVER_URL` (with
 * `OPERATOR_TOKEN`) targets any server explicitly.
 */
import {
  ApiErrorBody,
  type NewsItem,
  type PaymentSystem,
  type Refill,
  type RefillStatus,
  type RouteDef,
  routeUrl,
  type TechnicalWorkReply,
  type VerificationStatus,
} from "@contract";
import {
  type Catalog,
  type CatalogApplyReply,
  type ChatOutboxReply,
  type ClockChangeRequest,
  type JobRun,
  type MaintenanceRequest,
  operatorRoutes,
  type UnlockAccountReply,
} from "@contract/operator";
import type { z } from "zod";
import { systemClock } from "../clock";
import { type DatabaseHandle, DatabaseMissingError, openDatabase } from "../db/client";
import { DataDirLockedError, isProcessAlive } from "../db/lock";
import type { WithdrawalRowStatus } from "../db/schema";
import { productionCodeSender } from "../delivery/production";
import type { Env, NodeEnv } from "../env";
import { listJobRuns } from "../jobs";
import { readRuntimeInfo } from "../operator/runtime";
import { createLimiter } from "../security/rate-limit";
import { type AccrualRun, runAccruals } from "../services/accruals";
import { unlockAccount } from "../services/auth";
import { applyCatalog, readCatalog, setExplorer } from "../services/catalog";
import { isUuid } from "../services/deposit-rows";
import {
  type DevClockShift,
  type DevClockState,
  devClockState,
  loadDevClock,
  shiftDevClock,
} from "../services/dev-clock";
import { auditLedger, type LedgerDiscrepancy } from "../services/ledger";
import { addNews, listNews, type NewsInput } from "../services/news";
import { confirmRefill, listRefillsForOperator, type OperatorRefill, rejectRefill } from "../services/refills";
import { getSetting, type SettingKey, setMaintenance, setSetting } from "../services/settings";
import { decideVerification, listVerifications, type OperatorVerification } from "../services/verification";
import {
  listWithdrawalsForOperator,
  type OperatorWithdrawal,
  type OperatorWithdrawalAction,
  processWithdrawal,
} from "../services/withdrawals";
import { listWaiting, resendGivenUp, retryWaiting } from "../telegram/outbox";

export interface Operator {
  /** How the command reached the data, for the operator's information. */
  readonly via: string;
  maintenance(change: MaintenanceRequest): Promise<TechnicalWorkReply>;
  getSetting(key: SettingKey): Promise<unknown>;
  setSetting(key: SettingKey, value: unknown): Promise<unknown>;
  setExplorer(paymentSystemId: string, template: string | null): Promise<PaymentSystem>;
  catalog(): Promise<Catalog>;
  applyCatalog(catalog: Catalog): Promise<CatalogApplyReply>;
  listRefills(filter: { status?: RefillStatus | undefined; limit?: number | undefined }): Promise<OperatorRefill[]>;
  confirmRefill(id: string, amount?: string): Promise<Refill>;
  rejectRefill(id: string, note?: string): Promise<Refill>;
  listWithdrawals(filter: {
    status?: WithdrawalRowStatus | undefined;
    limit?: number | undefined;
  }): Promise<OperatorWithdrawal[]>;
  processWithdrawal(
    id: string,
    action: OperatorWithdrawalAction,
    options?: { txHash?: string | undefined; note?: string | undefined },
  ): Promise<OperatorWithdrawal>;
  runAccruals(): Promise<AccrualRun>;
  jobs(): Promise<JobRun[]>;
  unlockAccount(login: string): Promise<UnlockAccountReply>;
  auditLedger(): Promise<LedgerDiscrepancy[]>;
  clock(): Promise<DevClockState>;
  shiftClock(change: ClockChangeRequest): Promise<DevClockShift>;
  listVerifications(filter: {
    status?: VerificationStatus | undefined;
    limit?: number | undefined;
  }): Promise<OperatorVerification[]>;
  decideVerification(user: string, decision: "approve" | "deny", note?: string): Promise<OperatorVerification>;
  addNews(input: NewsInput): Promise<NewsItem>;
  listNews(): Promise<NewsItem[]>;
  chatOutbox(limit?: number, status?: "waiting" | "given_up"): Promise<ChatOutboxReply>;
  retryChatOutbox(id?: string): Promise<number>;
  resendChatOutbox(id: string): Promise<number>;
  close(): Promise<void>;
}

export class OperatorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OperatorError";
  }
}

const NO_DEV_CLOCK = "the development clock does not exist in production";

function directOperator(handle: DatabaseHandle, via: string, nodeEnv: NodeEnv, env?: Env): Operator {
  const db = handle.db;
  // In production a withdrawal's move is told through the investor's code channel as the server
  // tells it (e-mail, SMS); a notice that cannot go out is reported on stderr.
  const notices =
    nodeEnv === "production" && env
      ? {
          codeSender: productionCodeSender(env),
          log: { warn: (details: object, message: string) => console.error(message, details) },
        }
      : {};
  // The server's time: real time, plus the development offset outside production.
  const clock = async () => (nodeEnv === "production" ? systemClock : await loadDevClock(db));
  return {
    via,
    maintenance: (change) => setMaintenance(db, systemClock, change),
    getSetting: async (key) => getSetting(db, key),
    setSetting: (key, value) => setSetting(db, systemClock, key, value),
    setExplorer: (id, template) => setExplorer(db, systemClock, id, template),
    catalog: () => readCatalog(db),
    applyCatalog: (catalog) => applyCatalog(db, catalog),
    listRefills: (filter) => listRefillsForOperator(db, filter),
    confirmRefill: async (id, amount) => confirmRefill({ db, clock: await clock() }, id, amount),
    rejectRefill: async (id, note) => rejectRefill({ db, clock: await clock() }, id, note),
    listWithdrawals: (filter) => listWithdrawalsForOperator(db, filter),
    processWithdrawal: async (id, action, options) =>
      processWithdrawal({ db, clock: await clock(), ...notices }, id, action, options),
    runAccruals: async () => runAccruals(db, await clock()),
    jobs: () => listJobRuns(db),
    // No server holds this database: the counters that outlive a process are in it (security/rate-limit.ts).
    unlockAccount: async (login) =>
      unlockAccount({ db, limiter: createLimiter({ db, clock: await clock(), shared: true }) }, login),
    auditLedger: () => auditLedger(db),
    clock: async () => {
      if (nodeEnv === "production") return { now: systemClock.now().toISOString(), offsetSeconds: 0 };
      return devClockState(await loadDevClock(db));
    },
    shiftClock: async (change) => {
      if (nodeEnv === "production") throw new OperatorError(NO_DEV_CLOCK);
      return shiftDevClock(db, await loadDevClock(db), {
        reset: change.reset,
        advanceSeconds: change.advanceDays === undefined ? undefined : change.advanceDays * 86_400,
      });
    },
    listVerifications: (filter) => listVerifications(db, filter),
    decideVerification: async (user, decision, note) =>
      decideVerification({ db, clock: await clock() }, user, decision === "approve" ? "success" : "denied", note),
    addNews: async (input) => addNews(db, await clock(), input, { mail: env?.PUBLIC_URL !== undefined }),
    listNews: async () => (await listNews(db)) as NewsItem[],
    chatOutbox: async (limit = 100, status = "waiting") => listWaiting(db, (await clock()).now(), limit, status),
    retryChatOutbox: async (id) => retryWaiting(db, (await clock()).now(), id),
    resendChatOutbox: async (id) => (isUuid(id) ? resendGivenUp(db, (await clock()).now(), id) : 0),
    close: () => handle.close(),
  };
}

type Part<R, K extends string> = R extends { [P in K]: infer S extends z.core.$ZodType } ? z.input<S> : undefined;
type Request<R extends RouteDef> = { params?: Part<R, "params">; query?: Part<R, "query">; body?: Part<R, "body"> };

/**
 * The typed operator client: `client(operatorRoutes.refills, { query: { status } })` sends the call
 * the contract entry describes (method, path, query, JSON body, the operator token) and returns the
 * reply parsed by the entry's schema. Refusals become an OperatorError naming the code; a 404
 * naming what is missing comes from the command (`notFound`), a bare one is the token refused.
 */
function operatorClient(baseUrl: string, token: string) {
  return async <R extends RouteDef>(
    route: R,
    request: Request<R> = {},
    options: { notFound?: string } = {},
  ): Promise<z.output<R["response"]>> => {
    const url = routeUrl(
      route,
      request.params as Record<string, unknown> | undefined,
      request.query as Record<string, unknown> | undefined,
    );
    const body = request.body ?? (route.body ? {} : undefined);
    let response: Response;
    try {
      response = await fetch(new URL(`/api${url}`, baseUrl), {
        method: route.method,
        headers: {
          ...(route.auth === "operator" ? { authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(15_000),
      });
    } catch (error) {
      throw new OperatorError(`cannot reach ${baseUrl}: ${(error as Error).message}`);
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      throw new OperatorError(`${baseUrl} replied ${response.status} with a body that is not JSON`);
    }
    if (!response.ok) {
      const error = ApiErrorBody.safeParse(json);
      if (route.auth === "operator" && response.status === 404 && error.success && error.data.code === "NOT_FOUND") {
        if (error.data.params && options.notFound) throw new OperatorError(options.notFound);
        throw new OperatorError(`${baseUrl} refused the operator token (or has no operator API)`);
      }
      const detail = error.success
        ? `${error.data.code}: ${error.data.message}${error.data.fields ? ` ${JSON.stringify(error.data.fields)}` : ""}`
        : text;
      throw new OperatorError(`${baseUrl} replied ${response.status} ${detail}`);
    }
    const parsed = route.response.safeParse(json);
    if (!parsed.success)
      throw new OperatorError(`${baseUrl} replied with an unexpected body to ${route.method} ${url}`);
    return parsed.data as z.output<R["response"]>;
  };
}

export function httpOperator(baseUrl: string, token: string, via = `the server at ${baseUrl}`): Operator {
  const call = operatorClient(baseUrl, token);
  const routes = operatorRoutes;
  return {
    via,
    maintenance: (change) => call(routes.maintenance, { body: change }),
    getSetting: async (key) => (await call(routes.getSetting, { params: { key } })).value,
    setSetting: async (key, value) => (await call(routes.setSetting, { params: { key }, body: { value } })).value,
    setExplorer: (id, template) =>
      call(routes.setExplorer, { params: { id }, body: { template } }, { notFound: `no payment system ${id}` }),
    catalog: () => call(routes.catalog),
    applyCatalog: (catalog) => call(routes.applyCatalog, { body: catalog }),
    listRefills: (filter) => call(routes.refills, { query: filter }),
    confirmRefill: (id, amount) =>
      call(routes.confirmRefill, { params: { id }, body: { amount } }, { notFound: `no refill ${id}` }),
    rejectRefill: (id, note) =>
      call(routes.rejectRefill, { params: { id }, body: { note } }, { notFound: `no refill ${id}` }),
    listWithdrawals: (filter) => call(routes.withdrawals, { query: filter }),
    processWithdrawal: (id, action, options = {}) =>
      call(routes.processWithdrawal, { params: { id, action }, body: options }, { notFound: `no withdrawal ${id}` }),
    runAccruals: () => call(routes.runAccruals),
    jobs: () => call(routes.jobs),
    unlockAccount: (login) => call(routes.unlockAccount, { params: { login } }, { notFound: `no account ${login}` }),
    auditLedger: async () => (await call(routes.auditLedger)).discrepancies,
    clock: () => call(routes.clock),
    shiftClock: (change) => call(routes.shiftClock, { body: change }, { notFound: NO_DEV_CLOCK }),
    listVerifications: (filter) => call(routes.verifications, { query: filter }),
    decideVerification: (user, decision, note) =>
      call(routes.decideVerification, { params: { user, decision }, body: { note } }, { notFound: `no user ${user}` }),
    addNews: (input) => call(routes.addNews, { body: input }),
    // Without `lang` the list carries every language.
    listNews: async () => (await call(routes.news)) as NewsItem[],
    chatOutbox: (limit, status) => call(routes.chatOutbox, { query: { limit, status } }),
    retryChatOutbox: async (id) => (await call(routes.retryChatOutbox, { body: { id } })).retried,
    resendChatOutbox: async (id) => (await call(routes.resendChatOutbox, { body: { id } })).resent,
    close: async () => {},
  };
}

/** A server that is still starting (migrating, seeding) writes its address once it listens. */
async function waitForRuntimeInfo(dataDir: string, pid: number, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const info = readRuntimeInfo(dataDir);
    if (info && info.pid === pid) return info;
    if (Date.now() > deadline || !isProcessAlive(pid)) return null;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export interface ConnectOptions {
  /** Base URL of a running server; needs `token`. */
  serverUrl?: string | undefined;
  token?: string | undefined;
}

/** The CLI never creates a database: a missing one is the operator's mistake (another DATA_DIR). */
async function openExisting(options: { databaseUrl?: string; dataDir?: string }): Promise<DatabaseHandle> {
  try {
    return await openDatabase({ ...options, existingOnly: true });
  } catch (error) {
    if (error instanceof DatabaseMissingError) throw new OperatorError(error.message);
    throw error;
  }
}

export async function connectOperator(env: Env, options: ConnectOptions = {}): Promise<Operator> {
  if (options.serverUrl) {
    const token = options.token ?? env.OPERATOR_TOKEN;
    if (!token) throw new OperatorError("--server needs the server's operator token in OPERATOR_TOKEN (or --token)");
    return httpOperator(options.serverUrl, token);
  }
  if (env.DATABASE_URL) {
    return directOperator(
      await openExisting({ databaseUrl: env.DATABASE_URL }),
      "PostgreSQL (DATABASE_URL)",
      env.NODE_ENV,
      env,
    );
  }
  if (env.DATA_DIR === "memory") {
    throw new OperatorError(
      "DATA_DIR=memory lives inside the server process: use --server <url> with OPERATOR_TOKEN to reach it",
    );
  }
  try {
    return directOperator(
      await openExisting({ dataDir: env.DATA_DIR }),
      `PGlite at ${env.DATA_DIR} (no server holds it)`,
      env.NODE_ENV,
      env,
    );
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    const info = await waitForRuntimeInfo(env.DATA_DIR, error.pid);
    if (!info) {
      throw new OperatorError(
        `${error.message}. That process left no operator address (it may be starting, or not a Kassa server).`,
      );
    }
    return httpOperator(info.url, info.token, `the running server (pid ${info.pid}) at ${info.url}`);
  }
}
