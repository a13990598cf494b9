import type { ErrorCode, Language } from "@contract";
import { useMutation } from "@tanstack/react-query";
import { Section } from "@telegram-apps/telegram-ui";
import { useSetAtom } from "jotai";
import { type FormEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { FormFooter } from "@/components/form/form-footer";
import { TextField } from "@/components/form/text-field";
import { LanguageSection } from "@/components/language-switcher";
import { toSupportedLanguage } from "@/config/i18n";
import { alerts } from "@/lib/alerts";
import { isApiError } from "@/lib/api-client";
import { DEFAULT_RESEND_SECONDS, startCodeCooldown } from "@/lib/code-cooldown";
import { type FieldErrorText, serverFieldErrors } from "@/lib/form/field-errors";
import { focusField } from "@/lib/form/focus";
import { type FormError, formErrorOf } from "@/lib/form/messages";
import { usePasswordRulesText } from "@/lib/form/password-rules-text";
import { type FieldErrors, firstInvalidField, useForm } from "@/lib/form/use-form";
import { forgetReferral } from "@/lib/referral";
import { signInAtom } from "@/lib/session";
import { haptics } from "@/tma/hooks";
import { register } from "../api/register";
import { REGISTER_FIELDS, type RegisterValues, registerErrors } from "../model/password-rules";
import { phoneCodeSentAtom } from "../model/phone-code-sent";
import { EMPTY_REGISTRATION, registerDraftAtom } from "../model/register-draft";
import { NewPasswordFields } from "./auth-fields";
import { InviterCell } from "./inviter-cell";
import { TermsAcceptance } from "./terms-acceptance";

/** 409 replies and the field each belongs to. */
const TAKEN: Partial<Record<ErrorCode, "login" | "email" | "phone">> = {
  LOGIN_TAKEN: "login",
  EMAIL_TAKEN: "email",
  PHONE_TAKEN: "phone",
};

export interface RegisterFormProps {
  /** The inviter's login; undefined while it is looked up, null when none could be found. */
  inviter: string | null | undefined;
  inviterLoading: boolean;
}

/**
 * Registration (`POST /auth/register/<inviter>`): the contract's field rules
 * (docs/cabinet-rules.md#field-rules) checked on leaving a field and on submit, the server's answers shown at
 * the field they concern. The new user is signed in and the entry guard takes them to phone verification.
 */
export function RegisterForm({ inviter, inviterLoading }: RegisterFormProps) {
  const { t, i18n } = useTranslation(["auth", "registration"]);
  const passwordRules = usePasswordRulesText();
  const formRef = useRef<HTMLFormElement>(null);
  const form = useForm<RegisterValues>({
    initial: EMPTY_REGISTRATION,
    validate: registerErrors,
    state: registerDraftAtom,
  });
  const [formError, setFormError] = useState<FormError | null>(null);
  const [inviterError, setInviterError] = useState<FieldErrorText | undefined>();
  const startSession = useSetAtom(signInAtom);
  const setPhoneCodeSent = useSetAtom(phoneCodeSentAtom);
  const mutation = useMutation({
    mutationFn: (input: { inviter: string; body: Parameters<typeof register>[1] }) =>
      register(input.inviter, input.body),
  });

  const failed = (error: unknown) => {
    haptics.notify("error");
    const taken = isApiError(error) && error.code ? TAKEN[error.code] : undefined;
    if (isApiError(error) && error.code && taken) {
      // Next to the field it concerns, and as an alert (the field may be scrolled out of sight).
      form.setServerErrors({ [taken]: { ns: "errors", key: error.code } } as FieldErrors<RegisterValues>);
      alerts.error(error.code);
      setFormError(null);
      focusField(formRef.current, taken);
      return;
    }
    const fields = serverFieldErrors(error, [...REGISTER_FIELDS]);
    form.setServerErrors(fields);
    if (isApiError(error) && error.fields?.inviter)
      setInviterError({ ns: "registration", key: "register.inviterNotFound" });
    setFormError(formErrorOf(error));
    const first = firstInvalidField(REGISTER_FIELDS, fields);
    if (first) focusField(formRef.current, first);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (mutation.isPending) return;
    const first = firstInvalidField(REGISTER_FIELDS, form.check());
    if (first) {
      haptics.notify("error");
      focusField(formRef.current, first);
      return;
    }
    if (!inviter) {
      haptics.notify("error");
      setFormError({
        message: { ns: "errors", key: "REGISTRATION_FAILED" },
        note: { ns: "registration", key: "register.inviterUnknown" },
      });
      return;
    }
    setFormError(null);
    setInviterError(undefined);
    const { values } = form;
    const language: Language | undefined = toSupportedLanguage(i18n.resolvedLanguage ?? i18n.language);
    mutation.mutate(
      {
        inviter,
        body: {
          login: values.login.trim(),
          fullName: values.fullName.trim(),
          email: values.email.trim(),
          phone: values.phone.trim(),
          password: values.password,
          passwordRepeat: values.passwordRepeat,
          acceptTerms: true,
          ...(language ? { language } : {}),
        },
      },
      {
        onSuccess: (session) => {
          haptics.notify("success");
          // The server sent the first phone code with the registration: the next one only after the wait.
          startCodeCooldown("phone", session.user.id, DEFAULT_RESEND_SECONDS);
          setPhoneCodeSent(session.phoneCode ?? null);
          form.reset(EMPTY_REGISTRATION);
          forgetReferral();
          startSession(session);
        },
        onError: failed,
      },
    );
  };

  return (
    <form ref={formRef} className="auth-form" onSubmit={submit} noValidate>
      <Section header={t("register.title", { ns: "registration" })}>
        <InviterCell inviter={inviter} loading={inviterLoading} error={inviterError} />
      </Section>
      <Section header={t("register.account", { ns: "registration" })}>
        <TextField
          {...form.field("login")}
          label={t("fields.login")}
          placeholder={t("placeholders.login")}
          autoComplete="username"
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
        />
        <TextField
          {...form.field("fullName")}
          label={t("fields.fullName")}
          placeholder={t("placeholders.fullName")}
          autoComplete="name"
          autoCapitalize="words"
        />
      </Section>
      <Section header={t("register.contacts", { ns: "registration" })}>
        <TextField
          {...form.field("email")}
          type="email"
          inputMode="email"
          label={t("fields.email")}
          placeholder={t("placeholders.email")}
          autoComplete="email"
          autoCapitalize="off"
          spellCheck={false}
        />
        <TextField
          {...form.field("phone")}
          type="tel"
          inputMode="tel"
          label={t("fields.phone")}
          placeholder={t("placeholders.phone")}
          autoComplete="tel"
          hint={t("register.phoneHint", { ns: "registration" })}
        />
      </Section>
      <Section header={t("register.security", { ns: "registration" })}>
        <NewPasswordFields
          password={form.field("password")}
          repeat={form.field("passwordRepeat")}
          label={t("fields.password")}
          rules={passwordRules}
        />
      </Section>
      <LanguageSection header={t("fields.language")} />
      <Section>
        <TermsAcceptance
          checked={form.values.acceptTerms}
          error={form.errors.acceptTerms}
          onChange={(checked) => form.set("acceptTerms", checked)}
          onBlur={() => form.blur("acceptTerms")}
        />
      </Section>
      <FormFooter
        form={formRef}
        submitText={t("register.submit", { ns: "registration" })}
        pending={mutation.isPending}
        disabled={inviterLoading}
        error={formError}
      />
    </form>
  );
}
