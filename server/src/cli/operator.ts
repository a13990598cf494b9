/**
 * Where an operator command runs. With PostgreSQL, or with an embedded database no server holds,
 * the CLI opens the database itself. While a server holds the embedded database (PGlite is
 * single-process) the CLI sends the command to that server's `/api/operator/*`, with the address
 * and token the server left beside the folder. `--server`/`KASSA_SERVER_URL` (with
 * `OPERATOR_TOKEN`) targets any server explicitly.
 */
import { ApiErrorBody, type TechnicalWorkReply } from "@contract";
import { systemClock } from "../clock";
import { type DatabaseHandle, openDatabase } from "../db/client";
import { DataDirLockedError, isProcessAlive } from "../db/lock";
import type { Env } from "../env";
import { readRuntimeInfo } from "../operator/runtime";
import type { MaintenanceRequest } from "../routes/operator";
import { getSetting, type SettingKey, setMaintenance, setSetting } from "../services/settings";

export interface Operator {
  /** How the command reached the data, for the operator's information. */
  readonly via: string;
  maintenance(change: MaintenanceRequest): Promise<TechnicalWorkReply>;
  getSetting(key: SettingKey): Promise<unknown>;
  setSetting(key: SettingKey, value: unknown): Promise<unknown>;
  close(): Promise<void>;
}

export class OperatorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OperatorError";
  }
}

function directOperator(handle: DatabaseHandle, via: string): Operator {
  return {
    via,
    maintenance: (change) => setMaintenance(handle.db, systemClock, change),
    getSetting: (key) => getSetting(handle.db, key),
    setSetting: (key, value) => setSetting(handle.db, systemClock, key, value),
    close: () => handle.close(),
  };
}

export function httpOperator(baseUrl: string, token: string, via = `the server at ${baseUrl}`): Operator {
  const call = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    let response: Response;
    try {
      response = await fetch(new URL(`/api/operator${path}`, baseUrl), {
        method,
        headers: {
          authorization: `Bearer ${token}`,
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
      if (response.status === 404 && error.success && error.data.code === "NOT_FOUND") {
        throw new OperatorError(`${baseUrl} refused the operator token (or has no operator API)`);
      }
      const detail = error.success
        ? `${error.data.code}: ${error.data.message}${error.data.fields ? ` ${JSON.stringify(error.data.fields)}` : ""}`
        : text;
      throw new OperatorError(`${baseUrl} replied ${response.status} ${detail}`);
    }
    return json;
  };
  return {
    via,
    maintenance: async (change) => (await call("POST", "/maintenance", change)) as TechnicalWorkReply,
    getSetting: async (key) => ((await call("GET", `/settings/${key}`)) as { value: unknown }).value,
    setSetting: async (key, value) => ((await call("PUT", `/settings/${key}`, { value })) as { value: unknown }).value,
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
  if (env.DATABASE_URL) {
    return directOperator(await openDatabase({ databaseUrl: env.DATABASE_URL }), "PostgreSQL (DATABASE_URL)");
  }
  if (env.DATA_DIR === "memory") {
    throw new OperatorError(
      "DATA_DIR=memory lives inside the server process: use --server <url> with OPERATOR_TOKEN to reach it",
    );
  }
  try {
    return directOperator(await openDatabase({ dataDir: env.DATA_DIR }), `PGlite at ${env.DATA_DIR}`);
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
