/**
 * Statements (docs/api-home.md, "Home: statements, overview, income, inbox"): the user's operations of a period as a CSV file. On the web
 * the app fetches the file with the session and saves it; inside Telegram, whose `downloadFile` cannot send
 * our header, it asks for a signed five-minute link and hands that to the client (or opens it, on a
 * client without the download prompt).
 */
import type { Currency, ErrorCode } from "@contract";
import { resolveApiBaseUrl } from "@/config/env";
import { API_TIMEOUT_MS, ApiError, apiRequest, callApi } from "@/lib/api-client";
import { getSessionToken } from "@/lib/session";
import { getTelegramBridge } from "@/tma/bridge";
import { openExternalLink } from "@/tma/links";

export interface StatementPeriod {
  /** `YYYY-MM-DD`, the first day (UTC). */
  from: string;
  /** `YYYY-MM-DD`, the last day, included. */
  to: string;
  currency?: Currency;
}

/** The file's name, as the server names it: `kassa-statement-<from>-<to>[-<currency>].csv`. */
function statementFileName(period: StatementPeriod): string {
  return `kassa-statement-${period.from}-${period.to}${period.currency ? `-${period.currency}` : ""}.csv`;
}

function queryOf(period: StatementPeriod): URLSearchParams {
  const query = new URLSearchParams({ from: period.from, to: period.to });
  if (period.currency) query.set("currency", period.currency);
  return query;
}

/** The name in a `Content-Disposition: attachment; filename="…"` header. */
function attachmentName(header: string | null): string | undefined {
  return header?.match(/filename="([^"]+)"/)?.[1];
}

/**
 * `GET /user/operations/statement` with the session: the file and its name. A failure is the same
 * `ApiError` every call raises (the error body's code and fields), so the form says what the catalogue says.
 */
async function fetchStatement(period: StatementPeriod): Promise<{ blob: Blob; fileName: string }> {
  const path = "/user/operations/statement";
  const headers: Record<string, string> = { Accept: "text/csv, application/json" };
  const token = getSessionToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(`${resolveApiBaseUrl()}${path}?${queryOf(period)}`, {
      headers,
      credentials: "same-origin",
      signal: AbortSignal.timeout(API_TIMEOUT_MS),
    });
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === "TimeoutError";
    throw new ApiError({
      kind: timedOut ? "timeout" : "network",
      message: `GET ${path} failed`,
      cause: error,
    });
  }
  // A session that has ended: the app's one request path says so as every call does (the session
  // expires, the screen's input is kept, the login screen opens), and raises its error.
  if (response.status === 401) await apiRequest({ method: "GET", path, query: Object.fromEntries(queryOf(period)) });
  if (!response.ok) {
    const text = await response.text().catch(() => "");
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not an error body: the status says it.
    }
    const code = (body as { code?: unknown } | null)?.code;
    throw new ApiError({
      kind: "http",
      status: response.status,
      code: typeof code === "string" ? (code as ErrorCode) : undefined,
      body,
      message: `GET ${path} answered ${response.status}`,
    });
  }
  const blob = await response.blob();
  return { blob, fileName: attachmentName(response.headers.get("Content-Disposition")) ?? statementFileName(period) };
}

/** Saves a file the page holds (a Blob) through a temporary `<a download>`. */
function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement("a");
  anchor.href = url;
  anchor.download = fileName;
  anchor.rel = "noopener";
  anchor.style.display = "none";
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // The click has started the download; the object URL may go once the browser took it.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * How the file reached the user: saved by the page, taken through Telegram's prompt, declined there, or opened as a
 * link.
 */
export type StatementDelivery = "saved" | "telegram" | "cancelled" | "opened";

/** Downloads the statement of `period` the way this client can (see the module's comment). */
export async function downloadStatement(period: StatementPeriod): Promise<StatementDelivery> {
  const bridge = getTelegramBridge();
  if (!bridge) {
    const { blob, fileName } = await fetchStatement(period);
    saveFile(blob, fileName);
    return "saved";
  }
  const link = await callApi("statementLink", { body: period });
  const url = new URL(`${resolveApiBaseUrl()}${link.url}`, window.location.href).toString();
  const prompt = bridge.downloadFile ? await bridge.downloadFile(url, statementFileName(period)) : false;
  // Declined in Telegram's prompt: nothing was saved, so nothing is said to have been.
  if (prompt === "cancelled") return "cancelled";
  if (prompt) return "telegram";
  openExternalLink(url);
  return "opened";
}
