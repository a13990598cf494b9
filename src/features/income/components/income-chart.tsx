import type { IncomeDay, IncomePeriod } from "@contract";
import { CURRENCY_CODES } from "@contract/enums";
import { addAmounts, compareAmounts } from "@contract/money-math";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { SegmentedControl, Skeleton } from "@telegram-apps/telegram-ui";
import { type KeyboardEvent, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { incomeQueries } from "../api-income";
import { dayName, dayTitle, tickLines, tickPlan } from "../day-labels";

/** The chart's currency (the contract's HOME_CURRENCY). */
const HOME_CURRENCY = "USDT";

/** The chart's periods, in the contract's order (INCOME_PERIODS, kept here without its schemas). */
const INCOME_PERIODS: readonly IncomePeriod[] = ["7d", "30d", "all"];

import { amountAttributes, useMoneyFormat } from "@/lib/money";
import { haptics } from "@/tma/hooks";

/** The drawing's own units: each day a column 10 wide, the bars 100 tall at most. */
const COLUMN = 10;
const HEIGHT = 100;
/** Beyond this many days a column is a few pixels wide on a phone: the chosen one gets a hairline too. */
const THIN = 60;

/**
 * The income chart (`GET /user/income`): accruals and partner bonuses by day in USDT, for 7 days, 30 days or
 * all time, drawn as stacked bars in plain SVG in the theme's colours. The figures said (the period's totals,
 * the text alternative) are the server's exact decimal strings; the day values become numbers only for the
 * bars' heights. A screen reader gets the totals as the drawing's name and a table of each currency's exact
 * income for the period. A day tapped (or reached by the keyboard) shows its date and its exact figures beneath
 * the chart; tapping it again or choosing another period lets it go.
 */
export function IncomeChart() {
  const { t } = useTranslation("cabinet");
  const format = useMoneyFormat();
  const [period, setPeriod] = useState<IncomePeriod>("7d");
  const [chosen, setChosen] = useState<string | null>(null);
  const income = useQuery({ ...incomeQueries.income(period), placeholderData: keepPreviousData });
  const data = income.data;
  const titleId = useId();
  if (income.isError && !data) return null;

  const choose = (next: IncomePeriod) => {
    if (next === period) return;
    haptics.selection();
    setPeriod(next);
    setChosen(null);
  };
  const chooseDay = (day: string | null) => {
    haptics.selection();
    setChosen(day);
  };
  const usdt = (value: string) => format.amount(value, HOME_CURRENCY);
  // A day's figure with every decimal the server kept: a day's accrual is often below a cent.
  const exact = (value: string) => format.amount(value, HOME_CURRENCY, { exact: true });
  const shown = data && data.period === period ? data : undefined;
  const summary = shown
    ? t("income.summary", {
        period: t(`income.periodLabel.${period}`),
        accruals: usdt(shown.total.accruals),
        bonuses: usdt(shown.total.bonuses),
      })
    : "";
  const chosenDay = shown?.days.find((day) => day.day === chosen);
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
          <Bars
            days={shown.days}
            label={summary}
            empty={t("income.empty")}
            chosen={chosenDay ? chosenDay.day : null}
            onChoose={chooseDay}
          />
          <div
            className={chosenDay ? "income-day income-day-shown" : "income-day"}
            aria-live="polite"
            data-testid="income-day"
          >
            {chosenDay ? (
              <>
                <span className="income-day-date" data-testid="income-day-date">
                  {dayTitle(chosenDay.day, format.lng)}
                </span>
                {(["accruals", "bonuses"] as const).map((kind) => (
                  <span className="income-day-figure" key={kind}>
                    <span className={`income-swatch income-swatch-${kind}`} aria-hidden="true" />
                    <span className="income-day-label">{t(`income.${kind}`)}</span>{" "}
                    <span
                      className="income-day-amount"
                      data-testid={`income-day-${kind}`}
                      {...amountAttributes(chosenDay[kind], HOME_CURRENCY)}
                    >
                      {exact(chosenDay[kind])}
                    </span>
                  </span>
                ))}
              </>
            ) : (
              <span className="income-day-hint">{t("income.dayHint")}</span>
            )}
          </div>
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

/**
 * The stacked bars, a button over each day's column and the date axis. Numbers here are drawing coordinates
 * only; the chosen day's figures are its decimal strings. The buttons are one stop in the tab order (a roving
 * tabindex: the chosen day, else the latest): the arrows, Home and End choose another day.
 */
function Bars({
  days,
  label,
  empty,
  chosen,
  onChoose,
}: {
  days: readonly IncomeDay[];
  label: string;
  empty: string;
  chosen: string | null;
  onChoose: (day: string | null) => void;
}) {
  const { t } = useTranslation("cabinet");
  const { lng } = useMoneyFormat();
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const values = days.map((day) => ({ accruals: Number(day.accruals), bonuses: Number(day.bonuses) }));
  const max = Math.max(0, ...values.map((v) => v.accruals + v.bonuses));
  const count = Math.max(days.length, 1);
  const width = count * COLUMN;
  const scale = (value: number) => (max > 0 ? (value / max) * HEIGHT : 0);
  const chosenIndex = days.findIndex((day) => day.day === chosen);
  const stop = chosenIndex >= 0 ? chosenIndex : days.length - 1;
  const plan = tickPlan(days.length);
  // A label's widest: its slot, less a column (the days labelled sit up to a column off their slots' middles).
  const tickWidth = plan.style === "weekday" ? `${100 / count}%` : `calc(${100 / plan.slots}% - ${100 / count}%)`;

  const move = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const last = days.length - 1;
    const next =
      event.key === "ArrowLeft"
        ? Math.max(0, index - 1)
        : event.key === "ArrowRight"
          ? Math.min(last, index + 1)
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    const day = days[next];
    if (!day) return;
    buttons.current[next]?.focus();
    if (day.day !== chosen) onChoose(day.day);
  };

  return (
    <figure className="income-figure">
      {max === 0 ? <figcaption className="income-empty">{empty}</figcaption> : null}
      <div className="income-plot">
        <svg
          className={chosenIndex >= 0 ? "income-chart income-chart-chosen" : "income-chart"}
          viewBox={`0 0 ${width} ${HEIGHT}`}
          preserveAspectRatio="none"
          role="img"
          aria-label={label}
          data-testid="income-chart"
        >
          {chosenIndex >= 0 ? (
            <>
              <rect className="income-day-band" x={chosenIndex * COLUMN} width={COLUMN} y={0} height={HEIGHT} />
              {/* A hairline too where a column is only a few pixels wide (or less than one). */}
              {count > THIN ? (
                <line
                  className="income-day-mark"
                  x1={(chosenIndex + 0.5) * COLUMN}
                  x2={(chosenIndex + 0.5) * COLUMN}
                  y1={0}
                  y2={HEIGHT}
                />
              ) : null}
            </>
          ) : null}
          <line className="income-baseline" x1={0} x2={width} y1={HEIGHT} y2={HEIGHT} />
          {values.map((v, i) => {
            const accruals = scale(v.accruals);
            const bonuses = scale(v.bonuses);
            const x = i * COLUMN + COLUMN * 0.15;
            const w = COLUMN * 0.7;
            return (
              <g key={days[i]?.day} className={i === chosenIndex ? "income-day-chosen" : undefined}>
                {accruals > 0 ? (
                  <rect className="income-bar-accruals" x={x} width={w} y={HEIGHT - accruals} height={accruals} />
                ) : null}
                {bonuses > 0 ? (
                  <rect
                    className="income-bar-bonuses"
                    x={x}
                    width={w}
                    y={HEIGHT - accruals - bonuses}
                    height={bonuses}
                  />
                ) : null}
              </g>
            );
          })}
        </svg>
        <div className="income-days" role="toolbar" aria-label={t("income.days")} data-testid="income-days">
          {days.map((day, i) => (
            <button
              key={day.day}
              ref={(button) => {
                buttons.current[i] = button;
              }}
              type="button"
              className="income-day-button"
              tabIndex={i === stop ? 0 : -1}
              aria-pressed={i === chosenIndex}
              aria-label={dayName(day.day, lng)}
              data-day={day.day}
              onClick={() => onChoose(i === chosenIndex ? null : day.day)}
              onKeyDown={(event) => move(event, i)}
            />
          ))}
        </div>
      </div>
      <div className="income-axis" aria-hidden="true" data-testid="income-axis">
        {plan.indexes.map((index) => {
          const day = days[index];
          if (!day) return null;
          return (
            <span
              key={day.day}
              className="income-tick"
              style={{ marginLeft: `${((index + 0.5) / count) * 100}%`, maxWidth: tickWidth }}
              data-testid="income-tick"
              data-day={day.day}
            >
              {tickLines(day.day, plan.style, lng).map((line) => (
                <span key={line}>{line}</span>
              ))}
            </span>
          );
        })}
      </div>
    </figure>
  );
}
