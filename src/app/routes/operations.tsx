import { useQuery } from "@tanstack/react-query";
import { List, SegmentedControl } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import { Page } from "@/components/page";
import { depositQueries } from "@/features/deposits/api/deposit-queries";
import { CaseOperationsList } from "@/features/operations/components/case-operations-list";
import { OperationsList } from "@/features/operations/components/operations-list";
import { StatementButton } from "@/features/statements/components/statement-button";
import { useSearchParams } from "@/lib/router";
import { haptics } from "@/tma/hooks";

type View = "all" | "cases";

/**
 * Operations: every ledger entry by day with currency and kind filters, or (`?view=cases`) the operations
 * of deposits opened through a crypto case, each with the case's name; and a period's statement as a file.
 */
export function OperationsRoute() {
  const { t } = useTranslation("operations");
  const [params, setParams] = useSearchParams();
  const view: View = params.get("view") === "cases" ? "cases" : "all";
  const cases = useQuery({ ...depositQueries.cryptoCases(), enabled: view === "cases" });
  const show = (next: View) => {
    if (next === view) return;
    haptics.selection();
    setParams(next === "cases" ? { view: "cases" } : {}, { replace: true });
  };
  return (
    <Page screen="operations" title={t("title")}>
      <div className="operations-views">
        <SegmentedControl>
          {(["all", "cases"] as const).map((key) => (
            <SegmentedControl.Item
              key={key}
              selected={view === key}
              aria-selected={view === key}
              onClick={() => show(key)}
              data-testid={`operations-view-${key}`}
            >
              {t(`views.${key}`)}
            </SegmentedControl.Item>
          ))}
        </SegmentedControl>
      </div>
      <div className="operations-actions">
        <StatementButton />
      </div>
      <List>{view === "cases" ? <CaseOperationsList cases={cases.data ?? []} /> : <OperationsList />}</List>
    </Page>
  );
}
