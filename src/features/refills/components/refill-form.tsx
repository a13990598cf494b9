import { compareAmounts, currencyScale, type PaymentSystem, type Refill } from "@contract";
import { useMutation } from "@tanstack/react-query";
import { Section } from "@telegram-apps/telegram-ui";
import { type FormEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { FormFooter } from "@/components/form/form-footer";
import { Select } from "@/components/form/select";
import { TextField } from "@/components/form/text-field";
import { isApiError } from "@/lib/api-client";
import { type FormError, formErrorOf } from "@/lib/form/messages";
import { parseAmountInput } from "@/lib/money";
import { haptics, useClosingConfirmation } from "@/tma/hooks";
import { isTxHash, refillMutations } from "../api/refill-queries";

type Note =
  | { ns: "validation"; key: "required" | "decimal" | "amountBelowMinimum" | "amountNegative" }
  | {
      ns: "money";
      key: "tooManyDecimals";
      scale: number;
    };

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
  const [systemId, setSystemId] = useState(systems[0]?.id ?? "");
  const [amountText, setAmountText] = useState("");
  const [txHash, setTxHash] = useState("");
  const [submitted, setSubmitted] = useState(false);
  const [txHashError, setTxHashError] = useState(false);
  const [formError, setFormError] = useState<FormError | null>(null);
  const create = useMutation(refillMutations.create());
  const system = systems.find((s) => s.id === systemId) ?? systems[0];
  const parsed = system ? parseAmountInput(amountText, system.currency) : null;

  const note: Note | null = (() => {
    if (!system || !parsed) return null;
    if (!parsed.ok) {
      if (parsed.issue === "required") return submitted ? { ns: "validation", key: "required" } : null;
      if (parsed.issue === "tooManyDecimals")
        return { ns: "money", key: "tooManyDecimals", scale: currencyScale(system.currency) };
      return { ns: "validation", key: "decimal" };
    }
    if (compareAmounts(parsed.value, 0) < 0) return { ns: "validation", key: "amountNegative" };
    if (compareAmounts(parsed.value, 0) === 0) return { ns: "validation", key: "amountBelowMinimum" };
    return null;
  })();

  const pending = create.isPending;
  useClosingConfirmation(amountText.trim() !== "" || txHash.trim() !== "");

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (pending || !system) return;
    setSubmitted(true);
    const hash = txHash.trim();
    const hashBad = hash !== "" && !isTxHash(hash);
    setTxHashError(hashBad);
    if (!parsed?.ok || note || hashBad) {
      haptics.notify("error");
      formRef.current
        ?.querySelector<HTMLInputElement>(hashBad && parsed?.ok ? "input[name='txHash']" : "input[name='amount']")
        ?.focus();
      return;
    }
    setFormError(null);
    create.mutate(
      { paymentSystemId: system.id, amount: parsed.value, ...(hash ? { txHash: hash } : {}) },
      {
        onSuccess: (refill) => {
          haptics.notify("success");
          setAmountText("");
          setTxHash("");
          setSubmitted(false);
          onCreated(refill);
        },
        onError: (error) => {
          haptics.notify("error");
          if (isApiError(error) && error.fields?.txHash) setTxHashError(true);
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
          onChange={(event) => setSystemId(event.target.value)}
        >
          {systems.map((s) => (
            <option key={s.id} value={s.id}>
              {`${s.currency} · ${s.network}`}
            </option>
          ))}
        </Select>
        <TextField
          name="amount"
          label={t("form.amount")}
          placeholder="100"
          inputMode="decimal"
          autoComplete="off"
          value={amountText}
          after={<span className="amount-currency">{system.currency}</span>}
          error={
            note === null
              ? null
              : note.ns === "money"
                ? t("tooManyDecimals", { ns: "money", scale: note.scale })
                : t(note.key, { ns: "validation", min: "0", max: "" })
          }
          onValueChange={(value) => {
            setAmountText(value);
            setFormError(null);
          }}
        />
        <TextField
          name="txHash"
          label={t("form.txHash")}
          placeholder={t("form.txHashPlaceholder")}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          value={txHash}
          error={txHashError ? t("txHashInvalid") : null}
          onValueChange={(value) => {
            setTxHash(value);
            setTxHashError(false);
          }}
        />
      </Section>
      <FormFooter error={formError} form={formRef} submitText={t("form.submit")} pending={pending} />
    </form>
  );
}
