/**
 * Client-side rules taken from the contract's field schemas (contract/validation.ts), so the app and the
 * server never disagree. Each failure is a validation code (its text in `locales/<lng>/validation.json`).
 * The contract brings zod: not for the login screen.
 */
import { CodeField, isTooSimple, NewPasswordField, type ValidationCode } from "@contract";
import { safeParse, type ZodMiniType } from "zod/mini";
import { type FieldErrorText, validationError } from "./field-errors";

/** The first issue's code of a field schema, or undefined when the value passes. */
export function codeOf(schema: ZodMiniType, value: unknown): ValidationCode | undefined {
  const result = safeParse(schema, value);
  return result.success ? undefined : ((result.error.issues[0]?.message ?? "required") as ValidationCode);
}

function error(code: ValidationCode | undefined): FieldErrorText | undefined {
  return code ? validationError(code) : undefined;
}

/** A new password and its repeat (registration, reset, Settings): characters, strength (with the login, as the server checks), match. */
export function newPasswordErrors(values: { password: string; passwordRepeat: string }, login?: string) {
  const password =
    codeOf(NewPasswordField, values.password) ??
    (isTooSimple(values.password, login) ? ("passwordTooSimple" as const) : undefined);
  const repeat =
    values.passwordRepeat === ""
      ? ("required" as const)
      : values.passwordRepeat !== values.password
        ? ("passwordRepeat" as const)
        : undefined;
  return { password: error(password), passwordRepeat: error(repeat) };
}

/** The contract's rule for a 6-digit code (docs/decisions.md#d5-codes). */
export function codeErrors(values: { code: string }): { code?: FieldErrorText } {
  const code = codeOf(CodeField, values.code);
  return code ? { code: validationError(code) } : {};
}
