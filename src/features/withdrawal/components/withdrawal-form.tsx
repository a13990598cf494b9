import {
  type Currency,
  compareAmounts,
  currencyScale,
  type PaymentSystem,
  roundDown,
  type ValidationCode,
  type WithdrawalRequestReply,
} from "@contract";
import { useMutation } from "@tanstack/react-query";
import { Section } from "@telegram-apps/telegram-ui";
import { type FormEvent, type ReactNode, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { FormFooter } from "@/components/form/form-footer";
import { Select } from "@/components/form/select";
import { TextField } from "@/components/form/text-field";
import { alerts } from "@/lib/alerts";
import { isApiError } from "@/lib/api-client";
import { type FormError, formErrorOf } from "@/lib/form/messages";
import { amountAttributes, parseAmountInput, useMoneyFormat } from "@/lib/money";
import { haptics, useClosingConfirmation } from "@/tma/hooks";
import { withdrawalMutations } from "../api/withdrawal-queries";
import { withdrawalPreview } from "../model/withdrawal-math";

type AmountNote =
  | { kind: "validation"; code: ValidationCode }
  | { kind: "tooManyDecimals"; scale: number }
  | { kind: "insufficient" };

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
  const [systemId, setSystemId] = useState(systems[0]?.id ?? "");
  const [amountText, setAmountText] = useState("");
  const [submitted, setSubmitted] = useState(false);
  const [serverAmountCode, setServerAmountCode] = useState<ValidationCode | null>(null);
  const [systemError, setSystemError] = useState(false);
  const [formError, setFormError] = useState<FormError | null>(null);
  const request = useMutation(withdrawalMutations.request());
  const system = systems.find((s) => s.id === systemId) ?? systems[0];
  const parsed = system ? parseAmountInput(amountText, system.currency) : null;
  const available = system ? balances?.[system.currency] : undefined;

  const note: AmountNote | null = (() => {
    if (!system || !parsed) return null;
    if (!parsed.ok) {
      if (parsed.issue === "required") return submitted ? { kind: "validation", code: "required" } : null;
      if (parsed.issue === "tooManyDecimals") return { kind: "tooManyDecimals", scale: currencyScale(system.currency) };
      return { kind: "validation", code: "decimal" };
    }
    if (compareAmounts(parsed.value, 0) < 0) return { kind: "validation", code: "amountNegative" };
    if (compareAmounts(parsed.value, 0) === 0 || compareAmounts(parsed.value, system.minWithdrawal) < 0)
      return { kind: "validation", code: "amountBelowMinimum" };
    if (compareAmounts(parsed.value, system.maxWithdrawal) > 0)
      return { kind: "validation", code: "amountAboveMaximum" };
    // With nothing on the balance the server's refusal says more (no wallet, no refill, no deposit).
    if (available !== undefined && compareAmounts(available, 0) > 0 && compareAmounts(parsed.value, available) > 0)
      return { kind: "insufficient" };
    if (serverAmountCode) return { kind: "validation", code: serverAmountCode };
    return null;
  })();

  const preview =
    system && parsed?.ok && !note
      ? withdrawalPreview(parsed.value, system.withdrawalFeePercent, system.currency)
      : null;
  const pending = request.isPending;
  useClosingConfirmation(amountText.trim() !== "");

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (pending || !system) return;
    setSubmitted(true);
    if (!parsed?.ok || note) {
      haptics.notify("error");
      formRef.current?.querySelector<HTMLInputElement>("input[name='amount']")?.focus();
      return;
    }
    setFormError(null);
    setSystemError(false);
    request.mutate(
      { paymentSystemId: system.id, amount: parsed.value },
      {
        onSuccess: (reply) => {
          haptics.notify("success");
          alerts.success("CODE_SENT");
          setAmountText("");
          setSubmitted(false);
          onRequested(reply);
        },
        onError: (error) => {
          haptics.notify("error");
          const fields = isApiError(error) ? error.fields : undefined;
          const amountCode = fields?.amount as ValidationCode | undefined;
          if (amountCode && AMOUNT_CODES.includes(amountCode)) {
            setServerAmountCode(amountCode);
            return;
          }
          if (fields?.paymentSystemId) {
            setSystemError(true);
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
  const amountNoteText = (n: AmountNote) =>
    n.kind === "insufficient"
      ? t("INSUFFICIENT_FUNDS", { ns: "errors" })
      : n.kind === "tooManyDecimals"
        ? t("tooManyDecimals", { ns: "money", scale: n.scale })
        : t(n.code, {
            ns: "validation",
            min: format.amount(system.minWithdrawal, system.currency, { exact: true }),
            max: format.amount(system.maxWithdrawal, system.currency, { exact: true }),
          });

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
              setSystemId(event.target.value);
              setServerAmountCode(null);
              setSystemError(false);
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
        <TextField
          name="amount"
          label={t("form.amount")}
          placeholder={format.amount(system.minWithdrawal, system.currency, { code: false, exact: true })}
          inputMode="decimal"
          autoComplete="off"
          value={amountText}
          after={<span className="amount-currency">{system.currency}</span>}
          error={note ? amountNoteText(note) : null}
          onValueChange={(value) => {
            setAmountText(value);
            setServerAmountCode(null);
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
                  setAmountText(maxAmount);
                  setServerAmountCode(null);
                  setFormError(null);
                }}
                data-testid="withdrawal-max"
              >
                {t("max", { ns: "money" })}
              </button>
            </p>
          ) : null}
        </TextField>
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
      <FormFooter error={formError} form={formRef} submitText={t("form.submit")} pending={pending} />
    </form>
  );
}
