/**
 * The client-side field rules (docs/cabinet-rules.md#field-rules) for registration and the new password, taken
 * from the contract's field schemas (contract/validation.ts) so the app and the server can never disagree. Each
 * failure is a validation code; its text lives in `locales/<lng>/validation.json`. Loaded with the registration
 * and password-reset screens only (the contract brings zod).
 */
import { EmailField, LoginField, PhoneField, RegisterBody, type ValidationCode } from "@contract";
import { type FieldErrorText, validationError } from "@/lib/form/field-errors";
import { codeOf, newPasswordErrors } from "@/lib/form/rules";

function error(code: ValidationCode | undefined): FieldErrorText | undefined {
  return code ? validationError(code) : undefined;
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
