import { Input } from "@telegram-apps/telegram-ui";
import { type InputHTMLAttributes, useId } from "react";

type NativeProps = Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "value" | "onChange">;

/** A labelled input of a Settings section with its error under it (`data-field-error` = the contract's field). */
export function SettingsField({
  name,
  label,
  value,
  error,
  onValueChange,
  ...input
}: NativeProps & {
  name: string;
  label: string;
  value: string;
  error?: string | null;
  onValueChange(value: string): void;
}) {
  const id = useId();
  return (
    <div className="form-field">
      <Input
        {...input}
        name={name}
        header={label}
        aria-label={label}
        value={value}
        status={error ? "error" : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? id : undefined}
        onChange={(event) => onValueChange(event.target.value)}
      />
      {error ? (
        <p className="field-error" id={id} data-field-error={name}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The section's own error (the server's answer), above its submit. */
export function SectionError({ text }: { text: string | null }) {
  return (
    <div aria-live="assertive">
      {text ? (
        <div className="form-error" data-testid="form-error">
          <p>{text}</p>
        </div>
      ) : null}
    </div>
  );
}

/** A short confirmation under the submit once the change is saved. */
export function SectionSaved({ text }: { text: string | null }) {
  return (
    <p className="settings-saved" role="status" data-testid="form-success">
      {text ?? ""}
    </p>
  );
}
