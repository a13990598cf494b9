import { isTooSimple, NewPasswordField } from "@contract";
import { useMutation } from "@tanstack/react-query";
import { Button, Section } from "@telegram-apps/telegram-ui";
import { useAtomValue } from "jotai";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { SectionError, SectionSaved, SettingsField } from "@/components/settings-field";
import { isApiError } from "@/lib/api-client";
import { useApiErrorText } from "@/lib/error-text";
import { userAtom } from "@/lib/session";
import { haptics } from "@/tma/hooks";
import { securityMutations } from "../api/security-queries";

type Name = "oldPassword" | "password" | "passwordRepeat";
const EMPTY = { oldPassword: "", password: "", passwordRepeat: "" };

/** Password change: the old one must be right, the new one follows spec §5 and is typed twice. */
export function PasswordSection() {
  const { t } = useTranslation(["settings", "validation", "errors"]);
  const errorText = useApiErrorText();
  const login = useAtomValue(userAtom)?.login;
  const change = useMutation(securityMutations.changePassword());
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<Name, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);

  const set = (name: Name) => (value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors(({ [name]: _, ...rest }) => rest);
    setFormError(null);
    setSaved(null);
  };

  const validate = (): Partial<Record<Name, string>> => {
    const out: Partial<Record<Name, string>> = {};
    if (values.oldPassword === "") out.oldPassword = t("required", { ns: "validation" });
    const rule = NewPasswordField.safeParse(values.password);
    if (!rule.success)
      out.password = t((rule.error.issues[0]?.message ?? "required") as "required", { ns: "validation" });
    else if (isTooSimple(values.password, login)) out.password = t("passwordTooSimple", { ns: "validation" });
    if (values.passwordRepeat === "") out.passwordRepeat = t("required", { ns: "validation" });
    else if (values.passwordRepeat !== values.password)
      out.passwordRepeat = t("NEW_PASSWORDS_MISMATCH", { ns: "errors" });
    return out;
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (change.isPending) return;
    const found = validate();
    setErrors(found);
    if (Object.keys(found).length > 0) {
      haptics.notify("error");
      return;
    }
    change.mutate(values, {
      onSuccess: () => {
        haptics.notify("success");
        setValues(EMPTY);
        setSaved(t("password.changed"));
      },
      onError: (error) => {
        haptics.notify("error");
        const code = isApiError(error) ? error.code : undefined;
        if (code === "OLD_PASSWORD_INCORRECT") return setErrors({ oldPassword: errorText(error) });
        if (code === "NEW_PASSWORDS_MISMATCH") return setErrors({ passwordRepeat: errorText(error) });
        const fields = isApiError(error) ? error.fields : undefined;
        if (fields && Object.keys(fields).length > 0) {
          const next: Partial<Record<Name, string>> = {};
          for (const [path, c] of Object.entries(fields)) {
            const name = path.split(".").at(-1) as Name;
            next[name] = t(c as "required", { ns: "validation" });
          }
          return setErrors(next);
        }
        setFormError(errorText(error));
      },
    });
  };

  const field = (name: Name, label: string, autoComplete: string) => (
    <SettingsField
      name={name}
      label={label}
      type="password"
      autoComplete={autoComplete}
      autoCapitalize="off"
      spellCheck={false}
      value={values[name]}
      error={errors[name]}
      onValueChange={set(name)}
    />
  );

  return (
    <Section header={t("password.header")} footer={t("password.rules")} data-section="password">
      <form className="settings-form" onSubmit={submit} noValidate>
        {field("oldPassword", t("password.old"), "current-password")}
        {field("password", t("password.new"), "new-password")}
        {field("passwordRepeat", t("password.repeat"), "new-password")}
        <SectionError text={formError} />
        <div className="form-actions">
          <Button type="submit" size="l" stretched loading={change.isPending} data-testid="submit-password">
            {t("password.submit")}
          </Button>
        </div>
        <SectionSaved text={saved} />
      </form>
    </Section>
  );
}
