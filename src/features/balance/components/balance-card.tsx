import type { Currency, OverviewReply } from "@contract";
import { addAmounts, compareAmounts } from "@contract/money-math";
import { useMutation, useQuery } from "@tanstack/react-query";
import { Button, Cell, Section, Skeleton } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import { useOnline } from "@/components/offline-banner";
import { amountAttributes, useMoneyFormat } from "@/lib/money";
import { haptics } from "@/tma/hooks";
import { balanceMutations, balanceQueries } from "../api/balance-queries";

export interface BalanceCardProps {
  onExchange(): void;
  onRefill(): void;
}

/** A figure of the card: the reply's exact decimal string formatted, or a skeleton of its size until it comes. */
function Figure({
  amount,
  currency,
  className,
  testId,
  placeholder = "0.00 USDT",
}: {
  amount: string | undefined;
  currency: Currency;
  className: string;
  testId: string;
  placeholder?: string;
}) {
  const format = useMoneyFormat();
  return amount === undefined ? (
    <Skeleton visible>
      <span className={className}>{placeholder}</span>
    </Skeleton>
  ) : (
    <span className={className} data-testid={testId} {...amountAttributes(amount, currency)}>
      {format.amount(amount, currency)}
    </span>
  );
}

/**
 * The cabinet's one headline (`GET /user/overview`'s `current`): the total of everything held, balance and
 * deposits, in the investor's current currency at the operator's rates; beneath it what is available and what
 * is on deposit, in the same currency; then the money actions. Figures a refresh failed to update are marked as
 * possibly out of date; offline, the offline banner says so instead (once for the whole app). The currencies held
 * are listed below it (`CurrencyList`).
 */
export function BalanceCard({ onExchange, onRefill }: BalanceCardProps) {
  const { t } = useTranslation(["cabinet", "money"]);
  const overview = useQuery(balanceQueries.overview());
  const balance = useQuery(balanceQueries.balance());
  const online = useOnline();
  const current = overview.data?.current;
  const currency: Currency = current?.currency ?? balance.data?.currentCurrency ?? "USDT";
  const stale = online && (overview.isRefetchError || balance.isRefetchError);
  return (
    <section className="balance-hero-wrap" aria-labelledby="balance-hero-label">
      {stale ? (
        <p className="stale-mark" data-testid="stale" role="status">
          {t("stale", { ns: "money" })}
        </p>
      ) : null}
      <div className="balance-hero">
        <span className="balance-hero-label" id="balance-hero-label">
          {t("overview.total", { currency })}
        </span>
        <Figure amount={current?.total} currency={currency} className="balance-hero-amount" testId="overview-total" />
        {/* Two figures side by side, a label over each: one row whatever the language. */}
        <dl className="balance-hero-split">
          <div>
            <dt>{t("overview.splitBalance")}</dt>
            <dd>
              <Figure amount={current?.balance} currency={currency} className="balance-hero-figure" testId="balance" />
            </dd>
          </div>
          <div>
            <dt>{t("overview.splitDeposits")}</dt>
            <dd>
              <Figure
                amount={current?.onDeposit}
                currency={currency}
                className="balance-hero-figure"
                testId="amount-on-deposit"
              />
            </dd>
          </div>
        </dl>
      </div>
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

/** The overview's lines with anything in them (balance or deposits), in the contract's order. */
function heldLines(overview: OverviewReply | undefined): OverviewReply["lines"] {
  return overview?.lines.filter((line) => compareAmounts(addAmounts(line.balance, line.onDeposit), 0) > 0) ?? [];
}

/**
 * The currencies held, as a list (`GET /user/overview`'s lines): each one's amount, what of it is on deposit, and
 * ≈ its value in the current currency. Tapping one makes it the current currency (`POST /user/balance`): the
 * headline is then told in it. Currencies with nothing in them are left out (all of them while nothing is held).
 */
export function CurrencyList() {
  const { t } = useTranslation("cabinet");
  const format = useMoneyFormat();
  const overview = useQuery(balanceQueries.overview());
  const setCurrency = useMutation(balanceMutations.setCurrency());
  const data = overview.data;
  const lines = heldLines(data);
  if (!data || lines.length === 0) return null;
  const current = data.current;
  // The one tapped shows as chosen at once; the figures follow with the overview's new reply.
  const chosen: Currency = setCurrency.isPending ? setCurrency.variables : current.currency;
  const choose = (code: Currency) => {
    if (code === chosen) return;
    haptics.selection();
    setCurrency.mutate(code);
  };
  return (
    <Section header={t("overview.lines")} className="currency-list" data-testid="currency-list">
      {lines.map((line) => {
        const held = addAmounts(line.balance, line.onDeposit);
        const isChosen = line.currency === chosen;
        const value = current.lines[line.currency];
        return (
          <Cell
            key={line.currency}
            Component="button"
            type="button"
            // Nothing cut: a long amount or "of which on deposit …" wraps.
            multiline
            aria-pressed={isChosen}
            className="currency-row"
            data-testid={`currency-option-${line.currency}`}
            data-currency={line.currency}
            onClick={() => choose(line.currency)}
            subtitle={
              line.currency === current.currency ? undefined : (
                <span data-testid="currency-value" {...amountAttributes(value, current.currency)}>
                  {t("overview.approx", { amount: format.amount(value, current.currency) })}
                </span>
              )
            }
            description={
              compareAmounts(line.onDeposit, 0) > 0
                ? t("overview.onDeposit", { amount: format.amount(line.onDeposit, line.currency) })
                : undefined
            }
            after={isChosen ? <span className="currency-row-check" aria-hidden="true" /> : null}
          >
            <span data-testid="currency-held" {...amountAttributes(held, line.currency)}>
              {format.amount(held, line.currency)}
            </span>
          </Cell>
        );
      })}
    </Section>
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
