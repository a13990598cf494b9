/**
 * What a field or a form shows when something is wrong, as an i18n key (the text follows the language).
 * Types only from the contract: this module is on the login screen, which must not download zod.
 */
import type { ErrorCode, ValidationCode } from "@contract";
import type { ParseKeys } from "i18next";
import { isApiError } from "../api-client";

export type FieldErrorText =
  | { ns: "validation"; key: ValidationCode; params?: Record<string, string> }
  | { ns: "errors"; key: ErrorCode; params?: Record<string, string> }
  /** A money rule's own words (too many decimals for the currency), with its figures. */
  | { ns: "money"; key: ParseKeys<"money">; params?: Record<string, string> }
  /** A settings form's own rule (the verification's age). */
  | { ns: "settings"; key: ParseKeys<"settings"> }
  | { ns: "auth"; key: ParseKeys<"auth"> }
  /** The registration's own words (the inviter's lookup). */
  | { ns: "registration"; key: ParseKeys<"registration"> };

export const requiredError: FieldErrorText = { ns: "validation", key: "required" };

export function validationError(code: string): FieldErrorText {
  return { ns: "validation", key: code as ValidationCode };
}

/**
 * The server's `fields` (path → validation code) for the fields this form has; the path's last segment
 * names the field (`body.login` → `login`).
 */
export function serverFieldErrors<Name extends string>(
  error: unknown,
  names: readonly Name[],
): Partial<Record<Name, FieldErrorText>> {
  const out: Partial<Record<Name, FieldErrorText>> = {};
  if (!isApiError(error)) return out;
  for (const [path, code] of Object.entries(error.fields ?? {})) {
    const name = path.split(".").at(-1) as Name;
    if (names.includes(name)) out[name] = validationError(code);
  }
  return out;
}
