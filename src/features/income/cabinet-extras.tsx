/**
 * What the cabinet shows once the balance is on screen, in a chunk of its own (not the cabinet's launch
 * chunk): the income chart and the active deposits' progress.
 */
import { ActiveDeposits } from "@/features/deposits/components/active-deposits";
import { IncomeChart } from "./components/income-chart";
import "./income.css";

export default function CabinetExtras() {
  return (
    <>
      <IncomeChart />
      <ActiveDeposits />
    </>
  );
}
