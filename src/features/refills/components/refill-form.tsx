import { compareAmounts, type PaymentSystem, type Refill } from "@contract";
import { useMutation } from "@tanstack/react-query";
import { Section } from "@telegram-apps/telegram-ui";
import { type FormEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { AmountField } from "@/components/form/amount-field";
import { FormFooter } from "@/components/form/form-footer";
import { Select } from "@/components/form/select";
import { amountError, amountRule } from "@/lib/form/amount-rule";
import { serverFieldErrors, validationError } from "@/lib/form/field-errors";
import { focusField } from "@/lib/form/focus";
import { type FormError, formErrorOf, type Translate, textOfMessage } from "@/lib/form/messages";
import { type FieldErrors, firstInvalidField, useForm } from "@/lib/form/use-form";
import { haptics } from "@/tma/hooks";
import { useClosingConfirmation } from "@/tma/lifecycle";
import { isTxHash, refillMutations } from "../api/refill-queries";
import { TxHashField } from "./tx-hash-field";

type RefillValues = { paymentSystemId: string; amount: string; txHash: string };
const FIELDS = ["amount", "txHash"] as const;
/** The amount's rule shows as it is typed. */
const AS_TYPED = ["amount"] as const;

/**
 * A new refill: the payment system (currency and network), the amount, and the transaction hash if the
 * coins are already sent. The reply is the refill with the address to pay to, shown in the wallet dialog.
 */
export function RefillForm({
  systems,
  onCreated,
}: {
  systems: readonly PaymentSystem[];
  onCreated(refill: Refill): void;
}) {
  const { t } = useTranslation(["refill", "validation", "money"]);
  const formRef = useRef<HTMLFormElement>(null);
  const [formError, setFormError] = useState<FormError | null>(null);
  const systemOf = (id: string) => systems.find((s) => s.id === id) ?? systems[0];
  const form = useForm<RefillValues>({
    initial: { paymentSystemId: systems[0]?.id ?? "", amount: "", txHash: "" },
    asTyped: AS_TYPED,
    validate: (values) => {
      const errors: FieldErrors<RefillValues> = {};
      const chosen = systemOf(values.paymentSystemId);
      if (chosen) {
        const amount = amountRule(values.amount, chosen.currency, { min: "0" });
        if (!amount.ok) errors.amount = amount.error;
        else if (compareAmounts(amount.value, 0) === 0) errors.amount = amountError("amountBelowMinimum", { min: "0" });
      }
      // The hash is optional; typed, it must be one (the contract's TxHashField).
      const hash = values.txHash.trim();
      if (hash !== "" && !isTxHash(hash)) errors.txHash = validationError("required");
      return errors;
    },
  });
  const { amount, txHash } = form.values;
  const create = useMutation(refillMutations.create());
  const system = systemOf(form.values.paymentSystemId);

  const pending = create.isPending;
  useClosingConfirmation(amount.trim() !== "" || txHash.trim() !== "");

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (pending || !system) return;
    const errors = form.check();
    const rule = amountRule(amount, system.currency);
    const invalid = firstInvalidField(FIELDS, errors);
    if (invalid || !rule.ok) {
      haptics.notify("error");
      focusField(formRef.current, invalid ?? "amount");
      return;
    }
    setFormError(null);
    const hash = txHash.trim();
    create.mutate(
      { paymentSystemId: system.id, amount: rule.value, ...(hash ? { txHash: hash } : {}) },
      {
        onSuccess: (refill) => {
          haptics.notify("success");
          form.reset({ paymentSystemId: system.id, amount: "", txHash: "" });
          onCreated(refill);
        },
        onError: (error) => {
          haptics.notify("error");
          form.setServerErrors(serverFieldErrors(error, ["txHash"]));
          setFormError(formErrorOf(error));
        },
      },
    );
  };

  if (!system) return null;
  return (
    <form ref={formRef} className="money-form" onSubmit={submit} noValidate>
      <Section header={t("form.header")}>
        <Select
          header={t("form.paymentSystem")}
          aria-label={t("form.paymentSystem")}
          name="paymentSystemId"
          value={system.id}
          onChange={(event) => form.set("paymentSystemId", event.target.value)}
        >
          {systems.map((s) => (
            <option key={s.id} value={s.id}>
              {`${s.currency} · ${s.network}`}
            </option>
          ))}
        </Select>
        <AmountField
          label={t("form.amount")}
          currency={system.currency}
          placeholder="100"
          {...form.field("amount")}
          // Said with the screen's own texts, at once (a rule's words are loaded with the form).
          error={form.errors.amount ? textOfMessage(t as unknown as Translate, form.errors.amount) : null}
          onValueChange={(value) => {
            form.set("amount", value);
            setFormError(null);
          }}
        />
        <TxHashField label={t("form.txHash")} {...form.field("txHash")} invalid={Boolean(form.errors.txHash)} />
      </Section>
      <FormFooter money error={formError} form={formRef} submitText={t("form.submit")} pending={pending} />
    </form>
  );
}
