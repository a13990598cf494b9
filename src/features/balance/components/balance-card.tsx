import type { Currency } from "@contract";
import { CURRENCY_CODES } from "@contract/enums";
import { useMutation, useQuery } from "@tanstack/react-query";
import { Button, SegmentedControl, Skeleton } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import { useOnline } from "@/components/offline-banner";
import { amountAttributes, useMoneyFormat } from "@/lib/money";
import { haptics } from "@/tma/hooks";
import { balanceMutations, balanceQueries } from "../api/balance-queries";

export interface BalanceCardProps {
  onExchange(): void;
  onRefill(): void;
}

/**
 * The balance in the current currency with the currency switcher (`POST /user/balance`), the amount on
 * deposit, and the money actions. Figures a refresh failed to update are marked as possibly out of date; offline,
 * the offline banner says so instead (once for the whole app).
 */
export function BalanceCard({ onExchange, onRefill }: BalanceCardProps) {
  const { t } = useTranslation(["cabinet", "money"]);
  const format = useMoneyFormat();
  const balance = useQuery(balanceQueries.balance());
  const statistics = useQuery(balanceQueries.statistics());
  const setCurrency = useMutation(balanceMutations.setCurrency());
  const online = useOnline();
  const currency: Currency = setCurrency.isPending ? setCurrency.variables : (balance.data?.currentCurrency ?? "USDT");
  const stale = online && (balance.isRefetchError || statistics.isRefetchError);

  const choose = (code: Currency) => {
    if (code === currency) return;
    haptics.selection();
    setCurrency.mutate(code);
  };

  const amount = balance.data?.currencies[currency];
  const onDeposit = statistics.data?.amountOnDeposit[currency];
  return (
    <section className="balance-hero-wrap" aria-label={t("balance")}>
      {stale ? (
        <p className="stale-mark" data-testid="stale" role="status">
          {t("stale", { ns: "money" })}
        </p>
      ) : null}
      <div className="balance-hero">
        <span className="balance-hero-label">{t("balance")}</span>
        {amount === undefined ? (
          <Skeleton visible>
            <span className="balance-hero-amount">0.00 USDT</span>
          </Skeleton>
        ) : (
          <span className="balance-hero-amount" data-testid="balance" {...amountAttributes(amount, currency)}>
            {format.amount(amount, currency)}
          </span>
        )}
        <span className="balance-hero-deposit">
          {t("amountOnDeposit")}:{" "}
          {onDeposit === undefined ? (
            "…"
          ) : (
            <span data-testid="amount-on-deposit" {...amountAttributes(onDeposit, currency)}>
              {format.amount(onDeposit, currency)}
            </span>
          )}
        </span>
      </div>
      <fieldset className="currency-switcher language-switcher">
        <legend className="visually-hidden">{t("currency")}</legend>
        <SegmentedControl>
          {CURRENCY_CODES.map((code) => (
            <SegmentedControl.Item
              key={code}
              selected={code === currency}
              aria-selected={code === currency}
              onClick={() => choose(code)}
              className="currency-option"
              data-testid={`currency-option-${code}`}
            >
              {code}
            </SegmentedControl.Item>
          ))}
        </SegmentedControl>
      </fieldset>
      <div className="balance-actions">
        <Button size="m" mode="filled" onClick={onRefill} data-testid="open-refill">
          {t("refill")}
        </Button>
        <Button size="m" mode="bezeled" onClick={onExchange} data-testid="open-exchange">
          {t("exchange")}
        </Button>
      </div>
    </section>
  );
}

/** The balances bar (`GET /user/statistics`): earned in the current currency, referrals, active deposits. */
export function StatsBar() {
  const { t } = useTranslation("cabinet");
  const format = useMoneyFormat();
  const statistics = useQuery(balanceQueries.statistics());
  const balance = useQuery(balanceQueries.balance());
  const data = statistics.data;
  const currency = balance.data?.currentCurrency ?? data?.currentCurrency ?? "USDT";
  const value = (node: React.ReactNode) =>
    data === undefined ? (
      <Skeleton visible>
        <span>000</span>
      </Skeleton>
    ) : (
      node
    );
  return (
    <dl className="stats-bar" aria-label={t("stats.header")}>
      <div>
        <dt>{t("stats.earned")}</dt>
        <dd>
          {value(
            data ? (
              <span data-testid="stat-earned" {...amountAttributes(data.earned[currency], currency)}>
                {format.amount(data.earned[currency], currency)}
              </span>
            ) : null,
          )}
        </dd>
      </div>
      <div>
        <dt>{t("stats.referrals")}</dt>
        <dd>{value(<span data-testid="stat-referrals">{data?.referrals}</span>)}</dd>
      </div>
      <div>
        <dt>{t("stats.activeDeposits")}</dt>
        <dd>{value(<span data-testid="stat-active-deposits">{data?.activeDeposits}</span>)}</dd>
      </div>
    </dl>
  );
}
