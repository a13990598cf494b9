/**
 * The client-side rules of spec §5 for registration and the new password, taken from the contract's
 * field schemas (contract/validation.ts) so the app and the server can never disagree. Each failure is
 * a validation code; its text lives in `locales/<lng>/validation.json`. Loaded with the registration
 * and password-reset screens only (the contract brings zod).
 */
import {
  EmailField,
  isTooSimple,
  LoginField,
  NewPasswordField,
  PhoneField,
  RegisterBody,
  type ValidationCode,
} from "@contract";
import { type FieldErrorText, validationError } from "@/lib/form/field-errors";
import { codeOf } from "@/lib/form/rules";

function error(code: ValidationCode | undefined): FieldErrorText | undefined {
  return code ? validationError(code) : undefined;
}

/** A new password and its repeat: characters, strength (with the login, as the server checks), match. */
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

export interface RegisterValues {
  [field: string]: string | boolean;
  login: string;
  fullName: string;
  email: string;
  phone: string;
  password: string;
  passwordRepeat: string;
  acceptTerms: boolean;
}

export const REGISTER_FIELDS = [
  "login",
  "fullName",
  "email",
  "phone",
  "password",
  "passwordRepeat",
  "acceptTerms",
] as const satisfies readonly (keyof RegisterValues)[];

const fullNameField = RegisterBody.shape.fullName;

/** Each field's first failing rule, exactly as `RegisterBody` of the contract checks them. */
export function registerErrors(values: RegisterValues): Partial<Record<keyof RegisterValues & string, FieldErrorText>> {
  const errors: Partial<Record<string, FieldErrorText | undefined>> = {
    login: error(codeOf(LoginField, values.login)),
    fullName: error(codeOf(fullNameField, values.fullName)),
    email: error(codeOf(EmailField, values.email)),
    phone: error(codeOf(PhoneField, values.phone)),
    ...newPasswordErrors(values, values.login),
    acceptTerms: values.acceptTerms ? undefined : validationError("termsNotAccepted"),
  };
  return Object.fromEntries(Object.entries(errors).filter(([, e]) => e !== undefined)) as Partial<
    Record<keyof RegisterValues & string, FieldErrorText>
  >;
}
