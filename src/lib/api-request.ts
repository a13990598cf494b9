/**
 * One HTTP call to the cabinet API (docs/architecture.md#how-a-request-flows): JSON in and out, the bearer token
 * when there is one, and every failure raised as one `ApiError`. The app calls routes by name through `callApi`
 * (`api-client.ts`, which re-exports this module); the readers of the login's public settings call it directly.
 */
import type { ApiErrorBody, ErrorCode } from "@contract";
import { resolveApiBaseUrl } from "@/config/env";
import { loginPath } from "@/config/paths";
import { loadContract } from "./contract";
import { takeEarlyReply } from "./early-replies";
import { currentLocationPath, navigateTo } from "./navigation";
import { expireSession, getSessionToken } from "./session";

/** How long an ordinary call may take. */
export const API_TIMEOUT_MS = 30_000;
/** The verification upload (multipart) may take up to 100 s (docs/cabinet-rules.md#limits). */
export const UPLOAD_TIMEOUT_MS = 100_000;

export type ApiErrorKind = "network" | "timeout" | "parse" | "http";

/**
 * Why a call failed: no connection (`network`), no answer in time (`timeout`), an answer that is not
 * what the contract says (`parse`), or an HTTP error status (`http`, with the contract's error `code`
 * when the body is an error body).
 */
export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly kind: ApiErrorKind;
  readonly status: number | undefined;
  readonly code: ErrorCode | undefined;
  readonly body: unknown;

  constructor(init: {
    kind: ApiErrorKind;
    message: string;
    status?: number;
    code?: ErrorCode;
    body?: unknown;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.status = init.status;
    this.code = init.code;
    this.body = init.body;
  }

  /** The error body's field → validation code map (400 VALIDATION_FAILED). */
  get fields(): Record<string, string> | undefined {
    return (this.body as ApiErrorBody | undefined)?.fields;
  }

  /** Values for the message's placeholders, such as `{error}`. */
  get params(): Record<string, string> | undefined {
    return (this.body as ApiErrorBody | undefined)?.params;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

/** The contract's error code of an error body, when it is one. */
async function errorCodeOf(body: unknown): Promise<ErrorCode | undefined> {
  // Only a body shaped like an error reply is worth loading the contract for.
  if (!body || typeof body !== "object" || typeof (body as { code?: unknown }).code !== "string") return undefined;
  try {
    const checked = (await loadContract()).ApiErrorBody.safeParse(body);
    return checked.success ? checked.data.code : undefined;
  } catch {
    return undefined;
  }
}

type MaintenanceListener = () => void;
const maintenanceListeners = new Set<MaintenanceListener>();

/** Called whenever any reply carries the MAINTENANCE code, so the maintenance flag is fetched again. */
export function onMaintenanceReply(listener: MaintenanceListener): () => void {
  maintenanceListeners.add(listener);
  return () => maintenanceListeners.delete(listener);
}

const expiryListeners = new Set<(where: string) => void>();

/** Called when a 401 is about to end the session, while the screen at `where` is still shown. */
export function onSessionExpiring(listener: (where: string) => void): () => void {
  expiryListeners.add(listener);
  return () => expiryListeners.delete(listener);
}

type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method: string;
  /** Path relative to the API base, such as `/settings/technical_work`. */
  path: string;
  query?: Record<string, QueryValue | readonly QueryValue[]>;
  /** Sent as JSON. */
  body?: unknown;
  /** Extra request headers (such as `Idempotency-Key`). */
  headers?: Record<string, string>;
  /** Sent as multipart form data instead of `body`. */
  formData?: FormData;
  timeoutMs?: number;
  signal?: AbortSignal;
  baseUrl?: string;
  /**
   * Send this bearer token instead of the session's (logout sends the token it is ending). A 401 to
   * such a call says nothing about the current session, so it does not end it.
   */
  token?: string;
}

function buildUrl(baseUrl: string, path: string, query: RequestOptions["query"]): string {
  let url = `${baseUrl}${path}`;
  if (query) {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      for (const item of Array.isArray(value) ? value : [value]) {
        if (item !== undefined && item !== null) search.append(key, String(item));
      }
    }
    const qs = search.toString();
    if (qs) url += `?${qs}`;
  }
  return url;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: unknown } {
  if (text === "") return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error };
  }
}

let launchToken: string | undefined;

/**
 * Runs `start` with `token` as the bearer of the calls it starts (synchronously): a launch's first requests,
 * sent with the kept token while the session is still being restored. Like a call's own `token`, a 401 to
 * them says nothing of the session (the restore decides).
 */
export function withLaunchToken<T>(token: string, start: () => T): T {
  const previous = launchToken;
  launchToken = token;
  try {
    return start();
  } finally {
    launchToken = previous;
  }
}

/** The bearer of the calls started inside `withLaunchToken` right now (`callApi` keeps it across its await). */
export function launchBearer(): string | undefined {
  return launchToken;
}

/**
 * Read-your-writes across server instances: the highest position the server gave a write of this session
 * (`Kassa-Seen`), sent with each later call so that whichever instance answers has heard of that write first.
 * Highest, not last: replies of writes made side by side may arrive in any order.
 */
let lastWrite: { token: string | null; seen: string } | null = null;

/** Makes one HTTP call and returns the parsed JSON body (undefined when empty). */
export async function apiRequest(options: RequestOptions): Promise<unknown> {
  const { method, path, query, body, formData, timeoutMs = API_TIMEOUT_MS, signal } = options;
  const url = buildUrl(options.baseUrl ?? resolveApiBaseUrl(), path, query);
  const ownToken = options.token ?? launchToken;
  const sessionToken = ownToken === undefined ? getSessionToken() : null;
  const token = ownToken ?? sessionToken;

  const headers: Record<string, string> = { ...options.headers, Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (lastWrite?.token === token) headers["Kassa-Seen"] = lastWrite.seen;
  let payload: BodyInit | undefined;
  if (formData) payload = formData;
  else if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  }

  // One controller for both the caller's cancel and our timeout, so either stops the request.
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const forwardAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) forwardAbort();
  else signal?.addEventListener("abort", forwardAbort, { once: true });

  let response: Response;
  let text: string;
  try {
    const send = () =>
      fetch(url, { method, headers, body: payload, signal: controller.signal, credentials: "same-origin" });
    // A launch's first calls may have left before this code loaded (lib/early-replies.ts).
    const early = takeEarlyReply(method, url, token ?? null);
    response = await (early ? early.catch(send) : send());
    text = await response.text();
    const seen = response.headers.get("kassa-seen");
    // A position is 16 hex digits (the server's `parseSeen`): the greater string is the later position.
    if (seen && /^[0-9A-F]{16}$/.test(seen) && !(lastWrite?.token === token && lastWrite.seen >= seen)) {
      lastWrite = { token, seen };
    }
  } catch (error) {
    if (timedOut) {
      throw new ApiError({
        kind: "timeout",
        message: `${method} ${path} took longer than ${timeoutMs} ms`,
        cause: error,
      });
    }
    // The caller cancelled (a query was dropped): let that surface as the abort it is.
    if (signal?.aborted) throw error;
    throw new ApiError({ kind: "network", message: `${method} ${path} failed: no connection`, cause: error });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", forwardAbort);
  }

  const parsed = parseJson(text);

  if (!response.ok) {
    const code = parsed.ok ? await errorCodeOf(parsed.value) : undefined;
    const error = new ApiError({
      kind: "http",
      status: response.status,
      code,
      body: parsed.ok ? parsed.value : text,
      message: `${method} ${path} answered ${response.status}${code ? ` ${code}` : ""}`,
    });
    if (code === "MAINTENANCE") for (const listener of maintenanceListeners) listener();
    if (response.status === 401 && sessionToken) {
      // A 401 removes the stored token and counts as a session timeout (docs/cabinet-rules.md#sessions).
      // What was typed is kept for the way back (the cabinet listens).
      const where = currentLocationPath();
      for (const listener of expiryListeners) listener(where);
      expireSession();
      navigateTo(loginPath(where), { replace: true });
    }
    throw error;
  }

  if (!parsed.ok) {
    throw new ApiError({
      kind: "parse",
      status: response.status,
      body: text,
      message: `${method} ${path} answered with a body that is not JSON`,
      cause: parsed.error,
    });
  }
  return parsed.value;
}

/**
 * Sends multipart form data (avatar, verification photos) with the long upload timeout
 * (docs/cabinet-rules.md#limits).
 */
export function uploadMultipart(
  path: string,
  formData: FormData,
  options: { method?: "PATCH" | "POST" | "PUT"; signal?: AbortSignal } = {},
): Promise<unknown> {
  return apiRequest({
    method: options.method ?? "PATCH",
    path,
    formData,
    signal: options.signal,
    timeoutMs: UPLOAD_TIMEOUT_MS,
  });
}
