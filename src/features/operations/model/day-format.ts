/**
 * The history's dates in the interface language (beside `lib/dates.ts`, kept out of the first screen's
 * code): a day as a heading and a time of day.
 */
import { formatDate, hasDateNames } from "@/lib/dates";
import { dateTimeFormat } from "@/lib/intl";

/**
 * A day as a list's heading in `lng`: the day and the month in words, the year only when it is not this
 * year's ("25 ноября", "3. März 2025"); without ICU data for `lng`, the numeric date.
 */
export function formatDay(iso: string, lng: string, now: Date = new Date()): string {
  const date = new Date(iso);
  if (!hasDateNames(lng)) return formatDate(iso, lng);
  const thisYear = date.getFullYear() === now.getFullYear();
  return dateTimeFormat(lng, { day: "numeric", month: "long", year: thisYear ? undefined : "numeric" }).format(date);
}

/** A time of day in `lng` ("14:05", "2:05 PM"). */
export function formatTime(iso: string, lng: string): string {
  return dateTimeFormat(hasDateNames(lng) ? lng : "ru", { timeStyle: "short" }).format(new Date(iso));
}
