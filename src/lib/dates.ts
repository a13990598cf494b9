/**
 * Dates in the interface language (split out of the money module): Intl with the language's own
 * month names, or the numeric day.month.year Kazakhstan uses where the browser's ICU lacks them.
 */

import { dateTimeFormat } from "./intl";

/** Whether Intl knows the month names of `lng` (root data says "M01"). */
export function hasDateNames(lng: string): boolean {
  return !/M\d/.test(dateTimeFormat(lng, { month: "long" }).format(new Date(Date.UTC(2020, 0, 15))));
}

/** Dates in `lng`; without ICU data for it, the numeric day.month.year Kazakhstan uses (no foreign month names). */
function dateFormat(lng: string, withTime: boolean): Intl.DateTimeFormat {
  if (hasDateNames(lng))
    return dateTimeFormat(lng, withTime ? { dateStyle: "medium", timeStyle: "short" } : { dateStyle: "medium" });
  return dateTimeFormat(
    "ru",
    withTime
      ? { day: "2-digit", month: "2-digit", year: "numeric", hour: "2-digit", minute: "2-digit" }
      : { day: "2-digit", month: "2-digit", year: "numeric" },
  );
}

export function formatDate(iso: string, lng: string): string {
  return dateFormat(lng, false).format(new Date(iso));
}

export function formatDateTime(iso: string, lng: string): string {
  return dateFormat(lng, true).format(new Date(iso));
}
