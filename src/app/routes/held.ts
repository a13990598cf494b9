/**
 * The room the cabinet keeps above its balance for the whole picture, counted from the balance and the statistics:
 * the cabinet (`routes/cabinet.tsx`) and the launcher's painted block (`app/launcher/`) both size it here.
 */

/** What the whole picture will list: a line per currency held (balance or deposits), a second row on each with deposits. */
export interface Held {
  lines: number;
  deposits: number;
}

/** The room's size, as styles/cabinet.css reads it. */
export const roomStyle = ({ lines, deposits }: Held) => ({
  "--reserved-lines": lines,
  "--reserved-deposits": deposits,
});

/**
 * The whole picture's lines: the currencies with money on the balance or on deposits, and those with deposits
 * (exact: a decimal string with a digit other than 0). Read from the balance and the statistics, which come with
 * the launch; the launcher's painted room counts with it (`app/launcher/`).
 */
export function heldOf(balances: Record<string, string> = {}, onDeposit: Record<string, string> = {}): Held {
  const some = (amount: string | undefined) => /[1-9]/.test(amount ?? "");
  const currencies = Object.keys({ ...balances, ...onDeposit });
  return {
    lines: currencies.filter((currency) => some(balances[currency]) || some(onDeposit[currency])).length,
    deposits: currencies.filter((currency) => some(onDeposit[currency])).length,
  };
}
