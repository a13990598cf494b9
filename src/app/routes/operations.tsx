import { List } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import { Page } from "@/components/page";
import { OperationsList } from "@/features/operations/components/operations-list";

/** Operations: every ledger entry with currency and kind filters. */
export function OperationsRoute() {
  const { t } = useTranslation("operations");
  return (
    <Page screen="operations" title={t("title")}>
      <List>
        <OperationsList />
      </List>
    </Page>
  );
}
