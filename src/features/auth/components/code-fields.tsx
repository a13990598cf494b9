import { Button } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import { formatCountdown } from "@/lib/code-cooldown";
import { useCountdown } from "@/lib/use-countdown";
import type { FieldErrorText } from "../model/field-errors";
import { TextField } from "./form-field";

export interface CodeFieldProps {
  value: string;
  error?: FieldErrorText;
  onValueChange(value: string): void;
  onBlur(): void;
}

/** The 6-digit code: a numeric keyboard, and the code from the message offered by the keyboard. */
export function CodeField({ value, error, onValueChange, onBlur }: CodeFieldProps) {
  const { t } = useTranslation("auth");
  return (
    <TextField
      name="code"
      label={t("fields.code")}
      placeholder={t("placeholders.code")}
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]*"
      maxLength={6}
      enterKeyHint="done"
      className="code-input"
      value={value}
      error={error}
      // Digits only: a pasted "123 456" or "123-456" becomes the code.
      onValueChange={(typed) => onValueChange(typed.replace(/\D/g, "").slice(0, 6))}
      onBlur={onBlur}
    />
  );
}

export interface ResendCodeButtonProps {
  /** When a new code may be requested (epoch ms); null when it may be at once. */
  until: number | null;
  pending: boolean;
  onResend(): void;
}

/** Requests a new code; disabled with a visible countdown until the server allows it (decision D5). */
export function ResendCodeButton({ until, pending, onResend }: ResendCodeButtonProps) {
  const { t } = useTranslation("auth");
  const seconds = useCountdown(until);
  const waiting = seconds > 0;
  return (
    <div className="form-actions resend-actions">
      <Button
        type="button"
        mode="plain"
        size="m"
        stretched
        className="resend-button"
        loading={pending}
        disabled={waiting || pending}
        onClick={onResend}
        data-testid="resend"
        aria-live="polite"
      >
        {waiting ? t("code.resendIn", { time: formatCountdown(seconds) }) : t("code.resend")}
      </Button>
    </div>
  );
}
