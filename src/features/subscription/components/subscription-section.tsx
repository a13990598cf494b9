import { Button, Cell, Section } from "@telegram-apps/telegram-ui";
import { useAtomValue } from "jotai";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useMoneyFormat } from "@/lib/money";
import { userAtom } from "@/lib/session";
import { type SubscriptionEntryProps, SubscriptionSheet } from "./subscription-sheet";

/**
 * Settings → Subscription: whether it is active and until when, and the way to activate or extend it
 * (through the same confirmation as the Cabinet's card, also after "Later").
 */
export function SubscriptionSection({ balances, onRefill }: SubscriptionEntryProps) {
  const { t } = useTranslation("subscription");
  const format = useMoneyFormat();
  const user = useAtomValue(userAtom);
  const [confirming, setConfirming] = useState(false);
  if (!user) return null;
  const { active, until } = user.subscription;
  return (
    <Section header={t("status.header")} data-section="subscription">
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
      {confirming ? (
        <SubscriptionSheet balances={balances} onClose={() => setConfirming(false)} onRefill={onRefill} />
      ) : null}
    </Section>
  );
}
