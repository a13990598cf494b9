/**
 * Field rules of the cabinet (docs/cabinet-rules.md#field-rules), shared by the app's forms and the server.
 * Each failing rule reports a validation code (contract/errors.ts VALIDATION_CODES); the texts live in
 * `locales/<lng>/validation.json`.
 */
import * as z from "zod/mini";
import { COMMON_PASSWORDS } from "./common-passwords";
import { deferred } from "./deferred";

/** Login minimum length (docs/cabinet-rules.md#limits). */
export const LOGIN_MIN_LENGTH = 4;
export const LOGIN_MAX_LENGTH = 32;
/** The strength floor: a password shorter than this is "too simple" (documented in the API reference). */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 64;

const LATIN_AND_DIGITS = /^[A-Za-z0-9]+$/;

/**
 * C0 control characters (NUL…US, except tab, line feed and carriage return), DEL, and UTF-16
 * surrogates without their pair: nothing a person types, and NUL is refused by PostgreSQL.
 */
const FORBIDDEN_CHARACTERS =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is its purpose.
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether `value` holds a control character or a lone surrogate (see `text`). */
export const hasForbiddenCharacters = (value: string) => FORBIDDEN_CHARACTERS.test(value);

/**
 * Every text a request carries (body, query, path): a string without control characters or lone
 * surrogates ("textCharacters"). The other text rules build on it.
 */
export const text = () =>
  z.string({ error: "required" }).check(z.refine((v) => !hasForbiddenCharacters(v), { error: "textCharacters" }));

/** A required text: empty (after trimming) → "required". */
export const requiredText = () => text().check(z.trim(), z.minLength(1, { error: "required" }));

export const LoginField = deferred(() =>
  requiredText().check(
    z.maxLength(LOGIN_MAX_LENGTH, { error: "loginCharacters" }),
    z.regex(LATIN_AND_DIGITS, { error: "loginCharacters" }),
    z.minLength(LOGIN_MIN_LENGTH, { error: "loginTooShort" }),
  ),
);

/**
 * "Too simple" (docs/cabinet-rules.md#field-rules): shorter than PASSWORD_MIN_LENGTH, without both a letter and
 * a digit, one repeated character, or on the list of common passwords (case-insensitive).
 */
export function isTooSimple(password: string, login?: string): boolean {
  const lower = password.toLowerCase();
  if (password.length < PASSWORD_MIN_LENGTH) return true;
  if (!/[A-Za-z]/.test(password) || !/\d/.test(password)) return true;
  if (new Set(lower).size <= 2) return true;
  if (COMMON_PASSWORDS.has(lower)) return true;
  if (login && login.length >= LOGIN_MIN_LENGTH && lower.includes(login.toLowerCase())) return true;
  return false;
}

/** Latin letters and digits only, no spaces, and not too simple. */
export const NewPasswordField = deferred(() =>
  text().check(
    z.minLength(1, { error: "required" }),
    z.maxLength(PASSWORD_MAX_LENGTH, { error: "passwordCharacters" }),
    z.regex(LATIN_AND_DIGITS, { error: "passwordCharacters" }),
    z.refine((p) => !isTooSimple(p), { error: "passwordTooSimple" }),
  ),
);

/** A password being checked (login, old password): only required. */
export const PasswordField = deferred(() => text().check(z.minLength(1, { error: "required" })));

/** Begins with a plus sign, digits only after it (docs/cabinet-rules.md#field-rules); 7 to 15 digits as in E.164. */
export const PhoneField = deferred(() => requiredText().check(z.regex(/^\+\d{7,15}$/, { error: "phoneFormat" })));

export const EmailField = deferred(() => z.pipe(requiredText(), z.email({ error: "emailInvalid" })));

/** Digits of a verification code (docs/decisions.md#d5-codes). */
export const CODE_LENGTH = 6;

/** A 6-digit code (docs/decisions.md#d5-codes). */
export const CodeField = deferred(() => requiredText().check(z.regex(/^\d{6}$/, { error: "codeFormat" })));
