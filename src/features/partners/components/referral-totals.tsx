import type { ReferralTotals as Totals } from "@contract";
import { Section } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import { PerCurrency } from "./per-currency";

/** The whole downline within the lines: referrals, each line's count and profit, all profit, turnover. */
export function ReferralTotals({ totals }: { totals: Totals }) {
  const { t } = useTranslation("partners");
  return (
    <Section header={t("totals.header")}>
      <div className="referral-totals" data-testid="referral-totals" data-referrals={totals.referrals}>
        <dl className="stats-bar">
          <div>
            <dt>{t("totals.referrals")}</dt>
            <dd data-testid="referral-count">{totals.referrals}</dd>
          </div>
          <div>
            <dt>{t("totals.profit")}</dt>
            <dd>
              <PerCurrency amounts={totals.profit} testId="referral-total-profit" />
            </dd>
          </div>
          <div>
            <dt>{t("totals.turnover")}</dt>
            <dd>
              <PerCurrency amounts={totals.turnover} testId="referral-turnover" />
            </dd>
          </div>
        </dl>
        <ul className="referral-lines">
          {totals.byLine.map((line) => (
            <li key={line.line} data-testid="referral-line-total" data-line={line.line} data-count={line.count}>
              <span className="referral-line-name">{t("totals.line", { line: line.line })}</span>
              <span className="referral-line-count">{t("totals.lineCount", { count: line.count })}</span>
              <PerCurrency amounts={line.profit} />
            </li>
          ))}
        </ul>
      </div>
    </Section>
  );
}
