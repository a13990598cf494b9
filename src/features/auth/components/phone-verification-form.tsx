import type { User } from "@contract";
import { useMutation } from "@tanstack/react-query";
import { Section } from "@telegram-apps/telegram-ui";
import { useAtom, useSetAtom } from "jotai";
import { type FormEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { CodeDestination } from "@/components/code-destination";
import { alerts } from "@/lib/alerts";
import { codeCooldownUntil, retryAfterSeconds, startCodeCooldown } from "@/lib/code-cooldown";
import { updateUserAtom } from "@/lib/session";
import { haptics } from "@/tma/hooks";
import { confirmPhone, resendPhoneCode } from "../api/phone-code";
import { useForm } from "../hooks/use-form";
import { codeErrors } from "../model/code-rules";
import { serverFieldErrors } from "../model/field-errors";
import { focusField } from "../model/focus";
import { type FormError, formErrorOf } from "../model/messages";
import { phoneCodeSentAtom } from "../model/phone-code-sent";
import { CodeField, ResendCodeButton } from "./code-fields";
import { FormErrorBanner } from "./form-field";
import { FormSubmit } from "./form-submit";

/**
 * Confirms the phone by the 6-digit code (`POST /auth/phone/confirm`). The user, phone confirmed, is
 * saved and the guard takes them on. A new code can be requested once the wait is over.
 */
export function PhoneVerificationForm({ user }: { user: User }) {
  const { t } = useTranslation("auth");
  const formRef = useRef<HTMLFormElement>(null);
  const form = useForm({ initial: { code: "" }, validate: codeErrors });
  const [formError, setFormError] = useState<FormError | null>(null);
  const [resendUntil, setResendUntil] = useState(() => codeCooldownUntil("phone", user.id));
  const updateUser = useSetAtom(updateUserAtom);
  const [codeSent, setCodeSent] = useAtom(phoneCodeSentAtom);

  const confirm = useMutation({ mutationFn: confirmPhone });
  const resend = useMutation({ mutationFn: resendPhoneCode });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (confirm.isPending) return;
    if (form.check().code) {
      haptics.notify("error");
      focusField(formRef.current, "code");
      return;
    }
    setFormError(null);
    confirm.mutate(form.values.code, {
      onSuccess: (reply) => {
        haptics.notify("success");
        alerts.success("VERIFICATION_SUCCEEDED");
        updateUser(reply.user);
      },
      onError: (error) => {
        haptics.notify("error");
        form.setServerErrors(serverFieldErrors(error, ["code"]));
        setFormError(formErrorOf(error));
      },
    });
  };

  const requestCode = () => {
    if (resend.isPending) return;
    setFormError(null);
    resend.mutate(undefined, {
      onSuccess: (reply) => {
        haptics.notify("success");
        alerts.success("CODE_SENT");
        setCodeSent(reply);
        setResendUntil(startCodeCooldown("phone", user.id, reply.resendAfterSeconds));
        form.reset({ code: "" });
        focusField(formRef.current, "code");
      },
      onError: (error) => {
        haptics.notify("error");
        const wait = retryAfterSeconds(error);
        if (wait) setResendUntil(startCodeCooldown("phone", user.id, wait));
        setFormError(formErrorOf(error));
      },
    });
  };

  return (
    <form ref={formRef} className="auth-form" onSubmit={submit} noValidate>
      <Section header={t("phoneVerification.title")} footer={t("phoneVerification.text", { phone: user.phone ?? "" })}>
        <CodeField
          value={form.values.code}
          error={form.errors.code}
          onValueChange={(value) => form.set("code", value)}
          onBlur={() => form.blur("code")}
        />
        <CodeDestination sent={codeSent} signedIn />
      </Section>
      <FormErrorBanner error={formError} />
      <FormSubmit form={formRef} text={t("phoneVerification.submit")} pending={confirm.isPending} />
      <ResendCodeButton until={resendUntil} pending={resend.isPending} onResend={requestCode} />
    </form>
  );
}
