/** The withdrawal preview, exactly as the server computes it (server README "Withdrawals"). */
import { type Currency, money, roundDown, toDecimalString } from "@contract";

/** `fee = roundDown(amount × feePercent / 100)` to the currency's scale; `toReceive = amount − fee`. */
export function withdrawalPreview(amount: string, feePercent: string, currency: Currency) {
  const fee = roundDown(money(amount).times(feePercent).div(100), currency);
  return { fee, toReceive: toDecimalString(money(amount).minus(fee)) };
}

/** `TXyzAb…9f3c`: the start and the end of a long address or hash. */
export function shortenMiddle(value: string, head = 6, tail = 4): string {
  return value.length <= head + tail + 1 ? value : `${value.slice(0, head)}…${value.slice(-tail)}`;
}
