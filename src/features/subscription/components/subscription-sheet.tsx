import type { Currency, SubscriptionOption } from "@contract";
import { useMutation, useQuery } from "@tanstack/react-query";
import { Button, Section } from "@telegram-apps/telegram-ui";
import { useAtomValue, useSetAtom } from "jotai";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Detail, DetailList } from "@/components/details-sheet";
import { Sheet } from "@/components/sheet";
import { currentLanguage } from "@/config/i18n";
import { useApiErrorText } from "@/lib/error-text";
import { amountAttributes, compareAmounts, subtractAmounts, useMoneyFormat } from "@/lib/money";
import { updateUserAtom, userAtom } from "@/lib/session";
import { haptics, useMainButton } from "@/tma/hooks";
import { subscriptionMutations, subscriptionQueries } from "../api/subscription-queries";
import { subscriptionEnd } from "../model/later";

/**
 * The subscription's confirmation (no surprise charges, docs/decisions.md#subscription-without-surprises).
 * Nothing is paid until the user has seen the option's price, the balance it comes from (with what is available
 * and what stays), and the new end date, and confirmed. A short balance is said before the tap, with the way to
 * top up. On success the sheet says until when the subscription runs; the user object is updated in place.
 */
/** What every way into the subscription needs from its screen: the balances and the way to top up. */
export interface SubscriptionEntryProps {
  /** The balance of each currency; undefined while it loads. */
  balances: Record<Currency, string> | undefined;
  onRefill(): void;
}

export function SubscriptionSheet({ balances, onClose, onRefill }: SubscriptionEntryProps & { onClose(): void }) {
  return (
    <Sheet onClose={onClose} data-testid="subscription-sheet">
      <SubscriptionConfirm balances={balances} onClose={onClose} onRefill={onRefill} />
    </Sheet>
  );
}

function SubscriptionConfirm({ balances, onClose, onRefill }: SubscriptionEntryProps & { onClose(): void }) {
  const { t, i18n } = useTranslation(["subscription", "errors", "common"]);
  const language = currentLanguage(i18n);
  const format = useMoneyFormat();
  const errorText = useApiErrorText();
  const user = useAtomValue(userAtom);
  const updateUser = useSetAtom(updateUserAtom);
  const options = useQuery(subscriptionQueries.options());
  const benefit = useQuery(subscriptionQueries.benefit()).data?.[language];
  const activate = useMutation(subscriptionMutations.activate());
  const [chosen, setChosen] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [activeUntil, setActiveUntil] = useState<string | null>(null);

  const option: SubscriptionOption | undefined =
    options.data?.find((o) => o.id === chosen) ?? options.data?.[0] ?? undefined;
  const available = option && balances ? balances[option.currency] : undefined;
  const short = option !== undefined && available !== undefined && compareAmounts(available, option.price) < 0;
  const canPay = option !== undefined && available !== undefined && !short && activeUntil === null;
  const until = option ? subscriptionEnd(user?.subscription.until ?? null, option.durationDays) : null;
  const payText = option
    ? t("pay", { amount: format.amount(option.price, option.currency, { exact: true }) })
    : t("activate");

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (!option || !canPay || activate.isPending) {
      if (short) haptics.notify("error");
      return;
    }
    setError(null);
    activate.mutate(option.id, {
      onSuccess: (reply) => {
        haptics.notify("success");
        updateUser({ subscription: reply.user.subscription });
        setActiveUntil(reply.user.subscription.until);
      },
      onError: (failure) => {
        haptics.notify("error");
        setError(errorText(failure));
      },
    });
  };

  const inTelegram = useMainButton({
    text: payText,
    loading: activate.isPending,
    enabled: canPay,
    visible: activeUntil === null,
    onClick: () => submit(),
  });

  if (activeUntil !== null) {
    return (
      <div className="money-dialog" data-testid="subscription-done">
        <h2 className="money-dialog-title">{t("doneTitle")}</h2>
        <p className="form-success" role="status" data-testid="form-success">
          {t("done", { date: format.date(activeUntil) })}
        </p>
        <div className="money-dialog-actions">
          <Button size="l" stretched mode="bezeled" onClick={onClose} data-testid="subscription-close">
            {t("close", { ns: "common" })}
          </Button>
        </div>
      </div>
    );
  }

  return (
    <form className="money-dialog money-form" onSubmit={submit} noValidate>
      <h2 className="money-dialog-title">{t("confirmTitle")}</h2>
      {benefit ? (
        <p className="subscription-benefit" data-testid="subscription-benefit">
          {benefit}
        </p>
      ) : null}
      {options.isError ? (
        <div className="form-error" role="alert">
          <p>{errorText(options.error)}</p>
          <Button size="s" mode="bezeled" onClick={() => void options.refetch()}>
            {t("retry", { ns: "common" })}
          </Button>
        </div>
      ) : null}
      {options.data && options.data.length > 1 ? (
        <fieldset className="subscription-options">
          <legend className="visually-hidden">{t("chooseOption")}</legend>
          {options.data.map((o) => (
            <label
              key={o.id}
              className="subscription-option"
              data-testid="subscription-option"
              data-option-id={o.id}
              data-selected={o.id === option?.id}
            >
              <input
                type="radio"
                className="visually-hidden"
                name="subscriptionOption"
                value={o.id}
                checked={o.id === option?.id}
                onChange={() => {
                  setChosen(o.id);
                  setError(null);
                }}
              />
              <span className="subscription-option-title">{o.title[language]}</span>
              <span {...amountAttributes(o.price, o.currency)}>
                {format.amount(o.price, o.currency, { exact: true })}
              </span>
              <span className="subscription-option-days">{t("days", { count: o.durationDays })}</span>
            </label>
          ))}
        </fieldset>
      ) : null}
      {option ? (
        <Section>
          <DetailList>
            <Detail label={t("option")} testId="subscription-summary-option">
              {`${option.title[language]} · ${t("days", { count: option.durationDays })}`}
            </Detail>
            <Detail label={t("price")} testId="subscription-summary-price">
              <span {...amountAttributes(option.price, option.currency)}>
                {format.amount(option.price, option.currency, { exact: true })}
              </span>
            </Detail>
            <Detail label={t("paidFrom")} testId="subscription-summary-source">
              {available === undefined
                ? "…"
                : t("balanceOf", {
                    currency: option.currency,
                    amount: format.amount(available, option.currency, { exact: true }),
                  })}
            </Detail>
            {available !== undefined && !short ? (
              <Detail label={t("balanceAfter")} testId="subscription-summary-after">
                {format.amount(subtractAmounts(available, option.price), option.currency, { exact: true })}
              </Detail>
            ) : null}
            {until ? (
              <Detail label={t("activeUntil")} testId="subscription-summary-until">
                {format.date(until.toISOString())}
              </Detail>
            ) : null}
          </DetailList>
        </Section>
      ) : null}
      <div aria-live="assertive">
        {short && option ? (
          <div className="form-error" data-testid="subscription-short">
            <p>{t("short", { currency: option.currency })}</p>
            <Button size="s" mode="bezeled" onClick={onRefill} data-testid="subscription-refill">
              {t("refill")}
            </Button>
          </div>
        ) : null}
        {error ? (
          <div className="form-error" data-testid="form-error">
            <p>{error}</p>
          </div>
        ) : null}
      </div>
      <div className="money-dialog-actions">
        {inTelegram ? (
          <button type="submit" className="visually-hidden" tabIndex={-1} aria-hidden="true" />
        ) : (
          <Button
            type="submit"
            size="l"
            stretched
            loading={activate.isPending}
            disabled={!canPay}
            data-testid="subscription-pay"
          >
            {payText}
          </Button>
        )}
        <Button type="button" size="l" stretched mode="plain" onClick={onClose} data-testid="subscription-cancel">
          {t("cancel")}
        </Button>
      </div>
    </form>
  );
}
