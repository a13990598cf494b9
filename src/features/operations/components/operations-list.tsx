import { CURRENCY_CODES, LEDGER_OPERATION_TYPES } from "@contract/enums";
import { useInfiniteQuery } from "@tanstack/react-query";
import { Section } from "@telegram-apps/telegram-ui";
import { type CSSProperties, type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { useAheadPages } from "@/components/ahead-pages";
import { FilterSelect } from "@/components/form/filter-select";
import { PagedList } from "@/components/query-section";
import { usePagesBuilt, useWindowList, type WindowList } from "@/components/window-list";
import { useMoneyFormat } from "@/lib/money";
import { type OperationFilter, operationQueries } from "../api/operation-queries";
import { formatDay } from "../model/day-format";
import {
  addToHistory,
  emptyHistory,
  type History,
  type HistoryDay,
  type HistoryLine,
  relativeDay,
} from "../model/day-groups";
import { OperationRow } from "./operation-row";

/** Heights before a line is laid out: a day's heading, an operation's row. */
const DAY_ESTIMATE_PX = 32;
const ROW_ESTIMATE_PX = 64;
/** Lines rendered beyond each edge of the screen: a page's worth. */
const OVERSCAN = 20;

/**
 * Every operation, newest first, under a heading per day, with currency and kind filters; more load on demand.
 * Virtualised: only the lines about the screen are in the document, however many pages are loaded, and a new
 * page is grouped by day on its own (the lines before it are not gone through again).
 */
export function OperationsList() {
  const { t } = useTranslation(["operations", "enums", "common"]);
  const [filter, setFilter] = useState<OperationFilter>({});
  const list = useAheadPages(useInfiniteQuery(operationQueries.list(filter)), JSON.stringify(filter));
  const history = usePagesBuilt(list.data?.pages, emptyHistory, (built, page) => addToHistory(built, page.items));
  return (
    <Section>
      <div className="money-filters">
        <FilterSelect
          name="currency"
          label={t("filters.currency")}
          allLabel={t("filters.all")}
          value={filter.currency}
          options={CURRENCY_CODES}
          onChange={(currency) => setFilter((f) => ({ ...f, currency }))}
        />
        <FilterSelect
          name="type"
          label={t("filters.type")}
          allLabel={t("filters.all")}
          value={filter.type}
          options={LEDGER_OPERATION_TYPES}
          optionLabel={(type) => t(`ledgerOperationType.${type}`, { ns: "enums" })}
          onChange={(type) => setFilter((f) => ({ ...f, type }))}
        />
      </div>
      <PagedList
        query={list}
        items={history.lines}
        empty={t("empty")}
        filtered={Boolean(filter.currency || filter.type)}
        noMatch={t("noMatch")}
        loadMore={t("loadMore")}
        testId="operations-list"
        renderItems={() => <HistoryLines history={history} more={list.hasNextPage} />}
      />
    </Section>
  );
}

/**
 * The history's lines over the window's scroll. Each day with a line about the screen is a section as tall as
 * all its lines, its heading sticky at the top while its rows scroll, the rows about the screen a list in it
 * (their place in the day and the day's size said to screen readers); the room of the lines not rendered is
 * kept by margins.
 */
function HistoryLines({ history, more }: { history: History; more: boolean }) {
  const { lines, days } = history;
  const list = useWindowList({
    count: lines.length,
    estimateSize: (index) => (lines[index]?.kind === "day" ? DAY_ESTIMATE_PX : ROW_ESTIMATE_PX),
    getItemKey: (index) => lineKey(history, lines[index], index),
    overscan: OVERSCAN,
  });
  // The rendered lines by day, in order.
  const shown: { day: number; rows: number[] }[] = [];
  for (const item of list.items) {
    const line = lines[item.index];
    if (!line) continue;
    let group = shown.at(-1);
    if (group?.day !== line.day) {
      group = { day: line.day, rows: [] };
      shown.push(group);
    }
    if (line.kind === "operation") group.rows.push(item.index);
  }
  let cursor = 0;
  return (
    <div ref={list.listRef} className="window-list" style={{ height: list.totalSize }}>
      {shown.map(({ day: index, rows }) => {
        const day = days[index] as HistoryDay;
        const top = list.startOf(day.first);
        const gap = top - cursor;
        cursor = list.endOf(day.last);
        return (
          <DayGroup
            key={lineKey(history, lines[day.first], day.first)}
            day={day}
            headingIndex={day.first}
            measure={list.measure}
            style={{ marginTop: gap > 0.5 ? gap : undefined, height: cursor - top }}
          >
            <DayRows
              rows={rows}
              lines={lines}
              list={list}
              from={list.endOf(day.first)}
              setSize={more && index === days.length - 1 ? -1 : day.operations}
            />
          </DayGroup>
        );
      })}
    </div>
  );
}

function lineKey(history: History, line: HistoryLine | undefined, index: number): string | number {
  if (!line) return index;
  return line.kind === "operation" ? line.operation.id : `day:${history.days[line.day]?.day}:${line.day}`;
}

/**
 * A day's rendered rows as a list, each where its line is (the room of those not rendered as its margin); none
 * where only the day's heading is about the screen (no empty list for screen readers).
 */
function DayRows({
  rows,
  lines,
  list,
  from,
  setSize,
}: {
  rows: number[];
  lines: HistoryLine[];
  list: WindowList;
  from: number;
  setSize: number;
}) {
  if (rows.length === 0) return null;
  let cursor = from;
  return (
    <ul className="window-list">
      {rows.map((index) => {
        const line = lines[index];
        if (line?.kind !== "operation") return null;
        const gap = list.startOf(index) - cursor;
        cursor = list.endOf(index);
        return (
          <li
            key={line.operation.id}
            data-index={index}
            ref={list.measure}
            aria-posinset={line.position + 1}
            aria-setsize={setSize}
            style={gap > 0.5 ? { marginTop: gap } : undefined}
          >
            <OperationRow operation={line.operation} timeOnly />
          </li>
        );
      })}
    </ul>
  );
}

/** One day's section under its sticky heading: "Today", "Yesterday", else the date in the user's language. */
function DayGroup({
  day,
  headingIndex,
  measure,
  style,
  children,
}: {
  day: HistoryDay;
  headingIndex: number;
  measure(element: HTMLElement | null): void;
  style: CSSProperties;
  children: ReactNode;
}) {
  const { t } = useTranslation("operations");
  const { lng } = useMoneyFormat();
  const relative = relativeDay(day.day);
  // Local noon: the same calendar day whatever the time zone's offset.
  const label = relative ? t(`day.${relative}`) : formatDay(`${day.day}T12:00:00`, lng);
  return (
    <section
      className="operation-day-group"
      aria-label={label}
      data-testid="operation-day"
      data-day={day.day}
      style={style}
    >
      <h2 className="operation-day" data-index={headingIndex} ref={measure}>
        {label}
      </h2>
      {children}
    </section>
  );
}
