import {
  CURRENCY_CODES,
  type Currency,
  compareAmounts,
  currencyScale,
  exchangeAmountIssue,
  exchangeQuote,
} from "@contract";
import { useMutation, useQuery } from "@tanstack/react-query";
import { Button, Cell, Modal, Section } from "@telegram-apps/telegram-ui";
import { type FormEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { FormFooter } from "@/components/form/form-footer";
import { Select } from "@/components/form/select";
import { TextField } from "@/components/form/text-field";
import { type FormError, formErrorOf } from "@/lib/form/messages";
import { amountAttributes, parseAmountInput, useMoneyFormat } from "@/lib/money";
import { haptics, useClosingConfirmation } from "@/tma/hooks";
import { balanceMutations, balanceQueries } from "../api/balance-queries";

/** The exchange dialog: from/to, amount, the live rate and the exact result (`exchangeQuote`) before confirming. */
export function ExchangeDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  if (!open) return null;
  return (
    <Modal
      open
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
      header={<Modal.Header />}
      data-testid="exchange-dialog"
      aria-describedby={undefined}
    >
      <ExchangeForm onClose={onClose} />
    </Modal>
  );
}

function ExchangeForm({ onClose }: { onClose(): void }) {
  const { t } = useTranslation(["exchange", "validation", "money", "common", "errors"]);
  const format = useMoneyFormat();
  const balance = useQuery(balanceQueries.balance());
  const rate = useQuery(balanceQueries.exchangeRate());
  const exchange = useMutation(balanceMutations.exchange());
  const [from, setFrom] = useState<Currency>(balance.data?.currentCurrency ?? "USDT");
  const [to, setTo] = useState<Currency>(from === "USDT" ? "TON" : "USDT");
  const [amountText, setAmountText] = useState("");
  const formRef = useRef<HTMLFormElement>(null);
  const [formError, setFormError] = useState<FormError | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const parsed = parseAmountInput(amountText, from);
  const same = from === to;
  const quoteInput =
    rate.data && parsed.ok && !same
      ? { from, to, amount: parsed.value, rates: rate.data.rates, feePercent: rate.data.feePercent }
      : null;
  const issue = quoteInput ? exchangeAmountIssue(quoteInput) : null;
  const available = balance.data?.currencies[from];
  // Above the balance is refused as the user types, with the catalogue's 'Not enough funds'.
  const overBalance = parsed.ok && available !== undefined && compareAmounts(parsed.value, available) > 0;
  const quote = quoteInput && !issue && !overBalance ? exchangeQuote(quoteInput) : null;
  const pending = exchange.isPending;
  useClosingConfirmation(amountText.trim() !== "" && done === null);

  const fieldNote = (() => {
    if (same) return t("sameCurrency");
    if (!parsed.ok) {
      if (parsed.issue === "required") return null;
      if (parsed.issue === "tooManyDecimals") return t("tooManyDecimals", { ns: "money", scale: currencyScale(from) });
      return t("decimal", { ns: "validation" });
    }
    if (issue) return t(issue, { ns: "validation", min: "0", max: "" });
    if (overBalance) return t("INSUFFICIENT_FUNDS", { ns: "errors" });
    return null;
  })();

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (pending) return;
    if (!quote || !parsed.ok) {
      haptics.notify("error");
      return;
    }
    setFormError(null);
    exchange.mutate(
      { from, to, amount: parsed.value },
      {
        onSuccess: (reply) => {
          haptics.notify("success");
          setAmountText("");
          setDone(
            t("done", {
              debited: format.amount(reply.debited, reply.from, { exact: true }),
              received: format.amount(reply.received, reply.to, { exact: true }),
            }),
          );
        },
        onError: (error) => {
          haptics.notify("error");
          setFormError(formErrorOf(error));
        },
      },
    );
  };

  const rateValue =
    rate.data && !same
      ? exchangeQuote({ from, to, amount: "1", rates: rate.data.rates, feePercent: "0" }).received
      : null;

  return (
    <form ref={formRef} className="money-dialog money-form" onSubmit={submit} noValidate>
      <h2 className="money-dialog-title">{t("title")}</h2>
      <Section>
        <div className="money-filters">
          <Select header={t("from")} name="from" value={from} onChange={(e) => setFrom(e.target.value as Currency)}>
            {CURRENCY_CODES.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </Select>
          <Select header={t("to")} name="to" value={to} onChange={(e) => setTo(e.target.value as Currency)}>
            {CURRENCY_CODES.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </Select>
        </div>
        <TextField
          name="amount"
          label={t("amount")}
          placeholder="0"
          inputMode="decimal"
          autoComplete="off"
          value={amountText}
          after={<span className="amount-currency">{from}</span>}
          error={fieldNote}
          onValueChange={(value) => {
            setAmountText(value);
            setFormError(null);
            setDone(null);
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
                  setAmountText(available);
                  setFormError(null);
                  setDone(null);
                }}
                data-testid="exchange-max"
              >
                {t("max", { ns: "money" })}
              </button>
            </p>
          ) : null}
        </TextField>
        <Cell
          className="static-cell"
          after={
            rateValue !== null ? (
              <span data-testid="exchange-rate">
                {t("rateValue", { from, value: format.amount(rateValue, to, { exact: true }) })}
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
          after={rate.data ? t("feeValue", { fee: format.decimal(rate.data.feePercent) }) : "…"}
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
        error={formError}
        success={done}
        form={formRef}
        submitText={t("confirm")}
        pending={pending}
        disabled={quote === null}
        submitTestId="exchange-confirm"
        secondary={
          <Button size="l" stretched mode="plain" onClick={onClose}>
            {t("close", { ns: "common" })}
          </Button>
        }
      />
    </form>
  );
}
