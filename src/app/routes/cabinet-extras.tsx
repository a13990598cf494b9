/**
 * What the cabinet shows once the balance is on screen, in a chunk of its own (not the cabinet's launch
 * chunk): the whole picture in USDT (above the balance), the income chart and the active deposits' progress.
 * It composes three features, so it lives with the routes (features do not import each other).
 */
import { ActiveDeposits } from "@/features/deposits/components/active-deposits";
import { IncomeChart } from "@/features/income/components/income-chart";

export { OverviewCard } from "@/features/overview/components/overview-card";

import "@/features/income/income.css";

export default function CabinetExtras() {
  return (
    <>
      <IncomeChart />
      <ActiveDeposits />
    </>
  );
}
