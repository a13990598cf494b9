import { type Bonus, compareAmounts, money } from "@contract";
import { useQuery } from "@tanstack/react-query";
import { Progress, Section } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import { QuerySection } from "@/components/query-section";
import { amountAttributes, useMoneyFormat } from "@/lib/money";
import { partnerQueries } from "../api/partner-queries";

/** The four turnover bonuses: progress towards each turnover, its award, and whether it was reached and paid. */
export function BonusList() {
  const { t } = useTranslation(["partners", "common"]);
  const bonuses = useQuery(partnerQueries.bonuses());
  return (
    <Section header={t("bonuses.header")}>
      <QuerySection query={bonuses} empty={t("bonuses.header")}>
        {(list) => list.map((bonus) => <BonusRow key={bonus.index} bonus={bonus} />)}
      </QuerySection>
    </Section>
  );
}

/** Progress in percent (0–100), for the bar only; the figures beside it are exact. */
function percentOf(progress: string, target: string): number {
  if (compareAmounts(target, 0) <= 0) return 100;
  if (compareAmounts(progress, target) >= 0) return 100;
  return Number(money(progress).times(100).div(target).toFixed(1));
}

function BonusRow({ bonus }: { bonus: Bonus }) {
  const { t } = useTranslation("partners");
  const format = useMoneyFormat();
  const state = bonus.paid ? "paid" : bonus.reached ? "reached" : "progress";
  return (
    <div
      className={`money-row bonus-row bonus-${state}`}
      data-testid="bonus"
      data-index={bonus.index}
      data-reached={bonus.reached ? "true" : "false"}
      data-paid={bonus.paid ? "true" : "false"}
    >
      <span className="money-row-head">
        <span>{t("bonuses.bonus", { index: bonus.index })}</span>
        <span className={`status-badge ${bonus.paid || bonus.reached ? "bonus-badge-done" : "bonus-badge-progress"}`}>
          {bonus.paid && bonus.paidAt
            ? t("bonuses.paid", { date: format.date(bonus.paidAt) })
            : bonus.reached
              ? t("bonuses.reached")
              : t("bonuses.notReached")}
        </span>
      </span>
      <Progress value={percentOf(bonus.progress, bonus.turnover)} />
      <span className="money-row-sub">
        <span data-testid="bonus-progress" {...amountAttributes(bonus.progress, bonus.currency)}>
          {t("bonuses.progress", {
            progress: format.amount(bonus.progress, bonus.currency, { code: false }),
            turnover: format.amount(bonus.turnover, bonus.currency),
          })}
        </span>
        <span className="bonus-award" data-testid="bonus-award" {...amountAttributes(bonus.award, bonus.currency)}>
          {t("bonuses.award", { amount: format.amount(bonus.award, bonus.currency) })}
        </span>
      </span>
    </div>
  );
}
