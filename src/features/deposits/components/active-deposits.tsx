import { useInfiniteQuery } from "@tanstack/react-query";
import { Progress } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import { LinkCell } from "@/components/link-cell";
import { paths } from "@/config/paths";
import { localizedText } from "@/lib/localized";
import { amountAttributes, useMoneyFormat } from "@/lib/money";
import { depositQueries } from "../api/deposit-queries";

/**
 * The cabinet's active deposits (the first page): each with its amount, the income held so far and a bar of
 * its progress through the term; the whole list is on Deposits. Nothing shows without an active deposit.
 */
export function ActiveDeposits() {
  const { t } = useTranslation(["cabinet", "deposits"]);
  const format = useMoneyFormat();
  const list = useInfiniteQuery(depositQueries.list({ status: "active" }));
  const deposits = list.data?.pages[0]?.items ?? [];
  if (deposits.length === 0) return null;
  return (
    <section className="active-deposits-wrap" aria-labelledby="active-deposits-title" data-testid="active-deposits">
      <h2 className="income-title active-deposits-title" id="active-deposits-title">
        {t("activeDeposits.header")}
      </h2>
      <ul className="active-deposits">
        {deposits.map((deposit) => (
          <li key={deposit.id} className="active-deposit" data-testid="active-deposit" data-deposit-id={deposit.id}>
            <div className="active-deposit-head">
              <span>{localizedText(deposit.planName, format.lng)}</span>
              <span {...amountAttributes(deposit.amount, deposit.currency)}>
                {format.amount(deposit.amount, deposit.currency)}
              </span>
            </div>
            <Progress
              value={Math.round((deposit.daysAccrued / deposit.durationDays) * 100)}
              aria-label={t("list.progress", {
                ns: "deposits",
                days: deposit.daysAccrued,
                total: deposit.durationDays,
              })}
            />
            <div className="active-deposit-foot">
              <span>
                {t("list.progress", { ns: "deposits", days: deposit.daysAccrued, total: deposit.durationDays })}
              </span>
              <span>{t("activeDeposits.until", { date: format.date(deposit.endsAt) })}</span>
            </div>
          </li>
        ))}
      </ul>
      <LinkCell to={paths.deposits}>{t("activeDeposits.all")}</LinkCell>
    </section>
  );
}
