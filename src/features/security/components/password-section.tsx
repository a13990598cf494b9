import { useMutation } from "@tanstack/react-query";
import { Section } from "@telegram-apps/telegram-ui";
import { useAtomValue } from "jotai";
import { type FormEvent, useCallback, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { FormFooter } from "@/components/form/form-footer";
import { PasswordField } from "@/components/form/password-field";
import { isApiError } from "@/lib/api-client";
import { requiredError, serverFieldErrors } from "@/lib/form/field-errors";
import { focusField } from "@/lib/form/focus";
import { type FormError, formErrorOf } from "@/lib/form/messages";
import { usePasswordRulesText } from "@/lib/form/password-rules-text";
import { newPasswordErrors } from "@/lib/form/rules";
import { type FieldErrors, firstInvalidField, useForm } from "@/lib/form/use-form";
import { userAtom } from "@/lib/session";
import { haptics } from "@/tma/hooks";
import { securityMutations } from "../api/security-queries";

type Values = { oldPassword: string; password: string; passwordRepeat: string };
const FIELDS = ["oldPassword", "password", "passwordRepeat"] as const;
const EMPTY: Values = { oldPassword: "", password: "", passwordRepeat: "" };

/**
 * Password change (the form kit): the old one must be right, the new one follows the field rules
 * (docs/cabinet-rules.md#field-rules) and is typed twice. Sent with Telegram's Main button inside Telegram.
 */
export function PasswordSection() {
  const { t } = useTranslation("settings");
  const passwordRules = usePasswordRulesText();
  const login = useAtomValue(userAtom)?.login;
  const change = useMutation(securityMutations.changePassword());
  const formRef = useRef<HTMLFormElement>(null);
  const validate = useCallback(
    (values: Values): FieldErrors<Values> => {
      const rules = newPasswordErrors(values, login);
      return {
        ...(values.oldPassword === "" ? { oldPassword: requiredError } : {}),
        ...(rules.password ? { password: rules.password } : {}),
        // The server's words for a repeat that differs ('New passwords do not match').
        ...(rules.passwordRepeat
          ? {
              passwordRepeat:
                values.passwordRepeat === ""
                  ? rules.passwordRepeat
                  : { ns: "errors" as const, key: "NEW_PASSWORDS_MISMATCH" as const },
            }
          : {}),
      };
    },
    [login],
  );
  const form = useForm<Values>({ initial: EMPTY, validate });
  const [formError, setFormError] = useState<FormError | null>(null);
  const [saved, setSaved] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (change.isPending) return;
    const invalid = firstInvalidField(FIELDS, form.check());
    if (invalid) {
      haptics.notify("error");
      focusField(formRef.current, invalid);
      return;
    }
    setFormError(null);
    change.mutate(form.values, {
      onSuccess: () => {
        haptics.notify("success");
        form.reset(EMPTY);
        setSaved(t("password.changed"));
      },
      onError: (error) => {
        haptics.notify("error");
        const code = isApiError(error) ? error.code : undefined;
        if (code === "OLD_PASSWORD_INCORRECT")
          return form.setServerErrors({ oldPassword: { ns: "errors", key: "OLD_PASSWORD_INCORRECT" } });
        if (code === "NEW_PASSWORDS_MISMATCH")
          return form.setServerErrors({ passwordRepeat: { ns: "errors", key: "NEW_PASSWORDS_MISMATCH" } });
        const fields = serverFieldErrors(error, FIELDS);
        if (Object.keys(fields).length > 0) return form.setServerErrors(fields);
        setFormError(formErrorOf(error));
      },
    });
  };

  // No check on leaving a field: its rules show from the first submit on.
  const field = (name: (typeof FIELDS)[number], label: string, autoComplete: string) => (
    <PasswordField
      name={name}
      label={label}
      autoComplete={autoComplete}
      value={form.values[name]}
      error={form.errors[name]}
      onValueChange={(value) => {
        form.set(name, value);
        setFormError(null);
        setSaved(null);
      }}
    />
  );

  return (
    <Section header={t("password.header")} footer={passwordRules} data-section="password">
      <form ref={formRef} className="settings-form" onSubmit={submit} noValidate>
        {field("oldPassword", t("password.old"), "current-password")}
        {field("password", t("password.new"), "new-password")}
        {field("passwordRepeat", t("password.repeat"), "new-password")}
        <FormFooter
          form={formRef}
          submitText={t("password.submit")}
          pending={change.isPending}
          error={formError}
          success={saved}
          submitTestId="submit-password"
        />
      </form>
    </Section>
  );
}
