import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Placeholder } from "@/components/placeholder";

/** A screen that a later release fills: its title and an honest note, no made-up data. */
export function NotAvailableYet({ title, icon }: { title: string; icon?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Placeholder className="not-available" header={title} description={t("notAvailableYet")}>
      {icon ? <span className="placeholder-icon">{icon}</span> : null}
    </Placeholder>
  );
}
