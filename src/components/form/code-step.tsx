/**
 * The one code step (docs/decisions.md#the-form-kit, #d5-codes): the 6-digit code checked by the contract's
 * rule, its submit as the form's footer (Telegram's Main button inside Telegram), a new code once the
 * wait is over (one cooldown for every purpose, kept for the tab), every refusal in the catalogue's words
 * with the attempts left. The phone confirmation, the password reset and the withdrawal use it; what
 * each confirms and where its code went are its children.
 */
import { type UseMutationOptions, useMutation } from "@tanstack/react-query";
import { Button, Section } from "@telegram-apps/telegram-ui";
import { type FormEvent, type ReactNode, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { alerts } from "@/lib/alerts";
import {
  type CodePurpose,
  codeCooldownUntil,
  formatCountdown,
  retryAfterSeconds,
  startCodeCooldown,
} from "@/lib/code-cooldown";
import { serverFieldErrors } from "@/lib/form/field-errors";
import { focusField } from "@/lib/form/focus";
import { type FormError, formErrorOf } from "@/lib/form/messages";
import { codeErrors } from "@/lib/form/rules";
import { useForm } from "@/lib/form/use-form";
import { useCountdown } from "@/lib/use-countdown";
import { haptics } from "@/tma/hooks";
import { useClosingConfirmation } from "@/tma/lifecycle";
import { FormFooter } from "./form-footer";
import { TextField } from "./text-field";

/** What the step's extra actions (cancel, another login) may do with its error line. */
interface CodeStepControls {
  fail(error: unknown): void;
  clearError(): void;
  /** The code is being checked. */
  confirming: boolean;
}

export interface CodeStepProps<Confirmed, Sent extends { resendAfterSeconds: number }> {
  /** What the code confirms and whose it is: the wait for a new code is kept per purpose and subject. */
  purpose: CodePurpose;
  subject: string;
  /** The code confirms a money action (a withdrawal): vertical swipes only scroll meanwhile. */
  money?: boolean;
  header: ReactNode;
  footer?: ReactNode;
  /** In the section before the field: what the code confirms. */
  intro?: ReactNode;
  /** In the section after the field: where the code went. */
  children?: ReactNode;
  submitText: string;
  /** Checks the code (its `meta` invalidates what the answer changes). */
  confirm: UseMutationOptions<Confirmed, Error, string>;
  onConfirmed(reply: NoInfer<Confirmed>): void;
  /** Sends a new code. */
  resend: UseMutationOptions<Sent, Error, void>;
  onResent?(reply: NoInfer<Sent>): void;
  /** Another action runs (a cancel): the submit waits. */
  busy?: boolean;
  /** Closing the Mini App asks first while a code is typed (a money step). */
  confirmClosing?: boolean;
  className?: string;
  /** Under the resend: another way out (cancel the withdrawal, another login). */
  actions?(controls: CodeStepControls): ReactNode;
}

export function CodeStep<Confirmed, Sent extends { resendAfterSeconds: number }>({
  purpose,
  subject,
  money = false,
  header,
  footer,
  intro,
  children,
  submitText,
  confirm: confirmOptions,
  onConfirmed,
  resend: resendOptions,
  onResent,
  busy = false,
  confirmClosing = false,
  className = "auth-form",
  actions,
}: CodeStepProps<Confirmed, Sent>) {
  const { t } = useTranslation("codes");
  const formRef = useRef<HTMLFormElement>(null);
  const form = useForm({ initial: { code: "" }, validate: codeErrors });
  const [formError, setFormError] = useState<FormError | null>(null);
  const [resendUntil, setResendUntil] = useState(() => codeCooldownUntil(purpose, subject));
  const seconds = useCountdown(resendUntil);
  const confirm = useMutation(confirmOptions);
  const resend = useMutation(resendOptions);
  useClosingConfirmation(confirmClosing && form.values.code !== "");

  const fail = (error: unknown) => {
    haptics.notify("error");
    setFormError(formErrorOf(error));
  };

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (confirm.isPending || busy) return;
    if (form.check().code) {
      haptics.notify("error");
      focusField(formRef.current, "code");
      return;
    }
    setFormError(null);
    confirm.mutate(form.values.code, {
      onSuccess: (reply) => {
        haptics.notify("success");
        form.reset({ code: "" });
        onConfirmed(reply);
      },
      onError: (error) => {
        form.setServerErrors(serverFieldErrors(error, ["code"]));
        fail(error);
      },
    });
  };

  const requestCode = () => {
    if (resend.isPending || seconds > 0) return;
    setFormError(null);
    resend.mutate(undefined, {
      onSuccess: (reply) => {
        haptics.notify("success");
        alerts.success("CODE_SENT");
        setResendUntil(startCodeCooldown(purpose, subject, reply.resendAfterSeconds));
        form.reset({ code: "" });
        focusField(formRef.current, "code");
        onResent?.(reply);
      },
      onError: (error) => {
        const wait = retryAfterSeconds(error);
        if (wait) setResendUntil(startCodeCooldown(purpose, subject, wait));
        fail(error);
      },
    });
  };

  return (
    <form ref={formRef} className={className} onSubmit={submit} noValidate data-step="code">
      <Section header={header} footer={footer}>
        {intro}
        <TextField
          name="code"
          label={t("label")}
          placeholder={t("placeholder")}
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={6}
          enterKeyHint="done"
          className="code-input"
          value={form.values.code}
          error={form.errors.code}
          // Digits only: a pasted "123 456" or "123-456" becomes the code.
          onValueChange={(typed) => {
            form.set("code", typed.replace(/\D/g, "").slice(0, 6));
            setFormError(null);
          }}
          onBlur={() => form.blur("code")}
        />
        {children}
      </Section>
      <FormFooter
        form={formRef}
        submitText={submitText}
        pending={confirm.isPending}
        disabled={busy}
        error={formError}
        money={money}
      />
      <div className="form-actions resend-actions">
        <Button
          type="button"
          mode="plain"
          size="m"
          stretched
          className="resend-button"
          loading={resend.isPending}
          disabled={seconds > 0 || resend.isPending}
          onClick={requestCode}
          data-testid="resend"
          aria-live="polite"
        >
          {seconds > 0 ? t("resendIn", { time: formatCountdown(seconds) }) : t("resend")}
        </Button>
      </div>
      {actions?.({ fail, clearError: () => setFormError(null), confirming: confirm.isPending })}
    </form>
  );
}
