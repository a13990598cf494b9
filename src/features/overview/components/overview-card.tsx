import type { Currency } from "@contract";
import { addAmounts, compareAmounts } from "@contract/money-math";
import { useQuery } from "@tanstack/react-query";
import { Skeleton } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import { amountAttributes, useMoneyFormat } from "@/lib/money";
import { overviewQueries } from "../api/overview-queries";
import "../overview.css";

/** The currency the whole picture is told in (the contract's HOME_CURRENCY, kept here without its schemas). */
const HOME_CURRENCY: Currency = "USDT";

/**
 * The whole picture (`GET /user/overview`): everything the investor holds, balance and deposits, told in
 * USDT at the operator's rates, and beneath it each currency held, in its own unit with its USDT value.
 * Currencies with nothing in them are left out (all of them while nothing is held: the total says 0).
 * Every figure is the server's exact decimal string, formatted, never a JS number.
 */
export function OverviewCard() {
  const { t } = useTranslation("cabinet");
  const format = useMoneyFormat();
  const overview = useQuery(overviewQueries.overview());
  const data = overview.data;
  if (overview.isError && !data) return null;
  const held =
    data?.lines.filter(
      (line) =>
        compareAmounts(line.totalUsdt, 0) > 0 || compareAmounts(addAmounts(line.balance, line.onDeposit), 0) > 0,
    ) ?? [];
  return (
    <section className="overview" aria-labelledby="overview-label" data-testid="overview">
      <span className="overview-label" id="overview-label">
        {t("overview.total", { currency: HOME_CURRENCY })}
      </span>
      {data ? (
        <span
          className="overview-total"
          data-testid="overview-total"
          {...amountAttributes(data.totalUsdt, HOME_CURRENCY)}
        >
          {format.amount(data.totalUsdt, HOME_CURRENCY)}
        </span>
      ) : (
        <Skeleton visible>
          <span className="overview-total">0.00 USDT</span>
        </Skeleton>
      )}
      {data ? (
        // Two rows, whatever the amounts' length: the room kept for the card before it comes is sized for them.
        <span className="overview-split">
          <span>{t("overview.splitBalance", { amount: format.amount(data.balanceUsdt, HOME_CURRENCY) })}</span>
          <span>{t("overview.splitDeposits", { amount: format.amount(data.onDepositUsdt, HOME_CURRENCY) })}</span>
        </span>
      ) : null}
      {held.length > 0 ? (
        <ul className="overview-lines" aria-label={t("overview.lines")}>
          {held.map((line) => (
            <li key={line.currency} className="overview-line" data-testid="overview-line" data-currency={line.currency}>
              <span className="overview-line-code">{line.currency}</span>
              <span className="overview-line-held">
                <span
                  data-testid="overview-line-held"
                  {...amountAttributes(addAmounts(line.balance, line.onDeposit), line.currency)}
                >
                  {format.amount(addAmounts(line.balance, line.onDeposit), line.currency)}
                </span>
                {compareAmounts(line.onDeposit, 0) > 0 ? (
                  <span className="overview-line-deposit">
                    {t("overview.onDeposit", { amount: format.amount(line.onDeposit, line.currency) })}
                  </span>
                ) : null}
              </span>
              <span
                className="overview-line-usdt"
                data-testid="overview-line-usdt"
                {...amountAttributes(line.totalUsdt, HOME_CURRENCY)}
              >
                {t("overview.approx", { amount: format.amount(line.totalUsdt, HOME_CURRENCY) })}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
