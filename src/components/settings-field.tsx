import { TextField, type TextFieldProps } from "./form/text-field";

/** A labelled input of a Settings section: the form kit's one TextField. */
export function SettingsField({ error, ...props }: Omit<TextFieldProps, "error"> & { error?: string | null }) {
  return <TextField {...props} error={error} />;
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
