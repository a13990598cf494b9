import { Input } from "@telegram-apps/telegram-ui";
import { useId, useRef } from "react";
import { useTranslation } from "react-i18next";
import { FieldLabel } from "@/components/form/text-field";
import { formatDate } from "@/lib/dates";

/**
 * A date field that reads in the app's language ("25.11.2026", "25 нояб. 2026 г.", "Nov 25, 2026"):
 * the browser's own date input shows the browser's format (US order in an English browser, whatever
 * the cabinet's language). The native input still does the work — it lies, transparent, over the
 * shown text, so a tap opens the platform's date picker and the keyboard edits it as usual.
 * The label is the form kit's `<label for>` of the native input, placed as `TextField` places its own.
 */
export function DateField({
  name,
  label,
  value,
  min,
  max,
  placeholder,
  error,
  onValueChange,
}: {
  name: string;
  label: string;
  /** `YYYY-MM-DD` or "". */
  value: string;
  min?: string;
  max?: string;
  placeholder?: string;
  error?: string | null;
  onValueChange(value: string): void;
}) {
  const { i18n } = useTranslation();
  const native = useRef<HTMLInputElement>(null);
  const errorId = useId();
  const id = useId();
  // Local noon: the same calendar day in every time zone.
  const shown = value ? formatDate(`${value}T12:00:00`, i18n.resolvedLanguage ?? i18n.language) : "";
  return (
    <div className="form-field" data-testid={`date-field-${name}`} data-invalid={error ? "true" : undefined}>
      <FieldLabel htmlFor={id}>{label}</FieldLabel>
      <div className="date-field">
        <Input
          value={shown}
          placeholder={placeholder}
          readOnly
          tabIndex={-1}
          aria-hidden="true"
          status={error ? "error" : undefined}
          data-testid="date-field-shown"
        />
        <input
          ref={native}
          id={id}
          className="date-field-native"
          type="date"
          name={name}
          value={value}
          min={min}
          max={max}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onClick={() => {
            try {
              native.current?.showPicker?.();
            } catch {
              // Not allowed here (no user gesture, or an engine without it): the input still edits.
            }
          }}
          onChange={(event) => onValueChange(event.target.value)}
        />
      </div>
      {error ? (
        <p className="field-error" id={errorId} data-field-error={name}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
