import type { Currency } from "@contract";

/** What the statement form holds: the period's days (`YYYY-MM-DD`, "" when cleared) and the currency ("" for all). */
export interface StatementDraft {
  from: string;
  to: string;
  currency: Currency | "";
}

/** This month so far, in the user's calendar: the 1st … today. */
export function thisMonth(now: Date = new Date()): StatementDraft {
  const pad = (n: number) => String(n).padStart(2, "0");
  const month = `${now.getFullYear()}-${pad(now.getMonth() + 1)}`;
  return { from: `${month}-01`, to: `${month}-${pad(now.getDate())}`, currency: "" };
}
