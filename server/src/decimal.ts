/**
 * PostgreSQL NUMERIC columns come back padded to their scale ("10.000000000000000000"). The wire
 * format is the shortest exact decimal string ("10"), so replies pass amounts through here.
 * Pure string work: an amount never becomes a JS number.
 */
export function normalizeDecimal(value: string): string {
  const match = /^(-?)(\d+)(?:\.(\d*))?$/.exec(value.trim());
  if (!match) throw new Error("not a decimal string");
  const [, sign = "", intPart = "0", fraction = ""] = match;
  const int = intPart.replace(/^0+(?=\d)/, "");
  const frac = fraction.replace(/0+$/, "");
  const result = frac ? `${int}.${frac}` : int;
  return result === "0" ? "0" : `${sign}${result}`;
}
