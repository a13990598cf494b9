import {
  type CryptoCase,
  type CurrencyAmounts,
  compareAmounts,
  currencyScale,
  type DepositTerms,
  depositAmountIssue,
  depositTerms,
  type Plan,
  type ValidationCode,
} from "@contract";
import { useMutation } from "@tanstack/react-query";
import { Cell, Section, Switch } from "@telegram-apps/telegram-ui";
import { type FormEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { FormFooter } from "@/components/form/form-footer";
import { Select } from "@/components/form/select";
import { TextField } from "@/components/form/text-field";
import { isApiError } from "@/lib/api-client";
import { type FormError, formErrorOf } from "@/lib/form/messages";
import { localizedText } from "@/lib/localized";
import { amountAttributes, parseAmountInput, useMoneyFormat } from "@/lib/money";
import { haptics, useClosingConfirmation } from "@/tma/hooks";
import { depositMutations } from "../api/deposit-queries";
import { DepositPreview } from "./deposit-preview";

export interface DepositFormProps {
  plans: readonly Plan[];
  /** The user's balances (the payment method shows what the plan's currency balance holds). */
  balances: CurrencyAmounts | undefined;
  /** The crypto case the deposit opens through (`plans` are then its plans), or none. */
  cryptoCase?: CryptoCase | null;
}

type AmountNote =
  | { kind: "validation"; code: ValidationCode; min?: string; max?: string }
  | { kind: "tooManyDecimals"; scale: number }
  | { kind: "insufficient" };

/**
 * Opening a deposit (docs/decisions.md#d6-deposits): plan, payment method, amount, auto-investment. The result is
 * computed as the user types with the contract's `depositTerms`, the function the server opens the
 * deposit with, and the amount rule (`depositAmountIssue`) shows under the field.
 */
export function DepositForm({ plans, balances, cryptoCase = null }: DepositFormProps) {
  const { t } = useTranslation(["deposits", "validation", "money", "errors"]);
  const format = useMoneyFormat();
  const formRef = useRef<HTMLFormElement>(null);
  const [planId, setPlanId] = useState(plans[0]?.id ?? "");
  const [amountText, setAmountText] = useState("");
  const [autoInvest, setAutoInvest] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [serverAmountCode, setServerAmountCode] = useState<ValidationCode | null>(null);
  const [formError, setFormError] = useState<FormError | null>(null);
  const [opened, setOpened] = useState(false);
  const create = useMutation(depositMutations.create());
  const plan = plans.find((p) => p.id === planId) ?? plans[0];

  const parsed = plan ? parseAmountInput(amountText, plan.currency) : null;
  const available = plan ? balances?.[plan.currency] : undefined;
  const amountIssue = plan && parsed?.ok ? depositAmountIssue(parsed.value, plan) : null;
  // Above the balance is said as the user types, with the catalogue's 'Not enough funds'.
  const overBalance =
    parsed?.ok === true && !amountIssue && available !== undefined && compareAmounts(parsed.value, available) > 0;
  // The result only for an amount the plan takes and the balance pays (docs/decisions.md#a-bad-connection);
  // cheap enough to compute on every keystroke; the start is "now", as when the server opens it.
  const terms: DepositTerms | null =
    plan && parsed?.ok && !parsed.value.startsWith("-") && !amountIssue && !overBalance
      ? depositTerms({
          amount: parsed.value,
          dailyYieldPercent: plan.dailyYieldPercent,
          durationDays: plan.durationDays,
          currency: plan.currency,
          startedAt: new Date(),
        })
      : null;

  const note: AmountNote | null = (() => {
    if (!plan || !parsed) return null;
    if (!parsed.ok) {
      if (parsed.issue === "required") return submitted ? { kind: "validation", code: "required" } : null;
      if (parsed.issue === "tooManyDecimals") return { kind: "tooManyDecimals", scale: currencyScale(plan.currency) };
      return { kind: "validation", code: "decimal" };
    }
    if (amountIssue) return { kind: "validation", code: amountIssue, min: plan.minAmount, max: plan.maxAmount };
    if (overBalance) return { kind: "insufficient" };
    if (serverAmountCode)
      return { kind: "validation", code: serverAmountCode, min: plan.minAmount, max: plan.maxAmount };
    return null;
  })();

  const pending = create.isPending;
  useClosingConfirmation(amountText.trim() !== "" && !opened);

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (pending || !plan) return;
    setSubmitted(true);
    setOpened(false);
    if (!parsed?.ok || amountIssue || overBalance) {
      haptics.notify("error");
      formRef.current?.querySelector<HTMLInputElement>("input[name='amount']")?.focus();
      return;
    }
    setFormError(null);
    setServerAmountCode(null);
    create.mutate(
      {
        planId: plan.id,
        currency: plan.currency,
        amount: parsed.value,
        autoInvest,
        ...(cryptoCase ? { caseId: cryptoCase.id } : {}),
      },
      {
        onSuccess: () => {
          haptics.notify("success");
          setAmountText("");
          setSubmitted(false);
          setOpened(true);
        },
        onError: (error) => {
          haptics.notify("error");
          const fieldCode = isApiError(error) ? error.fields?.amount : undefined;
          if (fieldCode) setServerAmountCode(fieldCode as ValidationCode);
          else setFormError(formErrorOf(error));
        },
      },
    );
  };

  if (!plan) return null;

  return (
    <form ref={formRef} className="money-form" onSubmit={submit} noValidate>
      <Section header={t("form.header")}>
        {cryptoCase ? (
          <Cell
            className="static-cell"
            subtitle={t("cases.through")}
            data-testid="deposit-case"
            data-case-id={cryptoCase.id}
          >
            {localizedText(cryptoCase.name, format.lng)}
          </Cell>
        ) : null}
        <Select
          header={t("form.plan")}
          aria-label={t("form.plan")}
          name="planId"
          value={plan.id}
          onChange={(event) => {
            setPlanId(event.target.value);
            setServerAmountCode(null);
          }}
        >
          {plans.map((p) => (
            <option key={p.id} value={p.id}>
              {planName(p, format.lng)}
            </option>
          ))}
        </Select>
        <Cell
          className="static-cell"
          multiline
          subtitle={t("form.limits", {
            min: format.amount(plan.minAmount, plan.currency),
            max: format.amount(plan.maxAmount, plan.currency),
          })}
          after={t("form.durationDays", { days: plan.durationDays })}
          data-testid="plan-terms"
        >
          {t("form.dailyYieldValue", { yield: format.decimal(plan.dailyYieldPercent) })}
        </Cell>
        <Cell
          className="static-cell"
          subtitle={t("form.paymentMethod")}
          after={
            available !== undefined ? (
              <span data-testid="available-balance" {...amountAttributes(available, plan.currency)}>
                {format.amount(available, plan.currency)}
              </span>
            ) : null
          }
        >
          {t("form.balanceOf", { currency: plan.currency })}
        </Cell>
        <TextField
          name="amount"
          label={t("form.amount")}
          placeholder={`${plan.minAmount} – ${plan.maxAmount}`}
          inputMode="decimal"
          autoComplete="off"
          value={amountText}
          after={<span className="amount-currency">{plan.currency}</span>}
          error={
            note === null
              ? null
              : note.kind === "tooManyDecimals"
                ? t("tooManyDecimals", { ns: "money", scale: note.scale })
                : note.kind === "insufficient"
                  ? t("INSUFFICIENT_FUNDS", { ns: "errors" })
                  : t(note.code, {
                      ns: "validation",
                      min: note.min ? format.amount(note.min, plan.currency) : "",
                      max: note.max ? format.amount(note.max, plan.currency) : "",
                    })
          }
          onValueChange={(value) => {
            setAmountText(value);
            setServerAmountCode(null);
            setFormError(null);
            setOpened(false);
          }}
        />
        <Cell
          Component="label"
          multiline
          description={t("form.autoInvestHint")}
          after={
            <Switch
              name="autoInvest"
              aria-label={t("form.autoInvest")}
              checked={autoInvest}
              onChange={(event) => setAutoInvest(event.target.checked)}
            />
          }
        >
          {t("form.autoInvest")}
        </Cell>
      </Section>
      <DepositPreview terms={terms} currency={plan.currency} />
      <FormFooter
        error={formError}
        success={opened ? t("form.created") : null}
        form={formRef}
        submitText={t("form.submit")}
        pending={pending}
      />
    </form>
  );
}

/** The plan's name in the interface language (English when the language is unknown). */
export function planName(plan: { name: Plan["name"] }, lng: string): string {
  return localizedText(plan.name, lng);
}
