/**
 * The one text field of the cabinet's forms (issue 13's form kit; issue 9: every field labelled on
 * every platform). telegram-ui's `Input` shows its header only in the base look; in the iOS look
 * (iOS and macOS clients) the field had no visible label and no accessible name, so the label is
 * shown above the input there. Either way the input is named by its label, its error (or hint) sits
 * right under it and is tied to it for screen readers, and `data-field-error` names the contract's
 * field for tests.
 */
import { Input } from "@telegram-apps/telegram-ui";
import { type InputHTMLAttributes, type ReactNode, useId } from "react";
import { useUiPlatform } from "@/tma/hooks";

type NativeProps = Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "value" | "onChange">;

export interface TextFieldProps extends NativeProps {
  name: string;
  label: string;
  value: string;
  error?: ReactNode;
  /** Under the field (and its error): an available balance with "Max", a hint. */
  children?: ReactNode;
  /** After the input, inside its box: a currency code. */
  after?: ReactNode;
  onValueChange(value: string): void;
}

export function TextField({ name, label, value, error, children, after, onValueChange, ...input }: TextFieldProps) {
  const ios = useUiPlatform() === "ios";
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="form-field">
      {ios ? (
        <span className="field-label" id={`${id}-label`} aria-hidden="true">
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
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => onValueChange(event.target.value)}
      />
      {error ? (
        <p className="field-error" id={errorId} data-field-error={name}>
          {error}
        </p>
      ) : null}
      {children}
    </div>
  );
}
