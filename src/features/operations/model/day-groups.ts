/**
 * The history's days: operations (newest first, as the list pages them) grouped by the calendar day they
 * happened on in the user's own time zone, each day in the order it came.
 */
import type { Operation } from "@contract";

export interface OperationDay {
  /** The local calendar day, `YYYY-MM-DD`. */
  day: string;
  operations: Operation[];
}

/** The local calendar day of an instant, `YYYY-MM-DD`. */
export function localDay(value: string | Date): string {
  const date = new Date(value);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export function groupByDay(operations: readonly Operation[]): OperationDay[] {
  const days: OperationDay[] = [];
  for (const operation of operations) {
    const day = localDay(operation.createdAt);
    const last = days.at(-1);
    if (last?.day === day) last.operations.push(operation);
    else days.push({ day, operations: [operation] });
  }
  return days;
}

/** "today", "yesterday", or null for an older day (its date is shown). */
export function relativeDay(day: string, now: Date = new Date()): "today" | "yesterday" | null {
  if (day === localDay(now)) return "today";
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  return day === localDay(yesterday) ? "yesterday" : null;
}
