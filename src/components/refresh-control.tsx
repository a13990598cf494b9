import { IconButton } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import { RefreshIcon } from "./icons";

/** The refresh control of a screen: fetches its figures again now; turns while it does. */
export function RefreshControl({ onRefresh, refreshing }: { onRefresh: () => void; refreshing: boolean }) {
  const { t } = useTranslation("money");
  return (
    <IconButton
      mode="plain"
      size="m"
      className="refresh-control"
      data-refreshing={refreshing}
      data-testid="refresh-control"
      aria-label={refreshing ? t("refreshing") : t("refresh")}
      aria-busy={refreshing}
      onClick={() => {
        if (!refreshing) onRefresh();
      }}
    >
      <span className="refresh-icon">
        <RefreshIcon size={24} />
      </span>
    </IconButton>
  );
}
