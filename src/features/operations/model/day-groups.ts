/**
 * The history's days: operations (newest first, as the list pages them) grouped by the calendar day they
 * happened on in the user's own time zone, each day in the order it came — as the lines the list shows, a
 * heading per day, built a page at a time.
 */
import type { Operation } from "@contract";

/** The local calendar day of an instant, `YYYY-MM-DD`. */
function localDay(value: string | Date): string {
  const date = new Date(value);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** One line of the history as it is shown: a day's heading, or an operation under it. */
export type HistoryLine =
  | { kind: "day"; day: number }
  | {
      kind: "operation";
      operation: Operation;
      day: number;
      /** Its place among the day's operations, from 0. */
      position: number;
    };

/** A day of the history: where its heading and its last operation are among the lines. */
export interface HistoryDay {
  day: string;
  first: number;
  last: number;
  /** How many of its operations are loaded. */
  operations: number;
}

export interface History {
  lines: HistoryLine[];
  days: HistoryDay[];
}

export const emptyHistory = (): History => ({ lines: [], days: [] });

/**
 * Adds a page of operations (newest first, after those already there) to the history: a heading where a new
 * day starts, else the operation goes on under the last day's. Extends `history` in place (the lines before
 * are not gone through again) and returns it as a new object.
 */
export function addToHistory(history: History, operations: readonly Operation[]): History {
  const { lines, days } = history;
  for (const operation of operations) {
    const day = localDay(operation.createdAt);
    let last = days.at(-1);
    if (last?.day !== day) {
      last = { day, first: lines.length, last: lines.length, operations: 0 };
      days.push(last);
      lines.push({ kind: "day", day: days.length - 1 });
    }
    lines.push({ kind: "operation", operation, day: days.length - 1, position: last.operations });
    last.operations += 1;
    last.last = lines.length - 1;
  }
  return { lines, days };
}

/** "today", "yesterday", or null for an older day (its date is shown). */
export function relativeDay(day: string, now: Date = new Date()): "today" | "yesterday" | null {
  if (day === localDay(now)) return "today";
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  return day === localDay(yesterday) ? "yesterday" : null;
}
