import type { IncomeDay, IncomePeriod } from "@contract";
import { CURRENCY_CODES } from "@contract/enums";
import { addAmounts, compareAmounts } from "@contract/money-math";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { SegmentedControl, Skeleton } from "@telegram-apps/telegram-ui";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { incomeQueries } from "../api-income";

/** The chart's currency (the contract's HOME_CURRENCY). */
const HOME_CURRENCY = "USDT";

/** The chart's periods, in the contract's order (INCOME_PERIODS, kept here without its schemas). */
const INCOME_PERIODS: readonly IncomePeriod[] = ["7d", "30d", "all"];

import { amountAttributes, useMoneyFormat } from "@/lib/money";
import { haptics } from "@/tma/hooks";

/** The drawing's own units: each day a column 10 wide, the bars 100 tall at most. */
const COLUMN = 10;
const HEIGHT = 100;

/**
 * The income chart (`GET /user/income`): accruals and partner bonuses by day in USDT, for 7 days, 30 days or
 * all time, drawn as stacked bars in plain SVG in the theme's colours. The figures said (the period's totals,
 * the text alternative) are the server's exact decimal strings; the day values become numbers only for the
 * bars' heights. A screen reader gets the totals as the drawing's name and a table of each currency's exact
 * income for the period.
 */
export function IncomeChart() {
  const { t } = useTranslation("cabinet");
  const format = useMoneyFormat();
  const [period, setPeriod] = useState<IncomePeriod>("7d");
  const income = useQuery({ ...incomeQueries.income(period), placeholderData: keepPreviousData });
  const data = income.data;
  const titleId = useId();
  if (income.isError && !data) return null;

  const choose = (next: IncomePeriod) => {
    if (next === period) return;
    haptics.selection();
    setPeriod(next);
  };
  const usdt = (value: string) => format.amount(value, HOME_CURRENCY);
  const shown = data && data.period === period ? data : undefined;
  const summary = shown
    ? t("income.summary", {
        period: t(`income.periodLabel.${period}`),
        accruals: usdt(shown.total.accruals),
        bonuses: usdt(shown.total.bonuses),
      })
    : "";
  const currencies = shown
    ? CURRENCY_CODES.filter((code) => {
        const totals = shown.byCurrency[code];
        return compareAmounts(totals.accruals, 0) > 0 || compareAmounts(totals.bonuses, 0) > 0;
      })
    : [];

  return (
    <section className="income" aria-labelledby={titleId} data-testid="income" data-period={period}>
      <div className="income-head">
        <h2 className="income-title" id={titleId}>
          {t("income.header")}
        </h2>
        {shown ? (
          <span
            className="income-total"
            data-testid="income-total"
            {...amountAttributes(addAmounts(shown.total.accruals, shown.total.bonuses), HOME_CURRENCY)}
          >
            {usdt(addAmounts(shown.total.accruals, shown.total.bonuses))}
          </span>
        ) : null}
      </div>
      <fieldset className="income-periods">
        <legend className="visually-hidden">{t("income.period")}</legend>
        <SegmentedControl>
          {INCOME_PERIODS.map((code) => (
            <SegmentedControl.Item
              key={code}
              selected={code === period}
              aria-selected={code === period}
              onClick={() => choose(code)}
              className="income-period"
              data-testid={`income-period-${code}`}
            >
              {t(`income.periods.${code}`)}
            </SegmentedControl.Item>
          ))}
        </SegmentedControl>
      </fieldset>
      {shown ? (
        <>
          <Bars days={shown.days} label={summary} empty={t("income.empty")} />
          <ul className="income-legend">
            <li>
              <span className="income-swatch income-swatch-accruals" aria-hidden="true" />
              {t("income.accruals")}{" "}
              <span data-testid="income-accruals" {...amountAttributes(shown.total.accruals, HOME_CURRENCY)}>
                {usdt(shown.total.accruals)}
              </span>
            </li>
            <li>
              <span className="income-swatch income-swatch-bonuses" aria-hidden="true" />
              {t("income.bonuses")}{" "}
              <span data-testid="income-bonuses" {...amountAttributes(shown.total.bonuses, HOME_CURRENCY)}>
                {usdt(shown.total.bonuses)}
              </span>
            </li>
          </ul>
          {/* Hidden in a box: a table keeps the width of its content whatever its own width says, and
              a 500 px table widened the page at 320 px, pushing the fixed tab bar off the screen. */}
          <div className="visually-hidden">
            <table data-testid="income-table">
              <caption>{summary}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("income.currency")}</th>
                  <th scope="col">{t("income.accruals")}</th>
                  <th scope="col">{t("income.bonuses")}</th>
                </tr>
              </thead>
              <tbody>
                {currencies.map((code) => (
                  <tr key={code} data-currency={code}>
                    <th scope="row">{code}</th>
                    <td>{format.amount(shown.byCurrency[code].accruals, code, { exact: true })}</td>
                    <td>{format.amount(shown.byCurrency[code].bonuses, code, { exact: true })}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : (
        <Skeleton visible>
          <div className="income-chart" />
        </Skeleton>
      )}
    </section>
  );
}

/** The stacked bars; numbers here are drawing coordinates only. */
function Bars({ days, label, empty }: { days: readonly IncomeDay[]; label: string; empty: string }) {
  const format = useMoneyFormat();
  const values = days.map((day) => ({ accruals: Number(day.accruals), bonuses: Number(day.bonuses) }));
  const max = Math.max(0, ...values.map((v) => v.accruals + v.bonuses));
  const width = Math.max(days.length, 1) * COLUMN;
  const scale = (value: number) => (max > 0 ? (value / max) * HEIGHT : 0);
  const first = days[0];
  const last = days.at(-1);
  return (
    <figure className="income-figure">
      <svg
        className="income-chart"
        viewBox={`0 0 ${width} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={label}
        data-testid="income-chart"
      >
        <line className="income-baseline" x1={0} x2={width} y1={HEIGHT} y2={HEIGHT} />
        {values.map((v, i) => {
          const accruals = scale(v.accruals);
          const bonuses = scale(v.bonuses);
          const x = i * COLUMN + COLUMN * 0.15;
          const w = COLUMN * 0.7;
          return (
            <g key={days[i]?.day}>
              {accruals > 0 ? (
                <rect className="income-bar-accruals" x={x} width={w} y={HEIGHT - accruals} height={accruals} />
              ) : null}
              {bonuses > 0 ? (
                <rect className="income-bar-bonuses" x={x} width={w} y={HEIGHT - accruals - bonuses} height={bonuses} />
              ) : null}
            </g>
          );
        })}
      </svg>
      {max === 0 ? <figcaption className="income-empty">{empty}</figcaption> : null}
      {first && last ? (
        <div className="income-axis" aria-hidden="true">
          <span>{format.date(`${first.day}T00:00:00Z`)}</span>
          <span>{format.date(`${last.day}T00:00:00Z`)}</span>
        </div>
      ) : null}
    </figure>
  );
}
