/**
 * The cabinet's first steps for a newcomer (docs/cabinet-rules.md#first-steps), decided from the balance and the
 * figures the cabinet already has and, only without an active deposit, from whether any deposit was ever opened
 * (the Deposits screen's own first page, so that screen opens with it). It reads three features, so it lives
 * with the routes (features do not import each other).
 */
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { openDepositPath, paths } from "@/config/paths";
import { balanceQueries } from "@/features/balance/api/balance-queries";
import { depositQueries } from "@/features/deposits/api/deposit-queries";
import { FirstSteps } from "@/features/first-steps/components/first-steps";
import { firstStep } from "@/features/first-steps/model/first-step";

export function CabinetFirstSteps() {
  const navigate = useNavigate();
  const balance = useQuery(balanceQueries.balance());
  const statistics = useQuery(balanceQueries.statistics());
  const deposits = useInfiniteQuery({
    ...depositQueries.list(),
    enabled: statistics.data?.activeDeposits === 0,
  });
  const step = firstStep({
    balances: balance.data?.currencies,
    statistics: statistics.data,
    depositsEver: deposits.data?.pages[0]?.total,
  });
  if (!step) return null;
  return <FirstSteps step={step} onAction={() => void navigate(step === 1 ? paths.refill : openDepositPath)} />;
}
