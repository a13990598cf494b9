import { useQuery } from "@tanstack/react-query";
import { Button, Cell, Section } from "@telegram-apps/telegram-ui";
import { useAtomValue } from "jotai";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { currentLanguage } from "@/config/i18n";
import { amountAttributes, useMoneyFormat } from "@/lib/money";
import { userAtom } from "@/lib/session";
import { subscriptionQueries } from "../api/subscription-queries";
import { type SubscriptionEntryProps, SubscriptionSheet } from "./subscription-sheet";

/**
 * Settings → Subscription: whether it is active and until when, each option with its length and price (what
 * activating costs, before anything is tapped), what it gives in the operator's words (when said), and the way to
 * activate or extend it (through the same confirmation as the Cabinet's card, also after "Later").
 */
export function SubscriptionSection({ balances, onRefill }: SubscriptionEntryProps) {
  const { t, i18n } = useTranslation("subscription");
  const language = currentLanguage(i18n);
  const format = useMoneyFormat();
  const user = useAtomValue(userAtom);
  const options = useQuery(subscriptionQueries.options());
  const benefit = useQuery(subscriptionQueries.benefit()).data?.[language];
  const [confirming, setConfirming] = useState(false);
  if (!user) return null;
  const { active, until } = user.subscription;
  return (
    <Section header={t("status.header")} footer={benefit} data-section="subscription">
      <Cell
        className="static-cell"
        multiline
        after={
          <Button size="s" mode="bezeled" onClick={() => setConfirming(true)} data-testid="subscription-open">
            {active ? t("extend") : t("activate")}
          </Button>
        }
        data-testid="subscription-status"
        data-active={active}
      >
        {active && until ? t("status.activeUntil", { date: format.date(until) }) : t("status.inactive")}
      </Cell>
      {options.data?.map((option) => (
        <Cell
          key={option.id}
          className="static-cell"
          multiline
          subtitle={t("days", { count: option.durationDays })}
          after={
            <span data-testid="subscription-option-price" {...amountAttributes(option.price, option.currency)}>
              {format.amount(option.price, option.currency, { exact: true })}
            </span>
          }
          data-testid="subscription-option"
        >
          {option.title[language]}
        </Cell>
      ))}
      {confirming ? (
        <SubscriptionSheet balances={balances} onClose={() => setConfirming(false)} onRefill={onRefill} />
      ) : null}
    </Section>
  );
}
