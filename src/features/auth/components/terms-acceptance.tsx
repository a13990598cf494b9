import { Cell, Checkbox } from "@telegram-apps/telegram-ui";
import { useId } from "react";
import { Trans } from "react-i18next";
import { FieldNote } from "@/components/form/text-field";
import { termsPath } from "@/config/paths";
import type { FieldErrorText } from "@/lib/form/field-errors";
import { Link } from "@/lib/router";

export interface TermsAcceptanceProps {
  checked: boolean;
  error?: FieldErrorText;
  onChange(checked: boolean): void;
  onBlur(): void;
}

/** "I accept the public offer and the user agreement", each a link to its text (the form keeps its input). */
export function TermsAcceptance({ checked, error, onChange, onBlur }: TermsAcceptanceProps) {
  const id = useId();
  const noteId = `${id}-note`;
  const labelId = `${id}-label`;
  return (
    <div className="form-field">
      <Cell
        Component="label"
        multiline
        className={error ? "terms-cell terms-cell-error" : "terms-cell"}
        before={
          <Checkbox
            name="acceptTerms"
            aria-labelledby={labelId}
            checked={checked}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? noteId : undefined}
            onChange={(event) => onChange(event.target.checked)}
            onBlur={onBlur}
          />
        }
      >
        {/* The links sit where each language puts the words (Kazakh puts the verb last). */}
        <span id={labelId}>
          <Trans
            ns="registration"
            i18nKey="register.acceptTerms"
            components={{
              offer: <Link to={termsPath("offer")} className="terms-link" data-testid="terms-offer" />,
              agreement: <Link to={termsPath("agreement")} className="terms-link" data-testid="terms-agreement" />,
            }}
          />
        </span>
      </Cell>
      <FieldNote id={noteId} name="acceptTerms" error={error} />
    </div>
  );
}
