/** The withdrawal preview, exactly as the server computes it (server README "Withdrawals"). */
import { type Currency, money, roundDown, toDecimalString } from "@contract";

/** `fee = roundDown(amount × feePercent / 100)` to the currency's scale; `toReceive = amount − fee`. */
export function withdrawalPreview(amount: string, feePercent: string, currency: Currency) {
  const fee = roundDown(money(amount).times(feePercent).div(100), currency);
  return { fee, toReceive: toDecimalString(money(amount).minus(fee)) };
}

export { shortenMiddle } from "@/lib/shorten";
