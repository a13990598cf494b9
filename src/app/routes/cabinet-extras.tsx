/**
 * What the cabinet shows once the balance is on screen, in a chunk of its own (not the cabinet's launch
 * chunk): the income chart and the active deposits' progress. It composes two features, so it lives with the
 * routes (features do not import each other).
 */
import { ActiveDeposits } from "@/features/deposits/components/active-deposits";
import { IncomeChart } from "@/features/income/components/income-chart";

import "@/features/income/income.css";

export default function CabinetExtras() {
  return (
    <>
      <IncomeChart />
      <ActiveDeposits />
    </>
  );
}
