/**
 * The end of a money form (issue 13's form kit): the form's error or success message (announced),
 * and its submit — Telegram's Main button inside Telegram (the form then keeps a hidden submit so
 * Enter still submits), a stretched button on the web.
 */
import { Button } from "@telegram-apps/telegram-ui";
import type { ReactNode } from "react";

export function FormFooter({
  error,
  success,
  inTelegram,
  submitText,
  pending,
  disabled = false,
  submitTestId = "submit",
  secondary,
}: {
  error: string | null | undefined;
  success?: string | null;
  /** Whether Telegram's Main button is the submit (`useMainButton`'s answer). */
  inTelegram: boolean;
  submitText: string;
  pending: boolean;
  disabled?: boolean;
  submitTestId?: string;
  /** In a dialog: the second action (Cancel, Close) beside the submit. */
  secondary?: ReactNode;
}) {
  const submit = inTelegram ? (
    <button type="submit" className="visually-hidden" tabIndex={-1} aria-hidden="true" />
  ) : (
    <Button type="submit" size="l" stretched loading={pending} disabled={disabled} data-testid={submitTestId}>
      {submitText}
    </Button>
  );
  return (
    <>
      <div aria-live="assertive">
        {error ? (
          <div className="form-error" data-testid="form-error">
            <p>{error}</p>
          </div>
        ) : null}
        {success ? (
          <p className="form-success" data-testid="form-success">
            {success}
          </p>
        ) : null}
      </div>
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
