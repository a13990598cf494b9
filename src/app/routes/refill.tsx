import type { Refill } from "@contract";
import { useQuery } from "@tanstack/react-query";
import { List } from "@telegram-apps/telegram-ui";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Page } from "@/components/page";
import { FormSkeleton, QuerySection } from "@/components/query-section";
import { refillQueries } from "@/features/refills/api/refill-queries";
import { RefillForm } from "@/features/refills/components/refill-form";
import { RefillHistory } from "@/features/refills/components/refill-history";
import { WalletDialog } from "@/features/refills/components/wallet-dialog";
import { useSearchParams } from "@/lib/router";

/**
 * Refill: a new refill (then the wallet dialog to pay), and the history, whose rows open the dialog
 * (the refill's details). `?refill=<id>` (a deep link) opens that refill's dialog.
 */
export function RefillRoute() {
  const { t } = useTranslation(["refill", "common"]);
  const systems = useQuery(refillQueries.paymentSystems());
  const [open, setOpen] = useState<Refill | null>(null);
  const [params] = useSearchParams();
  const linkedId = params.get("refill");
  const linked = useQuery({ ...refillQueries.one(linkedId ?? ""), enabled: linkedId !== null });
  useEffect(() => {
    if (linked.data) setOpen(linked.data);
  }, [linked.data]);
  return (
    <Page screen="refill" title={t("title")}>
      <List>
        <QuerySection
          query={systems}
          loading={<FormSkeleton header={t("form.header")} action={t("form.submit")} />}
          empty={t("form.noSystems")}
        >
          {(data) => <RefillForm systems={data} onCreated={setOpen} />}
        </QuerySection>
        <RefillHistory onOpen={setOpen} />
      </List>
      <WalletDialog refill={open} onClose={() => setOpen(null)} />
    </Page>
  );
}
