/**
 * drizzle-orm's PGlite driver passes its own result parsers with every statement: the date and time types and their
 * arrays, each handing the text on as it came (drizzle maps it itself). PGlite merges a statement's parsers into a
 * copy of its whole parser table (its types and an array type for each, 318 entries) on every statement: 74 µs of
 * CPU, about a third of what a one-row select costs on the client. Here the client's own table takes drizzle's
 * parsers once, and a statement's `parsers` are left out when each of them hands its text on as it came, which the
 * table then does too: the same rows, no copy. A parser that does anything else is passed on as it is.
 */
import type { PGlite, Transaction } from "@electric-sql/pglite";

/** What drizzle-orm's PGlite driver parses as text: timestamp, timestamptz, interval, date, and their arrays, and numeric[]. */
const AS_TEXT = [1114, 1184, 1186, 1082, 1115, 1185, 1187, 1182, 1231];
const asText = (value: string) => value;
/** A value no parser that does something returns unchanged. */
const PROBE = "\u0000kassa-probe";

type Options = { parsers?: Record<number, (value: string, typeId: number) => unknown> } & Record<string, unknown>;
type Query = (query: string, params?: unknown[], options?: Options) => Promise<unknown>;

export function parsersOnce(client: PGlite): PGlite {
  const table = client.parsers as Record<number, unknown>;
  for (const type of AS_TEXT) table[type] = asText;
  const lean =
    (query: Query): Query =>
    (text, params, options) =>
      query(
        text,
        params,
        options?.parsers && asTheTable(options.parsers) ? { ...options, parsers: undefined } : options,
      );
  const asTheTable = (parsers: NonNullable<Options["parsers"]>) => {
    for (const key in parsers) {
      const type = Number(key);
      if (table[type] !== asText || parsers[type]?.(PROBE, type) !== PROBE) return false;
    }
    return true;
  };
  const target = client as unknown as { query: Query; transaction: PGlite["transaction"] };
  const query = target.query.bind(client);
  const transaction = target.transaction.bind(client);
  target.query = lean(query);
  target.transaction = (callback) =>
    transaction((tx: Transaction) => {
      const own = tx as unknown as { query: Query };
      own.query = lean(own.query);
      return callback(tx);
    });
  return client;
}
