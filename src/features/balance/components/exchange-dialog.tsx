import {
  CURRENCY_CODES,
  type Currency,
  compareAmounts,
  ExchangeBody,
  type ExchangeQuote,
  type ExchangeQuoteInput,
  type ExchangeReply,
  exchangeAmountIssue,
  exchangeFee,
  exchangeQuote,
} from "@contract";
import { displayRate } from "@contract/exchange-math";
import { money } from "@contract/money-math";
import { useMutation, useQuery } from "@tanstack/react-query";
import { Button, Cell, Section } from "@telegram-apps/telegram-ui";
import { type FormEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { AmountField } from "@/components/form/amount-field";
import { ConfirmFooter, FormFooter } from "@/components/form/form-footer";
import { Select } from "@/components/form/select";
import { Sheet } from "@/components/sheet";
import { amountError, amountRule } from "@/lib/form/amount-rule";
import { type FieldErrorText, validationError } from "@/lib/form/field-errors";
import { type FormError, formErrorOf, type Translate, textOfMessage } from "@/lib/form/messages";
import { type FieldErrors, useForm } from "@/lib/form/use-form";
import { amountAttributes, useMoneyFormat } from "@/lib/money";
import { haptics } from "@/tma/hooks";
import { useClosingConfirmation } from "@/tma/lifecycle";
import { balanceMutations, balanceQueries } from "../api/balance-queries";

type ExchangeValues = { from: Currency; to: Currency; amount: string };
/** Rates for the currencies an exchange did not touch: its fee uses only its own two. */
const UNUSED_RATES = Object.fromEntries(CURRENCY_CODES.map((code) => [code, "1"])) as Record<Currency, string>;
/** The amount's rule shows as it is typed ('Not enough funds' too). */
const AS_TYPED = ["amount"] as const;

/**
 * The exchange dialog: from/to, amount, the live rate, the fee as an amount and the exact result (`exchangeQuote`);
 * Continue shows what will be debited and credited at which rate, and only its Exchange sends anything (as a
 * deposit's confirmation). Its result stays on screen (what left, what arrived, the fee) until Done or Another
 * exchange.
 */
export function ExchangeDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation("exchange");
  // Telegram's Back on "Check and confirm" returns to the form (the amount kept); on the form it closes the sheet.
  const stepBack = useRef<(() => boolean) | null>(null);
  if (!open) return null;
  return (
    <Sheet
      onClose={onClose}
      onBack={() => {
        if (!stepBack.current?.()) onClose();
      }}
      data-testid="exchange-dialog"
      aria-label={t("title")}
    >
      <ExchangeForm onClose={onClose} stepBack={stepBack} />
    </Sheet>
  );
}

function ExchangeForm({ onClose, stepBack }: { onClose(): void; stepBack?: { current: (() => boolean) | null } }) {
  const { t } = useTranslation(["exchange", "validation", "money", "common", "errors"]);
  const format = useMoneyFormat();
  const balance = useQuery(balanceQueries.balance());
  const rate = useQuery(balanceQueries.exchangeRate());
  const exchange = useMutation(balanceMutations.exchange());
  const formRef = useRef<HTMLFormElement>(null);
  const [formError, setFormError] = useState<FormError | null>(null);
  /** The exchange the server made: shown until Done or Another exchange. */
  const [done, setDone] = useState<ExchangeReply | null>(null);
  /** The confirmation shown (nothing sent yet): what the form's Continue checked. */
  const [confirming, setConfirming] = useState<{
    body: ExchangeValues;
    quote: ExchangeQuote;
    rate: string;
    fee: string | null;
  } | null>(null);
  if (stepBack)
    stepBack.current = () => {
      if (!confirming) return false;
      setConfirming(null);
      return true;
    };
  const initialFrom = balance.data?.currentCurrency ?? "USDT";

  /** The amount as typed: its exact value and quote input, or the error under the field. */
  const checkAmount = (values: ExchangeValues): { error: FieldErrorText } | { input: ExchangeQuoteInput } | null => {
    const rule = amountRule(values.amount, values.from, { min: "0" });
    // Nothing typed is no error: confirming waits for an amount.
    if (!rule.ok) return rule.error.ns === "validation" && rule.error.key === "required" ? null : { error: rule.error };
    if (values.from === values.to) return null;
    const input = rate.data
      ? { ...values, amount: rule.value, rates: rate.data.rates, feePercent: rate.data.feePercent }
      : null;
    const issue = input ? exchangeAmountIssue(input) : null;
    if (issue) return { error: amountError(issue, { min: "0" }) };
    // Above the balance is refused as the user types, with the catalogue's 'Not enough funds'.
    const available = balance.data?.currencies[values.from];
    if (available !== undefined && compareAmounts(rule.value, available) > 0)
      return { error: { ns: "errors", key: "INSUFFICIENT_FUNDS" } };
    return input ? { input } : null;
  };

  const form = useForm<ExchangeValues>({
    initial: { from: initialFrom, to: initialFrom === "USDT" ? "TON" : "USDT", amount: "" },
    asTyped: AS_TYPED,
    validate: (values) => {
      const errors: FieldErrors<ExchangeValues> = {};
      // The contract's pair rule: another currency to receive.
      if (!ExchangeBody.safeParse({ ...values, amount: "1" }).success) errors.to = validationError("required");
      const checked = checkAmount(values);
      if (checked && "error" in checked) errors.amount = checked.error;
      return errors;
    },
  });
  const { from, to, amount } = form.values;
  const same = from === to;
  const available = balance.data?.currencies[from];
  const checked = checkAmount(form.values);
  const quote = checked && "input" in checked ? exchangeQuote(checked.input) : null;
  /** The fee as an amount of `to` (what the fee-free exchange would credit more). */
  const fee = checked && "input" in checked ? exchangeFee(checked.input) : null;
  const pending = exchange.isPending;
  useClosingConfirmation(amount.trim() !== "" && done === null);

  const fieldNote = same
    ? t("sameCurrency")
    : form.errors.amount
      ? textOfMessage(t as unknown as Translate, form.errors.amount)
      : null;

  /** The fee as an amount with its percentage: "0.1800 TON (1 %)"; the percentage alone before an amount is typed. */
  const feeText = (feeAmount: string | null, currency: Currency, percent: string) =>
    feeAmount === null
      ? t("feeValue", { fee: format.decimal(percent) })
      : t("feeAmount", { amount: format.amount(feeAmount, currency, { exact: true }), fee: format.decimal(percent) });

  /** What one coin of `from` buys of `to` before the fee, about six significant digits (for showing only). */
  const rateValue =
    rate.data && !same ? displayRate(money(rate.data.rates[from]).div(rate.data.rates[to]).toFixed()) : null;
  const rateText = (value: string, pair: { from: Currency; to: Currency }) =>
    t("rateValue", { from: pair.from, value: `${format.decimal(value)} ${pair.to}` });

  /** Sends what the confirmation stated: the only place an exchange is asked for. */
  const send = ({ body }: NonNullable<typeof confirming>) => {
    exchange.mutate(body, {
      onSuccess: (reply) => {
        haptics.notify("success");
        form.set("amount", "");
        setConfirming(null);
        setDone(reply);
      },
      onError: (error) => {
        haptics.notify("error");
        // Back to the form, with the server's word on it and the amount as typed.
        setConfirming(null);
        setFormError(formErrorOf(error));
      },
    });
  };

  /** The form's submit shows the confirmation (nothing is sent yet); the confirmation's submit exchanges. */
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (pending) return;
    if (confirming) {
      send(confirming);
      return;
    }
    if (!quote || !checked || !("input" in checked) || rateValue === null) {
      haptics.notify("error");
      return;
    }
    setFormError(null);
    haptics.selection();
    setConfirming({ body: { from, to, amount: checked.input.amount }, quote, rate: rateValue, fee });
  };

  const amountCell = (testId: string, value: string, currency: Currency) => (
    <span data-testid={testId} {...amountAttributes(value, currency)}>
      {format.amount(value, currency, { exact: true })}
    </span>
  );

  if (done) {
    // The fee the server kept, from the rates and fee it used.
    const keptFee = exchangeFee({
      from: done.from,
      to: done.to,
      amount: done.debited,
      rates: { ...UNUSED_RATES, [done.from]: done.rates.from, [done.to]: done.rates.to },
      feePercent: done.feePercent,
    });
    return (
      <form
        ref={formRef}
        className="money-dialog money-form"
        onSubmit={(event) => {
          event.preventDefault();
          onClose();
        }}
        noValidate
        data-testid="exchange-done"
      >
        <h2 className="money-dialog-title">{t("title")}</h2>
        <Section header={t("doneTitle")}>
          <Cell className="static-cell" multiline after={amountCell("done-debited", done.debited, done.from)}>
            {t("paid")}
          </Cell>
          <Cell
            className="static-cell"
            multiline
            after={<span data-testid="done-fee">{feeText(keptFee, done.to, done.feePercent)}</span>}
          >
            {t("fee")}
          </Cell>
          <Cell className="static-cell" multiline after={amountCell("done-received", done.received, done.to)}>
            {t("received")}
          </Cell>
          <Cell className="static-cell" multiline after={amountCell("done-balance", done.currencies[done.to], done.to)}>
            {t("balanceAfter", { currency: done.to })}
          </Cell>
        </Section>
        <FormFooter
          money
          error={null}
          pending={false}
          success={t("done", {
            debited: format.amount(done.debited, done.from, { exact: true }),
            received: format.amount(done.received, done.to, { exact: true }),
          })}
          form={formRef}
          submitText={t("finish")}
          submitTestId="exchange-finish"
          secondary={
            <Button
              size="l"
              stretched
              mode="bezeled"
              type="button"
              onClick={() => setDone(null)}
              data-testid="exchange-again"
            >
              {t("again")}
            </Button>
          }
        />
      </form>
    );
  }

  if (confirming) {
    const { body, quote: stated } = confirming;
    return (
      <form
        ref={formRef}
        className="money-dialog money-form"
        onSubmit={submit}
        noValidate
        data-testid="exchange-confirmation"
      >
        <h2 className="money-dialog-title">{t("title")}</h2>
        <Section
          header={t("confirmation.title")}
          footer={t("confirmation.note", {
            debited: format.amount(stated.debited, body.from, { exact: true }),
            from: body.from,
          })}
        >
          <Cell className="static-cell" multiline after={amountCell("confirm-debited", stated.debited, body.from)}>
            {t("debited")}
          </Cell>
          <Cell
            className="static-cell"
            multiline
            after={
              <span data-testid="confirm-rate" data-rate={confirming.rate}>
                {rateText(confirming.rate, body)}
              </span>
            }
          >
            {t("rate")}
          </Cell>
          {rate.data ? (
            <Cell
              className="static-cell"
              multiline
              after={<span data-testid="confirm-fee">{feeText(confirming.fee, body.to, rate.data.feePercent)}</span>}
            >
              {t("fee")}
            </Cell>
          ) : null}
          <Cell className="static-cell" multiline after={amountCell("confirm-received", stated.received, body.to)}>
            {t("result")}
          </Cell>
        </Section>
        <ConfirmFooter
          error={formError}
          form={formRef}
          submitText={t("confirm")}
          submitTestId="exchange-confirm"
          pending={pending}
          backText={t("confirmation.back")}
          backTestId="exchange-back"
          onBack={() => setConfirming(null)}
        />
      </form>
    );
  }

  return (
    <form ref={formRef} className="money-dialog money-form" onSubmit={submit} noValidate>
      <h2 className="money-dialog-title">{t("title")}</h2>
      <Section>
        <div className="money-filters">
          <Select
            header={t("from")}
            name="from"
            value={from}
            onChange={(e) => form.set("from", e.target.value as Currency)}
          >
            {CURRENCY_CODES.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </Select>
          <Select header={t("to")} name="to" value={to} onChange={(e) => form.set("to", e.target.value as Currency)}>
            {CURRENCY_CODES.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </Select>
        </div>
        <AmountField
          label={t("amount")}
          currency={from}
          placeholder="0"
          {...form.field("amount")}
          error={fieldNote}
          onValueChange={(value) => {
            form.set("amount", value);
            setFormError(null);
          }}
        >
          {available !== undefined ? (
            <p className="field-hint amount-available">
              <span data-testid="exchange-available" {...amountAttributes(available, from)}>
                {t("available", { amount: format.amount(available, from, { exact: true }) })}
              </span>
              <button
                type="button"
                className="link-button"
                onClick={() => {
                  form.set("amount", available);
                  setFormError(null);
                }}
                data-testid="exchange-max"
              >
                {t("max", { ns: "money" })}
              </button>
            </p>
          ) : null}
        </AmountField>
        <Cell
          className="static-cell"
          after={
            rateValue !== null ? (
              <span data-testid="exchange-rate" data-rate={rateValue}>
                {rateText(rateValue, { from, to })}
              </span>
            ) : rate.isError ? (
              t("rateUnavailable")
            ) : (
              "…"
            )
          }
        >
          {t("rate")}
        </Cell>
        <Cell
          className="static-cell"
          after={rate.data ? <span data-testid="exchange-fee">{feeText(fee, to, rate.data.feePercent)}</span> : "…"}
        >
          {t("fee")}
        </Cell>
        <Cell
          className="static-cell"
          after={
            <span data-testid="exchange-result" {...(quote ? amountAttributes(quote.received, to) : {})}>
              {quote ? format.amount(quote.received, to, { exact: true }) : "—"}
            </span>
          }
        >
          {t("result")}
        </Cell>
      </Section>
      <FormFooter
        money
        error={formError}
        form={formRef}
        submitText={t("next")}
        pending={pending}
        disabled={quote === null}
        submitTestId="exchange-next"
        secondary={
          <Button size="l" stretched mode="plain" onClick={onClose}>
            {t("close", { ns: "common" })}
          </Button>
        }
      />
    </form>
  );
}
