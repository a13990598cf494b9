/**
 * The one text field of every form (docs/decisions.md#the-form-kit; #accessibility: every field labelled on every
 * platform). telegram-ui's `Input` shows its header only in the base look; in the iOS look (iOS and
 * macOS clients) the label is shown above the input. Either way the input is named by its label, its
 * error (or, without one, its hint) sits right under it and is tied to it for screen readers, and
 * `data-field-error` names the contract's field for tests.
 */
import { Input } from "@telegram-apps/telegram-ui";
import { type InputHTMLAttributes, type ReactNode, Suspense, useId } from "react";
import { useTranslation } from "react-i18next";
import type { Message } from "@/lib/form/messages";
import { useUiPlatform } from "@/tma/hooks";
import { MessageText } from "./message-text";

type NativeProps = Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "value" | "onChange" | "onBlur">;

/** A field's error: a message (its text loads when it is first shown) or a text at hand. */
export type FieldError = Message | string | null | undefined;

export interface TextFieldProps extends NativeProps {
  /** The contract's field name (also the test hook `data-field-error`). */
  name: string;
  label: string;
  value: string;
  error?: FieldError;
  /** Under the field when it has no error. */
  hint?: string;
  /** Under the field (and its error): an available balance with "Max". */
  children?: ReactNode;
  /** After the input, inside its box: a currency code, the password switch. */
  after?: ReactNode;
  onValueChange(value: string): void;
  onBlur?(): void;
}

/** The texts a field or form error may need; loaded when the user starts typing, not with the screen. */
const MESSAGE_NAMESPACES = ["validation", "errors"];

export function TextField({
  name,
  label,
  value,
  error,
  hint,
  children,
  after,
  onValueChange,
  onBlur,
  ...input
}: TextFieldProps) {
  const { i18n } = useTranslation();
  const ios = useUiPlatform() === "ios";
  const id = useId();
  const noteId = `${id}-note`;
  const noted = Boolean(error) || Boolean(hint);
  return (
    <div className="form-field">
      {ios ? (
        <span className="field-label" aria-hidden="true">
          {label}
        </span>
      ) : null}
      <Input
        {...input}
        name={name}
        header={label}
        aria-label={label}
        value={value}
        after={after}
        status={error ? "error" : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={noted ? noteId : undefined}
        onChange={(event) => onValueChange(event.target.value)}
        // By the time the field is left, its error text is at hand (no wait for the first error).
        onFocus={() => void i18n.loadNamespaces(MESSAGE_NAMESPACES)}
        onBlur={onBlur}
      />
      <FieldNote id={noteId} name={name} error={error} hint={hint} />
      {children}
    </div>
  );
}

/** A field's error (or, without one, its hint) under it. */
export function FieldNote({ id, name, error, hint }: { id: string; name: string; error?: FieldError; hint?: string }) {
  if (error) {
    return (
      // The rule texts load with the first error; the field does not wait for them.
      <Suspense fallback={null}>
        <p className="field-error" id={id} data-field-error={name}>
          {typeof error === "string" ? error : <MessageText message={error} />}
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
