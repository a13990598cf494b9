import {
  type CryptoCase,
  type CurrencyAmounts,
  compareAmounts,
  type DepositCreateBody,
  type DepositTerms,
  depositAmountIssue,
  depositTerms,
  type Plan,
  type ValidationCode,
} from "@contract";
import { useMutation } from "@tanstack/react-query";
import { Cell, Section, Switch } from "@telegram-apps/telegram-ui";
import { type FormEvent, type ReactNode, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { AmountField } from "@/components/form/amount-field";
import { ConfirmFooter, FormFooter } from "@/components/form/form-footer";
import { Select } from "@/components/form/select";
import { isApiError } from "@/lib/api-client";
import { type AmountFigures, amountError, amountRule } from "@/lib/form/amount-rule";
import type { FieldErrorText } from "@/lib/form/field-errors";
import { type FormError, formErrorOf, type Translate, textOfMessage } from "@/lib/form/messages";
import { useForm } from "@/lib/form/use-form";
import { localizedText } from "@/lib/localized";
import { amountAttributes, useMoneyFormat } from "@/lib/money";
import { haptics } from "@/tma/hooks";
import { useClosingConfirmation } from "@/tma/lifecycle";
import { depositMutations } from "../api/deposit-queries";
import { DepositConfirmation, DepositPreview } from "./deposit-preview";

export interface DepositFormProps {
  plans: readonly Plan[];
  /** The user's balances (the payment method shows what the plan's currency balance holds). */
  balances: CurrencyAmounts | undefined;
  /** The crypto case the deposit opens through (`plans` are then its plans), or none. */
  cryptoCase?: CryptoCase | null;
  /** Called once the deposit is opened (the sheet then closes); without it the form says so itself. */
  onOpened?(): void;
  /** Told when the confirmation shows or goes (the sheet hides the case choice under it). */
  onConfirmingChange?(confirming: boolean): void;
  /** The crypto case choice, shown under the plan and the amount (the sheet's). */
  caseChoice?: ReactNode;
}

type DepositValues = { planId: string; amount: string; autoInvest: boolean };
/** What the confirmation states and, once agreed, what is sent. */
type Confirming = { body: DepositCreateBody; terms: DepositTerms };
/** The amount's rule shows as it is typed ('Not enough funds' too). */
const AS_TYPED = ["amount"] as const;

/**
 * Opening a deposit (docs/decisions.md#d6-deposits): plan, payment method, amount, auto-investment. The result is
 * computed as the user types with the contract's `depositTerms`, the function the server opens the
 * deposit with, and the amount rule (`depositAmountIssue`) shows under the field.
 */
export function DepositForm({
  plans,
  balances,
  cryptoCase = null,
  onOpened,
  onConfirmingChange,
  caseChoice,
}: DepositFormProps) {
  const { t } = useTranslation(["deposits", "validation", "money", "errors"]);
  const format = useMoneyFormat();
  const formRef = useRef<HTMLFormElement>(null);
  const [formError, setFormError] = useState<FormError | null>(null);
  const [opened, setOpened] = useState(false);
  const [confirming, setConfirmingState] = useState<Confirming | null>(null);
  const setConfirming = (next: Confirming | null) => {
    setConfirmingState(next);
    onConfirmingChange?.(next !== null);
  };
  const create = useMutation(depositMutations.create());
  const planOf = (id: string) => plans.find((p) => p.id === id) ?? plans[0];
  const figuresOf = (p: Plan): AmountFigures => ({
    min: format.amount(p.minAmount, p.currency),
    max: format.amount(p.maxAmount, p.currency),
  });

  /** The amount as typed: its exact value when the plan takes it and the balance pays it, else the error. */
  const checkAmount = (values: DepositValues): { value: string } | { error: FieldErrorText } | null => {
    const p = planOf(values.planId);
    if (!p) return null;
    const rule = amountRule(values.amount, p.currency, figuresOf(p));
    if (!rule.ok) return { error: rule.error };
    const issue = depositAmountIssue(rule.value, p);
    if (issue) return { error: amountError(issue, figuresOf(p)) };
    // Above the balance is said as the user types, with the catalogue's 'Not enough funds'.
    const balance = balances?.[p.currency];
    if (balance !== undefined && compareAmounts(rule.value, balance) > 0)
      return { error: { ns: "errors", key: "INSUFFICIENT_FUNDS" } };
    return { value: rule.value };
  };

  const form = useForm<DepositValues>({
    initial: { planId: plans[0]?.id ?? "", amount: "", autoInvest: false },
    asTyped: AS_TYPED,
    validate: (values) => {
      const checked = checkAmount(values);
      return checked && "error" in checked ? { amount: checked.error } : {};
    },
  });
  const plan = planOf(form.values.planId);
  const available = plan ? balances?.[plan.currency] : undefined;
  const checked = checkAmount(form.values);
  // The result only for an amount the plan takes and the balance pays (docs/decisions.md#a-bad-connection);
  // cheap enough to compute on every keystroke; the start is "now", as when the server opens it.
  const terms: DepositTerms | null =
    plan && checked && "value" in checked
      ? depositTerms({
          amount: checked.value,
          dailyYieldPercent: plan.dailyYieldPercent,
          durationDays: plan.durationDays,
          currency: plan.currency,
          startedAt: new Date(),
        })
      : null;

  const pending = create.isPending;
  useClosingConfirmation(form.values.amount.trim() !== "" && !opened);

  /**
   * Sends what the confirmation stated: the only place a deposit is asked for. A second press of Telegram's Main
   * button while it is out is ignored by the button itself (`useMainButton`), as for every form.
   */
  const openDeposit = ({ body }: Confirming) => {
    if (!plan) return;
    create.mutate(body, {
      onSuccess: () => {
        haptics.notify("success");
        form.reset({ planId: plan.id, amount: "", autoInvest: form.values.autoInvest });
        setConfirming(null);
        if (onOpened) onOpened();
        else setOpened(true);
      },
      onError: (error) => {
        haptics.notify("error");
        // Back to the form, with the server's word on it and the amount as typed.
        setConfirming(null);
        const fieldCode = isApiError(error) ? error.fields?.amount : undefined;
        if (fieldCode) form.setServerErrors({ amount: amountError(fieldCode as ValidationCode, figuresOf(plan)) });
        else setFormError(formErrorOf(error));
      },
    });
  };

  /**
   * The form's submit checks the amount and shows the confirmation (nothing is sent yet); the
   * confirmation's submit opens the deposit.
   */
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (pending || !plan) return;
    if (confirming) {
      openDeposit(confirming);
      return;
    }
    setOpened(false);
    const errors = form.check();
    if (errors.amount || !checked || !("value" in checked) || !terms) {
      haptics.notify("error");
      formRef.current?.querySelector<HTMLInputElement>("input[name='amount']")?.focus();
      return;
    }
    setFormError(null);
    form.setServerErrors({});
    haptics.selection();
    setConfirming({
      body: {
        planId: plan.id,
        currency: plan.currency,
        amount: checked.value,
        autoInvest: form.values.autoInvest,
        ...(cryptoCase ? { caseId: cryptoCase.id } : {}),
      },
      terms,
    });
  };

  if (!plan) return null;

  if (confirming)
    return (
      <form ref={formRef} className="money-form" onSubmit={submit} noValidate data-testid="deposit-confirmation">
        <DepositConfirmation
          terms={confirming.terms}
          currency={plan.currency}
          plan={planName(plan, format.lng)}
          autoInvest={confirming.body.autoInvest}
        />
        <ConfirmFooter
          error={formError}
          form={formRef}
          submitText={t("confirm.submit")}
          submitTestId="deposit-confirm"
          pending={pending}
          backText={t("confirm.change")}
          backTestId="deposit-change"
          onBack={() => setConfirming(null)}
        />
      </form>
    );

  return (
    <form ref={formRef} className="money-form" onSubmit={submit} noValidate>
      <Section header={t("form.header")}>
        <Select
          header={t("form.plan")}
          aria-label={t("form.plan")}
          name="planId"
          value={plan.id}
          onChange={(event) => {
            form.set("planId", event.target.value);
            form.setServerErrors({});
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
        <AmountField
          label={t("form.amount")}
          currency={plan.currency}
          placeholder={`${plan.minAmount} – ${plan.maxAmount}`}
          {...form.field("amount")}
          // Said with the screen's own texts, at once (a rule's words are loaded with the form).
          error={form.errors.amount ? textOfMessage(t as unknown as Translate, form.errors.amount) : null}
          onValueChange={(value) => {
            form.set("amount", value);
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
              checked={form.values.autoInvest}
              onChange={(event) => form.set("autoInvest", event.target.checked)}
            />
          }
        >
          {t("form.autoInvest")}
        </Cell>
      </Section>
      {caseChoice}
      <DepositPreview terms={terms} currency={plan.currency} />
      <FormFooter
        money
        error={formError}
        success={opened ? t("form.created") : null}
        form={formRef}
        submitText={t("form.next")}
        pending={pending}
      />
    </form>
  );
}

/** The plan's name in the interface language (English when the language is unknown). */
export function planName(plan: { name: Plan["name"] }, lng: string): string {
  return localizedText(plan.name, lng);
}
