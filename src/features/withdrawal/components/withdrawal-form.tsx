import {
  type Currency,
  compareAmounts,
  type PaymentSystem,
  roundDown,
  type ValidationCode,
  type WithdrawalRequestReply,
} from "@contract";
import { useMutation } from "@tanstack/react-query";
import { Section } from "@telegram-apps/telegram-ui";
import { type FormEvent, type ReactNode, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { AmountField } from "@/components/form/amount-field";
import { FormFooter } from "@/components/form/form-footer";
import { Select } from "@/components/form/select";
import { alerts } from "@/lib/alerts";
import { isApiError } from "@/lib/api-client";
import { type AmountFigures, amountError, amountRule } from "@/lib/form/amount-rule";
import { type FieldErrorText, validationError } from "@/lib/form/field-errors";
import { type FormError, formErrorOf, type Translate, textOfMessage } from "@/lib/form/messages";
import { useForm } from "@/lib/form/use-form";
import { amountAttributes, useMoneyFormat } from "@/lib/money";
import { haptics } from "@/tma/hooks";
import { useClosingConfirmation } from "@/tma/lifecycle";
import { withdrawalMutations } from "../api/withdrawal-queries";
import { withdrawalPreview } from "../model/withdrawal-math";

type WithdrawalValues = { paymentSystemId: string; amount: string };
/** The amount's rule shows as it is typed ('Not enough funds' too). */
const AS_TYPED = ["amount"] as const;

const AMOUNT_CODES: readonly ValidationCode[] = [
  "required",
  "decimal",
  "amountNegative",
  "amountBelowMinimum",
  "amountAboveMaximum",
];

/**
 * A new withdrawal: the payment system (with its limits and fee), the wallet for it, and the amount
 * with the fee and what the wallet receives, computed exactly. The reply is the application awaiting
 * its code: `onRequested` opens the code step. With the balances known, the form shows what is
 * available, offers "Max" (the balance, at most the system's maximum) and refuses more than the
 * balance as the user types ('Not enough funds'); with an empty balance the request goes on, so the
 * server names what is missing first (the wallet, a refill, a deposit).
 */
export function WithdrawalForm({
  systems,
  balances,
  wallet,
  onRequested,
}: {
  systems: readonly PaymentSystem[];
  /** The user's balance per currency (composed by the route), when loaded. */
  balances?: Partial<Record<Currency, string>>;
  /** The wallet cell for the chosen system (composed by the route: wallets are their own feature). */
  wallet(system: PaymentSystem): ReactNode;
  onRequested(reply: WithdrawalRequestReply): void;
}) {
  const { t } = useTranslation(["withdrawal", "validation", "money", "errors"]);
  const format = useMoneyFormat();
  const formRef = useRef<HTMLFormElement>(null);
  const [formError, setFormError] = useState<FormError | null>(null);
  const request = useMutation(withdrawalMutations.request());
  const systemOf = (id: string) => systems.find((s) => s.id === id) ?? systems[0];
  const figuresOf = (s: PaymentSystem): AmountFigures => ({
    min: format.amount(s.minWithdrawal, s.currency, { exact: true }),
    max: format.amount(s.maxWithdrawal, s.currency, { exact: true }),
  });

  /** The amount as typed: its exact value within the system's limits and the balance, else the error. */
  const checkAmount = (values: WithdrawalValues): { value: string } | { error: FieldErrorText } | null => {
    const s = systemOf(values.paymentSystemId);
    if (!s) return null;
    const figures = figuresOf(s);
    const rule = amountRule(values.amount, s.currency, figures);
    if (!rule.ok) return { error: rule.error };
    if (compareAmounts(rule.value, 0) === 0 || compareAmounts(rule.value, s.minWithdrawal) < 0)
      return { error: amountError("amountBelowMinimum", figures) };
    if (compareAmounts(rule.value, s.maxWithdrawal) > 0) return { error: amountError("amountAboveMaximum", figures) };
    // With nothing on the balance the server's refusal says more (no wallet, no refill, no deposit).
    const balance = balances?.[s.currency];
    if (balance !== undefined && compareAmounts(balance, 0) > 0 && compareAmounts(rule.value, balance) > 0)
      return { error: { ns: "errors", key: "INSUFFICIENT_FUNDS" } };
    return { value: rule.value };
  };

  const form = useForm<WithdrawalValues>({
    initial: { paymentSystemId: systems[0]?.id ?? "", amount: "" },
    asTyped: AS_TYPED,
    validate: (values) => {
      const checked = checkAmount(values);
      return checked && "error" in checked ? { amount: checked.error } : {};
    },
  });
  const system = systemOf(form.values.paymentSystemId);
  const available = system ? balances?.[system.currency] : undefined;
  const checked = checkAmount(form.values);
  const amountValue = checked && "value" in checked && !form.errors.amount ? checked.value : null;

  const preview =
    system && amountValue !== null
      ? withdrawalPreview(amountValue, system.withdrawalFeePercent, system.currency)
      : null;
  const pending = request.isPending;
  useClosingConfirmation(form.values.amount.trim() !== "");

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (pending || !system) return;
    // A refusal the server gave for the amount holds until the amount changes.
    const serverRefused = form.errors.amount !== undefined;
    const errors = form.check();
    if (errors.amount || serverRefused || amountValue === null) {
      haptics.notify("error");
      formRef.current?.querySelector<HTMLInputElement>("input[name='amount']")?.focus();
      return;
    }
    setFormError(null);
    form.setServerErrors({});
    request.mutate(
      { paymentSystemId: system.id, amount: amountValue },
      {
        onSuccess: (reply) => {
          haptics.notify("success");
          alerts.success("CODE_SENT");
          form.reset({ paymentSystemId: system.id, amount: "" });
          onRequested(reply);
        },
        onError: (error) => {
          haptics.notify("error");
          const fields = isApiError(error) ? error.fields : undefined;
          const amountCode = fields?.amount as ValidationCode | undefined;
          if (amountCode && AMOUNT_CODES.includes(amountCode)) {
            form.setServerErrors({ amount: amountError(amountCode, figuresOf(system)) });
            return;
          }
          if (fields?.paymentSystemId) {
            form.setServerErrors({ paymentSystemId: validationError("required") });
            return;
          }
          setFormError(formErrorOf(error));
        },
      },
    );
  };

  if (!system) return null;
  const maxAmount =
    available === undefined
      ? null
      : roundDown(
          compareAmounts(available, system.maxWithdrawal) < 0 ? available : system.maxWithdrawal,
          system.currency,
        );
  const systemError = form.errors.paymentSystemId !== undefined;

  return (
    <form ref={formRef} className="money-form" onSubmit={submit} noValidate data-step="request">
      <Section header={t("form.header")}>
        <div className="form-field">
          <Select
            header={t("form.paymentSystem")}
            aria-label={t("form.paymentSystem")}
            name="paymentSystemId"
            value={system.id}
            status={systemError ? "error" : undefined}
            onChange={(event) => {
              form.set("paymentSystemId", event.target.value);
              form.setServerErrors({});
              setFormError(null);
            }}
          >
            {systems.map((s) => (
              <option key={s.id} value={s.id}>
                {`${s.currency} · ${s.network}`}
              </option>
            ))}
          </Select>
          <p className="field-hint" data-testid="withdrawal-limits">
            {t("form.limits", {
              min: format.amount(system.minWithdrawal, system.currency, { exact: true }),
              max: format.amount(system.maxWithdrawal, system.currency, { exact: true }),
              fee: format.decimal(system.withdrawalFeePercent),
            })}
          </p>
          {systemError ? (
            <p className="field-error" data-field-error="paymentSystemId">
              {t("required", { ns: "validation" })}
            </p>
          ) : null}
        </div>
        {wallet(system)}
        <AmountField
          label={t("form.amount")}
          currency={system.currency}
          placeholder={format.amount(system.minWithdrawal, system.currency, { code: false, exact: true })}
          {...form.field("amount")}
          // Said with the screen's own texts, at once (a rule's words are loaded with the form).
          error={form.errors.amount ? textOfMessage(t as unknown as Translate, form.errors.amount) : null}
          onValueChange={(value) => {
            form.set("amount", value);
            setFormError(null);
          }}
        >
          {available !== undefined && maxAmount !== null ? (
            <p className="field-hint amount-available">
              <span data-testid="withdrawal-available" {...amountAttributes(available, system.currency)}>
                {t("available", { ns: "money", amount: format.amount(available, system.currency, { exact: true }) })}
              </span>
              <button
                type="button"
                className="link-button"
                onClick={() => {
                  form.set("amount", maxAmount);
                  setFormError(null);
                }}
                data-testid="withdrawal-max"
              >
                {t("max", { ns: "money" })}
              </button>
            </p>
          ) : null}
        </AmountField>
        {preview ? (
          <dl className="money-facts withdrawal-preview" data-testid="withdrawal-preview">
            <div>
              <dt>{t("form.fee")}</dt>
              <dd data-testid="withdrawal-fee" {...amountAttributes(preview.fee, system.currency)}>
                {format.amount(preview.fee, system.currency, { exact: true })}
              </dd>
            </div>
            <div>
              <dt>{t("form.toReceive")}</dt>
              <dd data-testid="withdrawal-to-receive" {...amountAttributes(preview.toReceive, system.currency)}>
                {format.amount(preview.toReceive, system.currency, { exact: true })}
              </dd>
            </div>
          </dl>
        ) : null}
      </Section>
      <FormFooter money error={formError} form={formRef} submitText={t("form.submit")} pending={pending} />
    </form>
  );
}
