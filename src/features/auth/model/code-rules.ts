import { CodeField } from "@contract";
import { type FieldErrorText, validationError } from "./field-errors";
import { codeOf } from "./password-rules";

/** The contract's rule for a 6-digit code (decision D5). */
export function codeErrors(values: { code: string }): { code?: FieldErrorText } {
  const code = codeOf(CodeField, values.code);
  return code ? { code: validationError(code) } : {};
}
