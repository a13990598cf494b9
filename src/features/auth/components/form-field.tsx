import { Input } from "@telegram-apps/telegram-ui";
import { type InputHTMLAttributes, type ReactNode, Suspense, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { useUiPlatform } from "@/tma/hooks";
import type { FieldErrorText } from "../model/field-errors";
import type { FormError } from "../model/messages";
import { MessageText } from "./message-text";

type NativeInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "value" | "onChange" | "onBlur">;

export interface TextFieldProps extends NativeInputProps {
  /** The contract's field name (also the test hook `data-field-error`). */
  name: string;
  label: string;
  value: string;
  error?: FieldErrorText;
  hint?: string;
  after?: ReactNode;
  onValueChange(value: string): void;
  onBlur?(): void;
}

/** The texts a field or form error may need; loaded when the user starts typing, not with the screen. */
const MESSAGE_NAMESPACES = ["validation", "errors"];

/** A labelled input with its error (or hint) right under it, tied to it for screen readers. */
export function TextField({
  name,
  label,
  value,
  error,
  hint,
  after,
  placeholder,
  onValueChange,
  onBlur,
  ...input
}: TextFieldProps) {
  const { i18n } = useTranslation();
  // telegram-ui's iOS look shows no header above the input: there the placeholder has to name the field.
  const ios = useUiPlatform() === "ios";
  const id = useId();
  const noteId = `${id}-note`;
  return (
    <div className="form-field">
      <Input
        {...input}
        name={name}
        header={label}
        placeholder={ios ? label : placeholder}
        aria-label={label}
        value={value}
        status={error ? "error" : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || hint ? noteId : undefined}
        after={after}
        onChange={(event) => onValueChange(event.target.value)}
        // By the time the field is left, its error text is at hand (no wait for the first error).
        onFocus={() => void i18n.loadNamespaces(MESSAGE_NAMESPACES)}
        onBlur={onBlur}
      />
      <FieldNote id={noteId} name={name} error={error} hint={hint} />
    </div>
  );
}

/** A field's error (or, without one, its hint) under the input. */
export function FieldNote({
  id,
  name,
  error,
  hint,
}: {
  id: string;
  name: string;
  error?: FieldErrorText;
  hint?: string;
}) {
  if (error) {
    return (
      // The rule texts load with the first error; the field does not wait for them.
      <Suspense fallback={null}>
        <p className="field-error" id={id} data-field-error={name}>
          <MessageText message={error} />
        </p>
      </Suspense>
    );
  }
  if (!hint) return null;
  return (
    <p className="field-hint" id={id}>
      {hint}
    </p>
  );
}

function EyeIcon({ crossed }: { crossed: boolean }) {
  return (
    <svg
      width="22"
      height="22"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      aria-hidden="true"
    >
      <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z" />
      <circle cx="12" cy="12" r="3" />
      {crossed ? <path d="M4 4l16 16" strokeLinecap="round" /> : null}
    </svg>
  );
}

/** A password input with a show/hide switch (typing a long password on a phone blind is error-prone). */
export function PasswordField(props: Omit<TextFieldProps, "type" | "after">) {
  const { t } = useTranslation("auth");
  const [visible, setVisible] = useState(false);
  return (
    <TextField
      {...props}
      type={visible ? "text" : "password"}
      autoCapitalize="off"
      autoCorrect="off"
      spellCheck={false}
      after={
        <button
          type="button"
          className="password-toggle"
          aria-label={visible ? t("hidePassword") : t("showPassword")}
          aria-pressed={visible}
          onClick={() => setVisible((v) => !v)}
        >
          <EyeIcon crossed={visible} />
        </button>
      }
    />
  );
}

function FormErrorNote({ error }: { error: FormError }) {
  const { t } = useTranslation("auth");
  if (error.attemptsLeft !== undefined)
    return <p className="form-error-note">{t("code.attemptsLeft", { count: error.attemptsLeft })}</p>;
  if (!error.note) return null;
  return (
    <p className="form-error-note">
      <MessageText message={error.note} />
    </p>
  );
}

/**
 * The form's own error (the server's answer, the connection), above the submit. The live region stays
 * in the page so screen readers announce an error when it appears.
 */
export function FormErrorBanner({ error }: { error: FormError | null }) {
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
    </div>
  );
}
