import type { ReferralsReply } from "@contract";
import { useQuery } from "@tanstack/react-query";
import { List } from "@telegram-apps/telegram-ui";
import { useAtomValue } from "jotai";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { Page } from "@/components/page";
import { BonusList } from "@/features/partners/components/bonus-list";
import { ReferralLinks } from "@/features/partners/components/referral-links";
import { ReferralTotals } from "@/features/partners/components/referral-totals";
import { ReferralsTable } from "@/features/partners/components/referrals-table";
import { settingsQueries } from "@/features/settings/api/settings-queries";
import { userAtom } from "@/lib/session";
import "@/features/partners/partners.css";

/** Partners: the referral links, the totals of the downline, the bonuses and the referrals list. */
export function PartnersRoute() {
  const { t } = useTranslation("partners");
  const user = useAtomValue(userAtom);
  const bot = useQuery(settingsQueries.botUsername());
  const [totals, setTotals] = useState<ReferralsReply["totals"] | null>(null);
  const onTotals = useCallback((next: ReferralsReply["totals"] | null) => {
    if (next) setTotals(next);
  }, []);
  return (
    <Page screen="partners" title={t("title")}>
      <List>
        {user ? <ReferralLinks login={user.login} botUsername={bot.data ?? null} /> : null}
        {totals ? <ReferralTotals totals={totals} /> : null}
        <BonusList />
        <ReferralsTable onTotals={onTotals} />
      </List>
    </Page>
  );
}
