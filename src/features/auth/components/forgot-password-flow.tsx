import { useMutation } from "@tanstack/react-query";
import { ButtonCell, Section } from "@telegram-apps/telegram-ui";
import { type FormEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { CodeDestination } from "@/components/code-destination";
import { CodeStep } from "@/components/form/code-step";
import { FormFooter } from "@/components/form/form-footer";
import { paths } from "@/config/paths";
import { alerts } from "@/lib/alerts";
import { isApiError } from "@/lib/api-client";
import { startCodeCooldown } from "@/lib/code-cooldown";
import { requiredError, serverFieldErrors } from "@/lib/form/field-errors";
import { focusField } from "@/lib/form/focus";
import { type FormError, formErrorOf } from "@/lib/form/messages";
import { usePasswordRulesText } from "@/lib/form/password-rules-text";
import { newPasswordErrors } from "@/lib/form/rules";
import { type FieldErrors, firstInvalidField, useForm } from "@/lib/form/use-form";
import { useNavigate } from "@/lib/router";
import { haptics } from "@/tma/hooks";
import { requestPasswordReset, setNewPassword, validateResetCode } from "../api/password-reset";
import type { SignInAgainState } from "../model/sign-in-again";
import { LoginOrEmailField, NewPasswordFields } from "./auth-fields";

export type ForgotPasswordStep = "request" | "code" | "password";

type RequestValues = { login: string };

function requestErrors(values: RequestValues): FieldErrors<RequestValues> {
  return values.login.trim() === "" ? { login: requiredError } : {};
}

function failed(setFormError: (error: FormError) => void) {
  return (error: unknown) => {
    haptics.notify("error");
    // For these calls a refusal shows the server's message: its code's text, else its words
    // (docs/cabinet-rules.md#api-calls, "Failures").
    setFormError(formErrorOf(error));
  };
}

/** Step 1: the login or e-mail of the account → a code is sent. */
function RequestStep({ login, onSent }: { login: string; onSent(login: string, resendAfterSeconds: number): void }) {
  const { t } = useTranslation("recovery");
  const formRef = useRef<HTMLFormElement>(null);
  const form = useForm<RequestValues>({ initial: { login }, validate: requestErrors });
  const [formError, setFormError] = useState<FormError | null>(null);
  const mutation = useMutation({ mutationFn: requestPasswordReset });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (mutation.isPending) return;
    if (form.check().login) {
      haptics.notify("error");
      focusField(formRef.current, "login");
      return;
    }
    setFormError(null);
    const typed = form.values.login.trim();
    mutation.mutate(typed, {
      onSuccess: (reply) => {
        haptics.notify("success");
        alerts.success("CODE_SENT");
        onSent(typed, reply.resendAfterSeconds);
      },
      onError: (error) => {
        form.setServerErrors(serverFieldErrors(error, ["login"]));
        failed(setFormError)(error);
      },
    });
  };

  return (
    <form ref={formRef} className="auth-form" onSubmit={submit} noValidate data-step="request">
      <Section header={t("forgotPassword.title")} footer={t("forgotPassword.requestText")}>
        <LoginOrEmailField {...form.field("login")} />
      </Section>
      <FormFooter
        form={formRef}
        submitText={t("forgotPassword.sendCode")}
        pending={mutation.isPending}
        error={formError}
      />
    </form>
  );
}

/** Step 2: the code from the message → a reset token. A new code after the wait. */
function ResetCodeStep({
  login,
  onValid,
  onOtherLogin,
}: {
  login: string;
  onValid(resetToken: string): void;
  onOtherLogin(): void;
}) {
  const { t } = useTranslation("recovery");
  return (
    <CodeStep
      purpose="password_reset"
      subject={login}
      header={t("forgotPassword.title")}
      footer={t("forgotPassword.codeText", { login })}
      submitText={t("forgotPassword.checkCode")}
      confirm={{ mutationFn: (code: string) => validateResetCode(login, code) }}
      onConfirmed={(reply) => onValid(reply.resetToken)}
      resend={{ mutationFn: () => requestPasswordReset(login) }}
      actions={() => (
        <Section>
          <ButtonCell onClick={onOtherLogin}>{t("forgotPassword.otherLogin")}</ButtonCell>
        </Section>
      )}
    >
      {/* The reset's reply does not tell the channel (nor whether the login exists): the three are named. */}
      <CodeDestination sent={null} />
    </CodeStep>
  );
}

function tokenSpent(error: unknown): boolean {
  return isApiError(error) && (error.code === "CODE_EXPIRED" || error.code === "CODE_INVALID");
}

type PasswordValues = { password: string; passwordRepeat: string };
const PASSWORD_FIELDS = ["password", "passwordRepeat"] as const;

/** Step 3: the new password (the rules of registration) → saved; back to sign-in with the login filled. */
function PasswordStep({ login, resetToken, onRestart }: { login: string; resetToken: string; onRestart(): void }) {
  const { t } = useTranslation(["recovery", "auth"]);
  const passwordRules = usePasswordRulesText();
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);
  // An e-mail is not a login: only a login can be part of the password.
  const asLogin = login.includes("@") ? undefined : login;
  const form = useForm<PasswordValues>({
    initial: { password: "", passwordRepeat: "" },
    validate: (values) => {
      const errors = newPasswordErrors(values, asLogin);
      return Object.fromEntries(Object.entries(errors).filter(([, e]) => e)) as FieldErrors<PasswordValues>;
    },
  });
  const [formError, setFormError] = useState<FormError | null>(null);
  const mutation = useMutation({ mutationFn: setNewPassword });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (mutation.isPending) return;
    const first = firstInvalidField(PASSWORD_FIELDS, form.check());
    if (first) {
      haptics.notify("error");
      focusField(formRef.current, first);
      return;
    }
    setFormError(null);
    mutation.mutate(
      { resetToken, password: form.values.password, passwordRepeat: form.values.passwordRepeat },
      {
        onSuccess: () => {
          haptics.notify("success");
          // It replaces what is still queued ('Request successfully sent' is old news on the login screen).
          alerts.recoverySuccess("forgotPassword.done", { replace: true });
          navigate(paths.login, { replace: true, state: { login } satisfies SignInAgainState });
        },
        onError: (error) => {
          form.setServerErrors(serverFieldErrors(error, PASSWORD_FIELDS));
          failed(setFormError)(error);
        },
      },
    );
  };

  return (
    <form ref={formRef} className="auth-form" onSubmit={submit} noValidate data-step="password">
      {/* For password managers: whose password this is. */}
      <input type="text" name="username" autoComplete="username" value={login} readOnly hidden />
      <Section header={t("forgotPassword.title")} footer={t("forgotPassword.passwordText", { login })}>
        <NewPasswordFields
          password={form.field("password")}
          repeat={form.field("passwordRepeat")}
          label={t("fields.newPassword", { ns: "auth" })}
          rules={passwordRules}
        />
      </Section>
      <FormFooter
        form={formRef}
        submitText={t("forgotPassword.savePassword")}
        pending={mutation.isPending}
        error={formError}
      />
      {tokenSpent(mutation.error) ? (
        // The reset token ran out (15 minutes) or was used: only a new code helps.
        <Section>
          <ButtonCell onClick={onRestart}>{t("forgotPassword.startOver")}</ButtonCell>
        </Section>
      ) : null}
    </form>
  );
}

/**
 * Password recovery (docs/cabinet-rules.md#statuses-and-flows): the reset request, then the code is validated,
 * then a new password is set; then back to sign-in with the login filled in.
 */
export function ForgotPasswordFlow() {
  const [step, setStep] = useState<ForgotPasswordStep>("request");
  const [login, setLogin] = useState("");
  const [resetToken, setResetToken] = useState("");

  if (step === "request") {
    return (
      <RequestStep
        login={login}
        onSent={(typed, resendAfterSeconds) => {
          startCodeCooldown("password_reset", typed, resendAfterSeconds);
          setLogin(typed);
          setStep("code");
        }}
      />
    );
  }
  if (step === "code") {
    return (
      <ResetCodeStep
        key={login}
        login={login}
        onOtherLogin={() => setStep("request")}
        onValid={(token) => {
          setResetToken(token);
          setStep("password");
        }}
      />
    );
  }
  return <PasswordStep login={login} resetToken={resetToken} onRestart={() => setStep("request")} />;
}
