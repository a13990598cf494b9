import type { CurrencyAmounts, StatisticsReply } from "@contract";
import { compareAmounts } from "@/lib/money";

/** The step a newcomer is on: 1 top up the balance, 2 open a deposit (the third, earning, follows by itself). */
export type FirstStep = 1 | 2;

export interface FirstStepData {
  /** `GET /user/balance`'s currencies. */
  balances: CurrencyAmounts | undefined;
  /** `GET /user/statistics`: whether a deposit was ever opened (`everDeposited`). */
  statistics: StatisticsReply | undefined;
}

const held = (amounts: CurrencyAmounts) => Object.values(amounts).some((amount) => compareAmounts(amount, "0") > 0);

/**
 * Which first step the cabinet offers (docs/cabinet-rules.md#first-steps): `undefined` while the balance or the
 * figures have not come (nothing shows, so an investor with deposits never sees the block flash), `null` once the
 * investor has or ever had a deposit (for good: a closed or completed one counts), else 1 with nothing on the
 * balance, 2 with money on it.
 */
export function firstStep({ balances, statistics }: FirstStepData): FirstStep | null | undefined {
  if (!balances || !statistics) return undefined;
  if (statistics.everDeposited || statistics.activeDeposits > 0) return null;
  return held(balances) ? 2 : 1;
}
