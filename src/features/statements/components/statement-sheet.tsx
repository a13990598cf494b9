import { CURRENCY_CODES } from "@contract/enums";
import { Section } from "@telegram-apps/telegram-ui";
import { type FormEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { DateField } from "@/components/date-field";
import { FilterSelect } from "@/components/form/filter-select";
import { FormFooter } from "@/components/form/form-footer";
import { Sheet } from "@/components/sheet";
import { type FieldErrorText, requiredError, serverFieldErrors } from "@/lib/form/field-errors";
import { type FormError, formErrorOf, type Translate, textOfMessage } from "@/lib/form/messages";
import { useInFlight } from "@/lib/form/use-in-flight";
import { haptics } from "@/tma/hooks";
import { downloadStatement, type StatementDelivery, type StatementPeriod } from "../api/statement-download";
import type { StatementDraft } from "../model/period";

/**
 * "Download statement": a period (this month unless changed) and optionally one currency, then the CSV
 * file of those operations (features/statements/api). What the server refuses (a period over a year, too
 * many statements in an hour) is said in the catalogue's words; what was typed stays (`draft` lives with
 * the screen, so closing and opening the sheet keeps it too).
 */
export function StatementSheet({
  draft,
  onDraftChange,
  onClose,
}: {
  draft: StatementDraft;
  onDraftChange(draft: StatementDraft): void;
  onClose(): void;
}) {
  const { t } = useTranslation(["operations", "validation", "errors", "auth", "common"]);
  const formRef = useRef<HTMLFormElement>(null);
  const [pending, inFlight] = useInFlight();
  const [formError, setFormError] = useState<FormError | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<"from" | "to", FieldErrorText>>>({});
  const [done, setDone] = useState<Exclude<StatementDelivery, "cancelled"> | null>(null);
  const text = (message: FieldErrorText | undefined) =>
    message ? textOfMessage(t as unknown as Translate, message) : null;

  const set = (patch: Partial<StatementDraft>) => {
    onDraftChange({ ...draft, ...patch });
    setFieldErrors((errors) => ({ ...errors, ...Object.fromEntries(Object.keys(patch).map((k) => [k, undefined])) }));
    setFormError(null);
    setDone(null);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    return inFlight(async () => {
      const missing = {
        ...(draft.from ? {} : { from: requiredError }),
        ...(draft.to ? {} : { to: requiredError }),
      };
      setFieldErrors(missing);
      if (Object.keys(missing).length > 0) return;
      const period: StatementPeriod = { from: draft.from, to: draft.to, currency: draft.currency || undefined };
      setFormError(null);
      setDone(null);
      try {
        const delivery = await downloadStatement(period);
        if (delivery !== "cancelled") {
          setDone(delivery);
          haptics.notify("success");
        }
      } catch (error) {
        haptics.notify("error");
        const fields = serverFieldErrors(error, ["from", "to"] as const);
        setFieldErrors(fields);
        if (Object.keys(fields).length === 0) setFormError(formErrorOf(error));
      }
    });
  };

  return (
    <Sheet onClose={onClose} data-testid="statement-sheet">
      <form
        ref={formRef}
        className="money-dialog money-form statement-form"
        onSubmit={(event) => void submit(event)}
        noValidate
      >
        <h2 className="money-dialog-title">{t("statement.title")}</h2>
        <Section footer={t("statement.hint")}>
          <div className="statement-period">
            <DateField
              name="from"
              label={t("statement.from")}
              value={draft.from}
              max={draft.to || undefined}
              error={text(fieldErrors.from)}
              onValueChange={(from) => set({ from })}
            />
            <DateField
              name="to"
              label={t("statement.to")}
              value={draft.to}
              min={draft.from || undefined}
              error={text(fieldErrors.to)}
              onValueChange={(to) => set({ to })}
            />
          </div>
          <FilterSelect
            name="currency"
            label={t("filters.currency")}
            allLabel={t("statement.allCurrencies")}
            value={draft.currency || undefined}
            options={CURRENCY_CODES}
            onChange={(currency) => set({ currency: currency ?? "" })}
          />
        </Section>
        <FormFooter
          form={formRef}
          submitText={t("statement.submit")}
          pending={pending}
          error={formError}
          success={done ? t(`statement.done.${done}`) : null}
          submitTestId="statement-submit"
        />
      </form>
    </Sheet>
  );
}
