/**
 * The error catalogue: every message of the cabinet (docs/cabinet-rules.md#messages) has a stable code. The
 * server replies with `{ code, message, ... }` and the status below; the app shows the text of `errors:<code>`
 * from `locales/`, whose English text is the `message` here, word for word.
 */
import * as z from "zod/mini";
import { deferred } from "./deferred";

export const ERRORS = {
  // Generic
  VALIDATION_FAILED: { status: 400, message: "Check the marked fields" },
  NOT_FOUND: { status: 404, message: "Not found" },
  INTERNAL: { status: 500, message: "An error occurred, try again later" },
  MAINTENANCE: { status: 503, message: "Technical work is in progress" },
  // The database could not take the request in time (a row it needs stayed held by another request past
  // the lock timeout); nothing changed, and the reply's Retry-After says when to try again
  BUSY: { status: 503, message: "An error occurred, try again later" },
  // Login
  INVALID_CREDENTIALS: { status: 400, message: "Incorrect login or password" },
  // Rate limit
  RATE_LIMITED: { status: 429, message: "Repeat the request in a few minutes" },
  // Code sending
  CODE_SEND_FAILED: { status: 502, message: "Code sending error" },
  // Registration
  PHONE_TAKEN: { status: 409, message: "This Phone Number is already registered" },
  EMAIL_TAKEN: { status: 409, message: "This Email has already been registered" },
  LOGIN_TAKEN: { status: 409, message: "This login has already been registered" },
  REGISTRATION_FAILED: { status: 400, message: "Registration error" },
  // Verification
  VERIFICATION_FAILED: { status: 400, message: "Verification error" },
  // Invest
  INSUFFICIENT_FUNDS: { status: 409, message: "Not enough funds" },
  DEPOSIT_CREATE_FAILED: { status: 400, message: "Deposit creation error" },
  DEPOSIT_CLOSE_FAILED: { status: 400, message: "Deposit closing error" },
  // Withdrawal
  NO_WITHDRAWAL_WALLET: { status: 400, message: "No withdrawal wallet specified" },
  DEPOSIT_REQUIRED: { status: 403, message: "You must have a deposit to withdraw" },
  DEPOSIT_AND_REFILL_REQUIRED: { status: 403, message: "To withdraw, you must have a deposit and a recharge" },
  CODE_MISMATCH: { status: 400, message: "The code doesn't match. Try again" },
  CODE_EXPIRED: { status: 410, message: "The verification code is out of date" },
  CODE_INVALID: { status: 400, message: "The code is not valid" },
  WITHDRAWAL_FAILED: { status: 400, message: "An error occurred, try again later" },
  // Withdrawal codes guessed (docs/decisions.md#withdrawal-code-guessing): locked for a day after too many
  // wrong codes within a day
  WITHDRAWALS_LOCKED: { status: 403, message: "Withdrawals are locked for 24 hours after repeated wrong codes" },
  // Session
  SESSION_TIMEOUT: { status: 401, message: "Session timed out" },
  WAIT_EXPIRED: { status: 408, message: "The waiting time has expired" },
  // Settings
  UPDATE_FAILED: { status: 400, message: "Update error {error}" },
  OLD_PASSWORD_INCORRECT: { status: 400, message: "You entered the old password incorrectly." },
  NEW_PASSWORDS_MISMATCH: { status: 400, message: "New passwords do not match" },
  IMAGE_UPDATE_FAILED: { status: 400, message: "Error updating image" },
  VERIFICATION_REQUEST_FAILED: { status: 400, message: "Error sending verification request" },
  // Exactly-once money calls (docs/decisions.md#exactly-once-money-calls): the `Idempotency-Key` header
  IDEMPOTENCY_KEY_INVALID: { status: 400, message: "The request could not be identified, try again" },
  IDEMPOTENCY_IN_FLIGHT: { status: 409, message: "This request is still being processed, wait a moment" },
  IDEMPOTENCY_KEY_REUSED: { status: 422, message: "This request was already sent with other data" },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;
export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];
export const ErrorCodeSchema = deferred(() => z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]));

/** Success messages of the cabinet (docs/cabinet-rules.md#messages), shown as alerts. */
export const SUCCESS_MESSAGES = {
  CODE_SENT: "Request successfully sent",
  VERIFICATION_SUCCEEDED: "Successful verification",
} as const;
export type SuccessCode = keyof typeof SUCCESS_MESSAGES;

/** Per-field validation issue codes; texts live in `locales/<lng>/validation.json`. */
export const VALIDATION_CODES = [
  "required",
  "loginTooShort",
  "loginCharacters",
  "passwordCharacters",
  "passwordTooSimple",
  "passwordRepeat",
  "phoneFormat",
  "emailInvalid",
  "imageType",
  "imageSize",
  "amountNegative",
  "amountBelowMinimum",
  "amountAboveMaximum",
  "tooManyDecimals",
  "decimal",
  "codeFormat",
  "termsNotAccepted",
  "addressFormat",
  "textCharacters",
  "periodOrder",
  "periodTooLong",
  "textTooLong",
] as const;
export const ValidationCode = deferred(() => z.enum(VALIDATION_CODES));
export type ValidationCode = z.infer<typeof ValidationCode>;

/** The body of every error reply. */
export const ApiErrorBody = deferred(() =>
  z.object({
    code: ErrorCodeSchema,
    message: z.string(),
    /** Field path → validation code, for 400 VALIDATION_FAILED. */
    fields: z.optional(z.record(z.string(), z.string())),
    /** Values for placeholders in the message, such as `{error}`. */
    params: z.optional(z.record(z.string(), z.string())),
  }),
);
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && value in ERRORS;
}
