import { useMutation, useQuery } from "@tanstack/react-query";
import { Button, Section } from "@telegram-apps/telegram-ui";
import { useSetAtom } from "jotai";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { currentLanguage } from "@/config/i18n";
import { amountAttributes, useApiErrorText, useMoneyFormat } from "@/lib/money";
import { updateUserAtom } from "@/lib/session";
import { haptics } from "@/tma/hooks";
import { subscriptionMutations, subscriptionQueries } from "../api/subscription-queries";

const DISMISSED_KEY = "kassa.subscription-prompt-dismissed";

function wasDismissed(): boolean {
  try {
    return sessionStorage.getItem(DISMISSED_KEY) === "1";
  } catch {
    return false;
  }
}

/**
 * The prompt to activate a subscription (spec §1, §6), shown above the screen while the user object
 * says none is active. Paid from the balance; on success the user's `subscription` is updated in
 * place and the prompt goes. "Later" hides it for this visit.
 */
export function SubscriptionPrompt() {
  const { t, i18n } = useTranslation("subscription");
  const language = currentLanguage(i18n);
  const format = useMoneyFormat();
  const errorText = useApiErrorText();
  const updateUser = useSetAtom(updateUserAtom);
  const options = useQuery(subscriptionQueries.options());
  const activate = useMutation(subscriptionMutations.activate());
  const [chosen, setChosen] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [dismissed, setDismissed] = useState(wasDismissed);

  if (dismissed || !options.data || options.data.length === 0) return null;
  const selected = chosen ?? options.data[0]?.id ?? null;

  const submit = () => {
    if (!selected || activate.isPending) return;
    setError(null);
    activate.mutate(selected, {
      onSuccess: (reply) => {
        haptics.notify("success");
        updateUser({ subscription: reply.user.subscription });
      },
      onError: (failure) => {
        haptics.notify("error");
        setError(errorText(failure));
      },
    });
  };

  const later = () => {
    try {
      sessionStorage.setItem(DISMISSED_KEY, "1");
    } catch {
      // Without storage the prompt simply comes back on the next visit.
    }
    setDismissed(true);
  };

  return (
    <Section header={t("title")} footer={t("hint")} className="subscription-prompt" data-testid="subscription-prompt">
      <fieldset className="subscription-options">
        <legend className="visually-hidden">{t("title")}</legend>
        {options.data.map((option) => (
          <label
            key={option.id}
            className="subscription-option"
            data-testid="subscription-option"
            data-option-id={option.id}
            data-selected={option.id === selected}
          >
            <input
              type="radio"
              className="visually-hidden"
              name="subscriptionOption"
              value={option.id}
              checked={option.id === selected}
              onChange={() => {
                setChosen(option.id);
                setError(null);
              }}
            />
            <span className="subscription-option-title">{option.title[language]}</span>
            <span {...amountAttributes(option.price, option.currency)}>
              {format.amount(option.price, option.currency, { exact: true })}
            </span>
            <span className="subscription-option-days">{t("days", { count: option.durationDays })}</span>
          </label>
        ))}
      </fieldset>
      <div aria-live="assertive">
        {error ? (
          <div className="form-error" data-testid="form-error">
            <p>{error}</p>
          </div>
        ) : null}
      </div>
      <div className="subscription-actions">
        <Button size="m" loading={activate.isPending} onClick={submit} data-testid="activate-subscription">
          {t("activate")}
        </Button>
        <Button size="m" mode="plain" onClick={later} data-testid="subscription-later">
          {t("later")}
        </Button>
      </div>
    </Section>
  );
}
