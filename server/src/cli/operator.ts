/**
 * Where an operator command runs. With PostgreSQL, or with an embedded database no server holds,
 * the CLI opens the database itself. While a server holds the embedded database (PGlite is
 * single-process) the CLI sends the command to that server's `/api/operator/*`, with the address
 * and token the server left beside the folder. `--server`/`KASSA_SERVER_URL` (with
 * `OPERATOR_TOKEN`) targets any server explicitly.
 */
import path from "node:path";
import { ApiErrorBody, type NewsItem, type RouteDef, routeUrl } from "@contract";
import { operatorRoutes } from "@contract/operator";
import type { z } from "zod";
import { DataDirLockedError, isProcessAlive, lockHolder, lockPathFor } from "../db/lock";
import type { Env } from "../env";
import { readRuntimeInfo } from "../operator/runtime";
import { NO_DEV_CLOCK, type Operator, OperatorError } from "./operator-calls";

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

export async function connectOperator(env: Env, options: ConnectOptions = {}): Promise<Operator> {
  if (options.serverUrl) {
    const token = options.token ?? env.OPERATOR_TOKEN;
    if (!token) throw new OperatorError("--server needs the server's operator token in OPERATOR_TOKEN (or --token)");
    return httpOperator(options.serverUrl, token);
  }
  // The database layer is loaded only where this process opens the database itself.
  const direct = async (target: { databaseUrl: string } | { dataDir: string }, via: string) =>
    (await import("./direct-operator")).openDirectOperator(target, via, env);
  if (env.DATABASE_URL) return direct({ databaseUrl: env.DATABASE_URL }, "PostgreSQL (DATABASE_URL)");
  if (env.DATA_DIR === "memory") {
    throw new OperatorError(
      "DATA_DIR=memory lives inside the server process: use --server <url> with OPERATOR_TOKEN to reach it",
    );
  }
  // A folder a running server holds is reached through that server; one no server holds is opened here (and a
  // server that takes it meanwhile is reached after all).
  let holder = lockHolder(env.DATA_DIR);
  if (holder === null) {
    try {
      return await direct({ dataDir: env.DATA_DIR }, `PGlite at ${env.DATA_DIR} (no server holds it)`);
    } catch (error) {
      if (!(error instanceof DataDirLockedError)) throw error;
      holder = error.pid;
    }
  }
  const info = await waitForRuntimeInfo(env.DATA_DIR, holder);
  if (!info) {
    const locked = new DataDirLockedError(path.resolve(env.DATA_DIR), lockPathFor(env.DATA_DIR), holder);
    throw new OperatorError(
      `${locked.message}. That process left no operator address (it may be starting, or not a Kassa server).`,
    );
  }
  return httpOperator(info.url, info.token, `the running server (pid ${info.pid}) at ${info.url}`);
}
