import type { ReactNode } from "react";
import { NotAvailableYet } from "@/components/not-available";
import { Page } from "@/components/page";

/** A screen a later release builds: its title and the honest note. */
export function NotAvailableScreen({ screen, title, icon }: { screen: string; title: string; icon: ReactNode }) {
  return (
    <Page screen={screen} title={title}>
      <NotAvailableYet title={title} icon={icon} />
    </Page>
  );
}
