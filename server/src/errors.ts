/**
 * One error type for rules that refuse a request, and one handler that turns every failure into
 * the contract's `ApiErrorBody` with the catalogue's status. Nothing internal (stack, SQL, driver
 * messages) ever reaches a reply; unexpected errors are logged and answered 500 INTERNAL.
 */
import { type ApiErrorBody, ERRORS, type ErrorCode, VALIDATION_CODES, type ValidationCode } from "@contract";
import type { FastifyError, FastifyInstance, FastifyReply, FastifySchemaValidationError } from "fastify";

export interface AppErrorOptions {
  /** Field path → validation code (for VALIDATION_FAILED). */
  fields?: Record<string, ValidationCode>;
  /** Values for the message's `{placeholders}`. */
  params?: Record<string, string>;
  /** Reply headers, such as `Retry-After` of a 429. */
  headers?: Record<string, string>;
  cause?: unknown;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly fields: Record<string, ValidationCode> | undefined;
  readonly params: Record<string, string> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(code: ErrorCode, opts: AppErrorOptions = {}) {
    super(ERRORS[code].message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "AppError";
    this.code = code;
    this.status = ERRORS[code].status;
    this.fields = opts.fields;
    this.params = opts.params;
    this.headers = opts.headers;
  }

  toBody(): ApiErrorBody {
    return errorBody(this.code, { fields: this.fields, params: this.params });
  }
}

/** The reply body for `code`; `{placeholders}` of the message are filled from `params`. */
export function errorBody(
  code: ErrorCode,
  extra: { fields?: Record<string, string> | undefined; params?: Record<string, string> | undefined } = {},
): ApiErrorBody {
  const { params, fields } = extra;
  const template: string = ERRORS[code].message;
  const message = params ? template.replace(/\{(\w+)\}/g, (m, name: string) => params[name] ?? m) : template;
  const body: ApiErrorBody = { code, message };
  if (fields && Object.keys(fields).length > 0) body.fields = fields;
  if (params && Object.keys(params).length > 0) body.params = params;
  return body;
}

export function sendError(reply: FastifyReply, code: ErrorCode, extra?: Parameters<typeof errorBody>[1]) {
  return reply.code(ERRORS[code].status).type("application/json; charset=utf-8").send(errorBody(code, extra));
}

const validationCodes: readonly string[] = VALIDATION_CODES;

/** Maps one schema issue (a zod issue as fastify-type-provider-zod reports it) to a validation code. */
function validationCode(issue: FastifySchemaValidationError): ValidationCode {
  // Contract schemas name their rule in the message (`{ message: "decimal" }`).
  if (issue.message && validationCodes.includes(issue.message)) return issue.message as ValidationCode;
  const params = issue.params as { format?: string; origin?: string; minimum?: number | bigint } | undefined;
  if (issue.keyword === "invalid_format" && params?.format === "email") return "emailInvalid";
  // Missing, empty or of the wrong type: the field needs (a proper) filling in.
  return "required";
}

/** `{ "wallets.0.address": "required" }` from the issues of one request part. */
function validationFields(
  issues: FastifySchemaValidationError[],
  context: string | undefined,
): Record<string, ValidationCode> {
  const fields: Record<string, ValidationCode> = {};
  for (const issue of issues) {
    const path = issue.instancePath.replace(/^\//, "").split("/").filter(Boolean).join(".") || context || "body";
    fields[path] ??= validationCode(issue);
  }
  return fields;
}

function isFastifyError(error: unknown): error is FastifyError {
  return error instanceof Error && typeof (error as FastifyError).statusCode === "number";
}

/**
 * The SQLSTATE of a PostgreSQL error (postgres.js and PGlite set `code`; Drizzle wraps them in an
 * error whose `cause` is the driver's), or undefined.
 */
export function sqlState(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = current.cause;
  }
  return undefined;
}

/**
 * SQLSTATEs after which the request's transaction has rolled back whole and the same request may simply run again:
 * lock_not_available (55P03), deadlock_detected (40P01), serialization_failure (40001). Answered 503 BUSY.
 */
const RUN_AGAIN: ReadonlySet<string> = new Set(["55P03", "40P01", "40001"]);

/**
 * Class 22 "data exception": a value PostgreSQL cannot take (a NUL byte, a number out of range,
 * a malformed date…). Whatever slipped past the schemas, it is the request's fault: 400, never 500.
 */
function isDataException(error: unknown): boolean {
  return sqlState(error)?.startsWith("22") ?? false;
}

/**
 * Installs the one error handler of the app: every refusal is an `AppError(code)`, answered with the
 * catalogue's status (docs/architecture.md#how-a-request-flows).
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof AppError) {
      if (error.status >= 500) request.log.error({ err: error }, "request failed");
      if (error.headers) reply.headers(error.headers);
      return reply.code(error.status).send(error.toBody());
    }
    if (isFastifyError(error) && error.validation) {
      return sendError(reply, "VALIDATION_FAILED", {
        fields: validationFields(error.validation, error.validationContext),
      });
    }
    if (isFastifyError(error) && error.statusCode === 429) return sendError(reply, "RATE_LIMITED");
    if (isFastifyError(error) && error.statusCode === 404) return sendError(reply, "NOT_FOUND");
    if (isFastifyError(error) && error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      // A request Fastify itself refused: malformed JSON, wrong content type, body too large…
      request.log.info({ err: error }, "request refused");
      return reply.code(error.statusCode).send(errorBody("VALIDATION_FAILED"));
    }
    if (isDataException(error)) {
      request.log.warn({ err: error, sqlState: sqlState(error) }, "request refused by the database");
      return sendError(reply, "VALIDATION_FAILED");
    }
    const state = sqlState(error);
    if (state !== undefined && RUN_AGAIN.has(state)) {
      // A row the request needs stayed held by another transaction past the lock timeout (55P03,
      // db/client.ts), or PostgreSQL chose the request's transaction as a deadlock's victim (40P01: two
      // transactions each waiting for a row the other holds, one an instance's that was killed in the middle)
      // or a serialization failure's (40001). Its transaction rolled back whole, so the same request may run
      // again: BUSY, not a failure of the server.
      request.log.warn({ sqlState: state }, "request refused: a row it needs was held by another transaction");
      return sendError(reply.header("retry-after", "1"), "BUSY");
    }
    if (sqlState(error) === "57014" && (request.raw.socket?.destroyed || reply.raw.destroyed)) {
      // query_canceled with the client gone: its statements were cancelled on purpose
      // (plugins/query-scope.ts) and nobody waits for the reply. Not a failure of the server.
      request.log.info({ sqlState: "57014" }, "request abandoned by its client, its statements cancelled");
      return sendError(reply, "INTERNAL");
    }
    request.log.error({ err: error }, "request failed");
    return sendError(reply, "INTERNAL");
  });
}
