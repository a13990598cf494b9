import type { CodeSentReply, Withdrawal } from "@contract";
import { useMutation } from "@tanstack/react-query";
import { Button, Input, Section } from "@telegram-apps/telegram-ui";
import { type FormEvent, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { CodeDestination } from "@/components/code-destination";
import { alerts, pushAlert } from "@/lib/alerts";
import { isApiError } from "@/lib/api-client";
import { formatCountdown, retryAfterSeconds, startCodeCooldown } from "@/lib/code-cooldown";
import { useApiErrorText } from "@/lib/error-text";
import { amountAttributes, useMoneyFormat } from "@/lib/money";
import { useCountdown } from "@/lib/use-countdown";
import { haptics, useClosingConfirmation, useMainButton } from "@/tma/hooks";
import { withdrawalMutations } from "../api/withdrawal-queries";

const CODE_PATTERN = /^\d{6}$/;

/**
 * The code step of a withdrawal awaiting its code (decision D5): the 6-digit code confirms it; a new
 * code after the wait; cancel returns the reserved amount. Every refusal is told in the spec's words.
 * It confirms what is asked — the amount, the fee, what arrives and the whole address — and says where
 * the code went (the server's reply names the channel).
 */
export function WithdrawalCodeStep({
  withdrawal,
  resendUntil: initialResendUntil,
  sent: initialSent,
  onFinished,
}: {
  withdrawal: Withdrawal;
  /** The reply of the call that sent the code (absent when resuming from the history). */
  sent?: CodeSentReply | null;
  /** When a new code may be requested (epoch ms); null when at once. */
  resendUntil: number | null;
  /** The application was confirmed or cancelled (or is no longer awaiting): back to the form. */
  onFinished(): void;
}) {
  const { t } = useTranslation(["withdrawal", "validation"]);
  const format = useMoneyFormat();
  const errorText = useApiErrorText();
  const formRef = useRef<HTMLFormElement>(null);
  const errorId = useId();
  const [code, setCode] = useState("");
  const [codeError, setCodeError] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [attemptsLeft, setAttemptsLeft] = useState<string | null>(null);
  const [resendUntil, setResendUntil] = useState(initialResendUntil);
  const [sent, setSent] = useState(initialSent ?? null);
  const seconds = useCountdown(resendUntil);
  const validate = useMutation(withdrawalMutations.validate());
  const resend = useMutation(withdrawalMutations.resend());
  const cancel = useMutation(withdrawalMutations.cancel());
  const busy = validate.isPending || cancel.isPending;
  useClosingConfirmation(code !== "");

  const fail = (error: unknown) => {
    haptics.notify("error");
    setFormError(errorText(error));
    setAttemptsLeft(isApiError(error) && error.code === "CODE_MISMATCH" ? (error.params?.attemptsLeft ?? null) : null);
  };

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (busy) return;
    if (!CODE_PATTERN.test(code)) {
      setCodeError(true);
      haptics.notify("error");
      formRef.current?.querySelector<HTMLInputElement>("input[name='code']")?.focus();
      return;
    }
    setFormError(null);
    validate.mutate(
      { withdrawalId: withdrawal.id, code },
      {
        onSuccess: (confirmed) => {
          haptics.notify("success");
          // `replace`: the "code sent" alert still showing is out of date.
          pushAlert({
            tone: "success",
            replace: true,
            text: {
              ns: "withdrawal",
              key: "done",
              params: { amount: format.amount(confirmed.amountToReceive, confirmed.currency) },
            },
          });
          setCode("");
          onFinished();
        },
        onError: fail,
      },
    );
  };

  const requestNewCode = () => {
    if (resend.isPending || seconds > 0) return;
    setFormError(null);
    resend.mutate(withdrawal.id, {
      onSuccess: (reply) => {
        haptics.notify("success");
        alerts.success("CODE_SENT");
        setAttemptsLeft(null);
        setSent(reply);
        setResendUntil(startCodeCooldown("withdrawal", withdrawal.id, reply.resendAfterSeconds));
      },
      onError: (error) => {
        const wait = retryAfterSeconds(error);
        if (wait) setResendUntil(startCodeCooldown("withdrawal", withdrawal.id, wait));
        fail(error);
      },
    });
  };

  const cancelWithdrawal = () => {
    if (busy) return;
    setFormError(null);
    cancel.mutate(withdrawal.id, {
      onSuccess: () => {
        haptics.notify("success");
        pushAlert({ tone: "info", text: { ns: "withdrawal", key: "cancelled" }, replace: true });
        setCode("");
        onFinished();
      },
      onError: fail,
    });
  };

  const inTelegram = useMainButton({
    text: t("code.submit"),
    loading: validate.isPending,
    enabled: !cancel.isPending,
    onClick: () => submit(),
  });

  return (
    <form ref={formRef} className="money-form" onSubmit={submit} noValidate data-step="code">
      <Section header={t("code.header")}>
        <p className="withdrawal-code-note" data-testid="code-note">
          {t("code.sent", {
            amount: format.amount(withdrawal.amount, withdrawal.currency),
            wallet: withdrawal.wallet,
          })}
        </p>
        {sent ? <CodeDestination sent={sent} /> : null}
        <dl className="money-facts withdrawal-preview">
          <div>
            <dt>{t("history.amount")}</dt>
            <dd data-testid="code-step-amount" {...amountAttributes(withdrawal.amount, withdrawal.currency)}>
              {format.amount(withdrawal.amount, withdrawal.currency, { exact: true })}
            </dd>
          </div>
          <div>
            <dt>{t("form.fee")}</dt>
            <dd {...amountAttributes(withdrawal.fee, withdrawal.currency)}>
              {format.amount(withdrawal.fee, withdrawal.currency, { exact: true })}
            </dd>
          </div>
          <div>
            <dt>{t("form.toReceive")}</dt>
            <dd {...amountAttributes(withdrawal.amountToReceive, withdrawal.currency)}>
              {format.amount(withdrawal.amountToReceive, withdrawal.currency, { exact: true })}
            </dd>
          </div>
          <div className="withdrawal-preview-wallet">
            <dt>{t("history.wallet")}</dt>
            <dd
              className="withdrawal-mono"
              data-testid="code-step-wallet"
            >{`${withdrawal.wallet} · ${withdrawal.network}`}</dd>
          </div>
        </dl>
        <div className="form-field">
          <Input
            name="code"
            header={t("code.label")}
            aria-label={t("code.label")}
            placeholder={t("code.placeholder")}
            className="code-input"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            maxLength={6}
            enterKeyHint="done"
            value={code}
            status={codeError ? "error" : undefined}
            aria-invalid={codeError ? true : undefined}
            aria-describedby={errorId}
            onChange={(event) => {
              // Digits only: a pasted "123 456" becomes the code.
              setCode(event.target.value.replace(/\D/g, "").slice(0, 6));
              setCodeError(false);
              setFormError(null);
            }}
          />
          {codeError ? (
            <p className="field-error" id={errorId} data-field-error="code">
              {t("codeFormat", { ns: "validation" })}
            </p>
          ) : null}
        </div>
      </Section>
      <div aria-live="assertive">
        {formError ? (
          <div className="form-error" data-testid="form-error">
            <p>{formError}</p>
            {attemptsLeft !== null ? (
              <p className="form-error-note">{t("code.attemptsLeft", { count: Number(attemptsLeft) })}</p>
            ) : null}
          </div>
        ) : null}
      </div>
      {inTelegram ? (
        <button type="submit" className="visually-hidden" tabIndex={-1} aria-hidden="true" />
      ) : (
        <div className="form-actions">
          <Button type="submit" size="l" stretched loading={validate.isPending} data-testid="submit">
            {t("code.submit")}
          </Button>
        </div>
      )}
      <div className="form-actions resend-actions withdrawal-code-actions">
        <Button
          type="button"
          mode="plain"
          size="m"
          stretched
          className="resend-button"
          loading={resend.isPending}
          disabled={seconds > 0 || resend.isPending}
          onClick={requestNewCode}
          data-testid="resend"
          aria-live="polite"
        >
          {seconds > 0 ? t("code.resendIn", { time: formatCountdown(seconds) }) : t("code.resend")}
        </Button>
        <Button
          type="button"
          mode="plain"
          size="m"
          stretched
          className="withdrawal-cancel"
          loading={cancel.isPending}
          disabled={busy}
          onClick={cancelWithdrawal}
          data-testid="cancel-withdrawal"
        >
          {t("code.cancel")}
        </Button>
      </div>
    </form>
  );
}
