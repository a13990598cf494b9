import type { ComponentProps } from "react";
import { useTranslation } from "react-i18next";
import { PasswordField } from "@/components/form/password-field";
import { TextField } from "@/components/form/text-field";

type Binding = Omit<ComponentProps<typeof PasswordField>, "label" | "placeholder" | "autoComplete" | "hint">;

/** The "login or e-mail" field of the sign-in and the password reset: a password manager's user name. */
export function LoginOrEmailField(props: Omit<ComponentProps<typeof TextField>, "label" | "placeholder">) {
  const { t } = useTranslation("auth");
  return (
    <TextField
      {...props}
      label={t("fields.loginOrEmail")}
      placeholder={t("placeholders.loginOrEmail")}
      autoComplete="username"
      autoCapitalize="off"
      autoCorrect="off"
      spellCheck={false}
    />
  );
}

/**
 * A new password and its repeat, as the registration and the password reset ask for them: the rules under the
 * first, both filled by a password manager's suggestion (`new-password`).
 */
export function NewPasswordFields({
  password,
  repeat,
  label,
  rules,
}: {
  password: Binding;
  repeat: Binding;
  label: string;
  rules: string | undefined;
}) {
  const { t } = useTranslation("auth");
  return (
    <>
      <PasswordField
        {...password}
        label={label}
        placeholder={t("placeholders.newPassword")}
        autoComplete="new-password"
        hint={rules}
      />
      <PasswordField
        {...repeat}
        label={t("fields.passwordRepeat")}
        placeholder={t("placeholders.passwordRepeat")}
        autoComplete="new-password"
      />
    </>
  );
}
