/**
 * The cabinet's first steps for a newcomer (docs/cabinet-rules.md#first-steps), decided from the balance and the
 * figures the cabinet already has (both among the launch's first calls, so the block comes with the balance and
 * pushes nothing later). It reads the balance feature's data for the first-steps feature, so it lives with the
 * routes (features do not import each other).
 */
import { useQuery } from "@tanstack/react-query";
import { openDepositPath, paths } from "@/config/paths";
import { balanceQueries } from "@/features/balance/api/balance-queries";
import { FirstSteps } from "@/features/first-steps/components/first-steps";
import { firstStep } from "@/features/first-steps/model/first-step";
import { useNavigate } from "@/lib/router";

export function CabinetFirstSteps() {
  const navigate = useNavigate();
  const balance = useQuery(balanceQueries.balance());
  const statistics = useQuery(balanceQueries.statistics());
  const step = firstStep({ balances: balance.data?.currencies, statistics: statistics.data });
  if (!step) return null;
  return <FirstSteps step={step} onAction={() => navigate(step === 1 ? paths.refill : openDepositPath)} />;
}
