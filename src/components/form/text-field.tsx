/**
 * The one text field of every form (docs/decisions.md#the-form-kit; #accessibility: every field labelled on every
 * platform). Its label is a `<label for>`, not telegram-ui's header (an `h6`, which screen readers announced
 * as a heading and then again as the field's name): in the base look it sits in the frame's notch where
 * telegram-ui draws its header, in the iOS look (iOS and macOS clients) above the input. The input is named
 * by that label, its error (or, without one, its hint) sits right under it and is tied to it for screen
 * readers, and `data-field-error` names the contract's field for tests.
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

/**
 * A field's label, tied to its control by `for`: in the frame's notch (base look) or above the field (iOS
 * look). The field's wrapper (`.form-field`) colours it as telegram-ui coloured its header: the link colour
 * while the field has the focus, the destructive colour when it is invalid.
 */
export function FieldLabel({ htmlFor, id, children }: { htmlFor: string; id?: string; children: ReactNode }) {
  const ios = useUiPlatform() === "ios";
  return (
    <label className={ios ? "field-label" : "field-title"} htmlFor={htmlFor} id={id}>
      {children}
    </label>
  );
}

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
  const id = useId();
  const noteId = `${id}-note`;
  const labelId = `${id}-label`;
  const noted = Boolean(error) || Boolean(hint);
  return (
    <div className="form-field" data-invalid={error ? "true" : undefined}>
      <FieldLabel htmlFor={id} id={labelId}>
        {label}
      </FieldLabel>
      <Input
        {...input}
        id={id}
        name={name}
        // Named by the label alone: the frame around the input is a <label> too, holding the field's
        // extras (a currency code, the password switch), which must not join the name.
        aria-labelledby={labelId}
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
