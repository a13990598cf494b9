/**
 * The income chart's days in words: the date axis's few labels and the chosen day's date. The chart's days are
 * UTC days (`YYYY-MM-DD`), so each is formatted in UTC: a phone west of Greenwich would otherwise name the day
 * before. Intl names the months and weekdays; without its data for the language (a Kazakh interface in
 * Debian's Chromium) the numeric day.month Kazakhstan uses, as the app's other dates do.
 */
import { hasDateNames } from "@/lib/dates";
import { dateTimeFormat } from "@/lib/intl";

/** How many days get a label beside their column at most: each label has a quarter of the width (a third for months). */
const TICKS = 4;
const MONTH_TICKS = 3;
/** Beyond this many days the labels name months (each at least two months apart) rather than days. */
const MONTHS_BEYOND = 180;

export type TickStyle = "weekday" | "day" | "month";

function utc(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}

function format(lng: string, options: Intl.DateTimeFormatOptions, day: string): string {
  return dateTimeFormat(lng, { ...options, timeZone: "UTC" }).format(utc(day));
}

/** Which days of `count` get a label, and in what style. */
export function tickPlan(count: number): { style: TickStyle; indexes: number[]; slots: number } {
  if (count <= 7) return { style: "weekday", indexes: Array.from({ length: count }, (_, i) => i), slots: count };
  const slots = count > MONTHS_BEYOND ? MONTH_TICKS : TICKS;
  // The day at the middle of each equal slot of the width: a label centred on it stays inside its slot, so
  // none overlaps its neighbour or is cut at either edge.
  const indexes = Array.from({ length: slots }, (_, k) => Math.floor(((k + 0.5) * count) / slots));
  return { style: count > MONTHS_BEYOND ? "month" : "day", indexes, slots };
}

/** The label of `day` in `style` and `lng`. */
export function tickLines(day: string, style: TickStyle, lng: string): string[] {
  if (!hasDateNames(lng)) {
    return [
      format(
        "ru",
        style === "month" ? { month: "2-digit", year: "numeric" } : { day: "2-digit", month: "2-digit" },
        day,
      ),
    ];
  }
  if (style === "weekday") return [format(lng, { weekday: "short" }, day), format(lng, { day: "numeric" }, day)];
  if (style === "month") return [format(lng, { month: "short", year: "numeric" }, day)];
  return [format(lng, { day: "numeric", month: "short" }, day)];
}

/** The chosen day in full: "Wed, Mar 4, 2026", "ср, 4 мар. 2026 г.", "Mi., 4. März 2026". */
export function dayTitle(day: string, lng: string): string {
  if (!hasDateNames(lng)) return format("ru", { day: "2-digit", month: "2-digit", year: "numeric" }, day);
  return format(lng, { weekday: "short", day: "numeric", month: "short", year: "numeric" }, day);
}

/** A day's name for its button: "March 4, 2026". */
export function dayName(day: string, lng: string): string {
  if (!hasDateNames(lng)) return format("ru", { day: "2-digit", month: "2-digit", year: "numeric" }, day);
  return format(lng, { day: "numeric", month: "long", year: "numeric" }, day);
}
