/** Column helpers shared by the schema's areas: amounts, percentages, timestamps, CHECK lists. */
import { sql } from "drizzle-orm";
import { numeric, timestamp } from "drizzle-orm/pg-core";

/** Money amounts: up to 20 integer digits and 18 decimals (enough for any coin's smallest unit). */
export const amount = (name: string) => numeric(name, { precision: 38, scale: 18 });
/** Percentages and rates. */
export const percent = (name: string) => numeric(name, { precision: 20, scale: 8 });
export const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
/** `'a', 'b'` for a CHECK … IN (…) over a fixed list of the contract. */
export const sqlList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(", "));
