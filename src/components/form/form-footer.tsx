/**
 * The end of every form (the form kit, docs/decisions.md#the-form-kit): the form's error or success
 * (announced), and its submit — Telegram's Main button inside Telegram (the form then keeps a hidden submit so
 * Enter on the keyboard still submits), a stretched button on the web.
 */
import { Button } from "@telegram-apps/telegram-ui";
import { type ReactNode, type RefObject, Suspense } from "react";
import { useTranslation } from "react-i18next";
import type { FormError } from "@/lib/form/messages";
import { useMainButton } from "@/tma/hooks";
import { MessageText } from "./message-text";

export interface FormFooterProps {
  /** The form the submit sends (Telegram's Main button sends it through `requestSubmit`). */
  form: RefObject<HTMLFormElement | null>;
  submitText: string;
  pending: boolean;
  disabled?: boolean;
  error: FormError | null | undefined;
  success?: string | null;
  submitTestId?: string;
  /** In a dialog: the second action (Cancel, Close) beside the submit. */
  secondary?: ReactNode;
  /** A money form: inside Telegram vertical swipes only scroll while it shows. */
  money?: boolean;
}

export function FormFooter({
  form,
  submitText,
  pending,
  disabled = false,
  error,
  success,
  submitTestId = "submit",
  secondary,
  money = false,
}: FormFooterProps) {
  const inTelegram = useMainButton({
    money,
    text: submitText,
    loading: pending,
    enabled: !disabled,
    onClick: () => form.current?.requestSubmit(),
  });
  const submit = inTelegram ? (
    <button type="submit" className="visually-hidden" tabIndex={-1} aria-hidden="true" />
  ) : (
    <Button
      type="submit"
      size="l"
      stretched
      className="form-submit"
      loading={pending}
      disabled={disabled}
      data-testid={submitTestId}
    >
      {submitText}
    </Button>
  );
  return (
    <>
      <FormErrorBanner error={error} success={success} />
      {secondary !== undefined ? (
        <div className="money-dialog-actions">
          {submit}
          {secondary}
        </div>
      ) : inTelegram ? (
        submit
      ) : (
        <div className="form-actions">{submit}</div>
      )}
    </>
  );
}

function FormErrorNote({ error }: { error: FormError }) {
  const { t } = useTranslation("codes");
  if (error.attemptsLeft !== undefined)
    return <p className="form-error-note">{t("attemptsLeft", { count: error.attemptsLeft })}</p>;
  if (!error.note) return null;
  return (
    <p className="form-error-note">
      <MessageText message={error.note} />
    </p>
  );
}

/**
 * The form's own error (the server's answer, the connection) or its success. The live region stays in
 * the page so screen readers announce a message when it appears; the error's texts load when it is
 * first shown.
 */
export function FormErrorBanner({ error, success }: { error: FormError | null | undefined; success?: string | null }) {
  return (
    <div aria-live="assertive">
      {error ? (
        <Suspense fallback={null}>
          <div className="form-error" data-testid="form-error">
            <p>
              <MessageText message={error.message} />
            </p>
            <FormErrorNote error={error} />
          </div>
        </Suspense>
      ) : null}
      {success ? (
        <p className="form-success" data-testid="form-success">
          {success}
        </p>
      ) : null}
    </div>
  );
}

/**
 * A money form's confirmation step: the submit that sends it (Telegram's Main button inside Telegram) and a
 * way back to the form, which keeps what was typed; nothing is sent before the submit.
 */
export function ConfirmFooter({
  backText,
  backTestId,
  onBack,
  ...footer
}: Omit<FormFooterProps, "secondary"> & { backText: string; backTestId: string; onBack: () => void }) {
  return (
    <FormFooter
      {...footer}
      secondary={
        <Button
          size="l"
          stretched
          mode="bezeled"
          type="button"
          disabled={footer.pending}
          onClick={onBack}
          data-testid={backTestId}
        >
          {backText}
        </Button>
      }
    />
  );
}
