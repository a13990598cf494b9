import { Section } from "@telegram-apps/telegram-ui";
import { useSetAtom } from "jotai";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { FormFooter } from "@/components/form/form-footer";
import { PasswordField } from "@/components/form/password-field";
import { requiredError, serverFieldErrors } from "@/lib/form/field-errors";
import { focusField } from "@/lib/form/focus";
import { type FormError, formErrorOf } from "@/lib/form/messages";
import { type FieldErrors, firstInvalidField, useForm } from "@/lib/form/use-form";
import { useInFlight } from "@/lib/form/use-in-flight";
import { useReferral } from "@/lib/referral";
import { signInAtom } from "@/lib/session";
import { haptics } from "@/tma/hooks";
import { login } from "../api/login";
import { LoginOrEmailField } from "./auth-fields";

const FIELDS = ["login", "password"] as const;
type LoginValues = { login: string; password: string };

/**
 * The login screen checks only that both fields are filled (docs/cabinet-rules.md#field-rules); the server
 * judges the rest.
 */
function validateLogin(values: LoginValues): FieldErrors<LoginValues> {
  const errors: FieldErrors<LoginValues> = {};
  if (values.login.trim() === "") errors.login = requiredError;
  if (values.password === "") errors.password = requiredError;
  return errors;
}

export interface LoginFormProps {
  /** Prefilled login (after a password reset). */
  initialLogin?: string;
  /** An error from elsewhere to show until the next attempt (a failed Telegram sign-in). */
  notice?: FormError | null;
}

/**
 * Login (or e-mail) and password → `POST /auth/login`. The session is saved and the entry guard takes
 * the user on (to `next`, the cabinet, or phone verification). A refusal keeps what was typed.
 */
export function LoginForm({ initialLogin = "", notice = null }: LoginFormProps) {
  const { t } = useTranslation("auth");
  // A visitor of an invitation link lands here first (`/login?next=/?ref=<login>`): the registration they may
  // go on to keeps the inviter.
  useReferral();
  const formRef = useRef<HTMLFormElement>(null);
  const form = useForm<LoginValues>({ initial: { login: initialLogin, password: "" }, validate: validateLogin });
  const [formError, setFormError] = useState<FormError | null>(notice);
  useEffect(() => setFormError(notice), [notice]);
  const startSession = useSetAtom(signInAtom);
  // Not a TanStack mutation: its observer would be 1.4 KB more on the first screen.
  const [pending, inFlight] = useInFlight();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    return inFlight(async () => {
      const first = firstInvalidField(FIELDS, form.check());
      if (first) {
        haptics.notify("error");
        focusField(formRef.current, first);
        return;
      }
      setFormError(null);
      try {
        const session = await login({ login: form.values.login.trim(), password: form.values.password });
        haptics.notify("success");
        startSession(session);
      } catch (error) {
        haptics.notify("error");
        form.setServerErrors(serverFieldErrors(error, FIELDS));
        setFormError(formErrorOf(error));
      }
    });
  };

  return (
    <form ref={formRef} className="auth-form" onSubmit={(event) => void submit(event)} noValidate>
      <Section header={t("login.title")}>
        <LoginOrEmailField {...form.field("login")} enterKeyHint="next" />
        <PasswordField
          {...form.field("password")}
          label={t("fields.password")}
          placeholder={t("placeholders.password")}
          autoComplete="current-password"
          enterKeyHint="go"
        />
      </Section>
      <FormFooter form={formRef} submitText={t("login.submit")} pending={pending} error={formError} />
    </form>
  );
}
