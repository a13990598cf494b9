import { useQuery } from "@tanstack/react-query";
import { Button, Section } from "@telegram-apps/telegram-ui";
import { useAtomValue } from "jotai";
import { Suspense, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { lazyScreen } from "@/components/lazy-screen";
import { compareAmounts, useMoneyFormat } from "@/lib/money";
import { userAtom } from "@/lib/session";
import { warmUp } from "@/lib/warm-up";
import { subscriptionQueries } from "../api/subscription-queries";
import { isPostponed, postpone } from "../model/later";
import type { SubscriptionEntryProps } from "./subscription-sheet";

// The sheet's code (and telegram-ui's sheet library) is not needed to show the card: it comes after it.
const loadSheet = () => import("./subscription-sheet");
const SubscriptionSheet = lazyScreen(() => loadSheet().then((m) => ({ default: m.SubscriptionSheet })));

/**
 * The prompt to activate a subscription (docs/cabinet-rules.md#product), on the Cabinet only: one compact card
 * while the user has none. "Activate" opens the confirmation (price, source balance, end date) — nothing is
 * paid from the card itself. "Later" keeps the card away for a week (`LATER_DAYS`) for this user.
 */
export function SubscriptionCard({ balances, onRefill }: SubscriptionEntryProps) {
  const { t } = useTranslation("subscription");
  const format = useMoneyFormat();
  const user = useAtomValue(userAtom);
  const options = useQuery(subscriptionQueries.options());
  const [postponed, setPostponed] = useState(() => (user ? isPostponed(user.id) : true));
  const [confirming, setConfirming] = useState(false);

  const cheapest = options.data?.reduce<(typeof options.data)[number] | undefined>(
    (best, o) => (best === undefined || compareAmounts(o.price, best.price) < 0 ? o : best),
    undefined,
  );
  const offered = Boolean(user && !user.subscription.active && !postponed && cheapest);
  // Once the card shows, its sheet's code comes too, so "Activate" opens it at once (offline as well).
  useEffect(() => {
    if (offered) warmUp(loadSheet, "subscription");
  }, [offered]);
  // The sheet stays open after the payment, to say until when the subscription runs.
  if (!user || (!confirming && (user.subscription.active || postponed || !cheapest))) return null;

  return (
    <>
      {confirming || !cheapest ? null : (
        <Section className="subscription-card" data-testid="subscription-prompt">
          <div className="subscription-card-body">
            <div className="subscription-card-text">
              <p className="subscription-card-title">{t("title")}</p>
              <p className="subscription-card-price">
                {t("from", { amount: format.amount(cheapest.price, cheapest.currency, { exact: true }) })}
              </p>
            </div>
            <div className="subscription-actions">
              <Button size="s" onClick={() => setConfirming(true)} data-testid="activate-subscription">
                {t("activate")}
              </Button>
              <Button
                size="s"
                mode="plain"
                onClick={() => {
                  postpone(user.id);
                  setPostponed(true);
                }}
                data-testid="subscription-later"
              >
                {t("later")}
              </Button>
            </div>
          </div>
        </Section>
      )}
      {confirming ? (
        <Suspense fallback={null}>
          <SubscriptionSheet balances={balances} onClose={() => setConfirming(false)} onRefill={onRefill} />
        </Suspense>
      ) : null}
    </>
  );
}
