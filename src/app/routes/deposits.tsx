import { useQuery } from "@tanstack/react-query";
import { List } from "@telegram-apps/telegram-ui";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { Page } from "@/components/page";
import { FormSkeleton, QuerySection } from "@/components/query-section";
import { balanceQueries } from "@/features/balance/api/balance-queries";
import { depositQueries } from "@/features/deposits/api/deposit-queries";
import { CryptoCaseList, casePlans } from "@/features/deposits/components/crypto-case-list";
import { DepositForm } from "@/features/deposits/components/deposit-form";
import { DepositList } from "@/features/deposits/components/deposit-list";

/**
 * Deposits: the user's own deposits first, then the crypto cases and opening a deposit on a plan (narrowed
 * to the chosen case's plans, with the computed result).
 */
export function DepositsRoute() {
  const { t } = useTranslation(["deposits", "common"]);
  const plans = useQuery(depositQueries.plans());
  const cases = useQuery(depositQueries.cryptoCases());
  const balance = useQuery(balanceQueries.balance());
  const [caseId, setCaseId] = useState<string | null>(null);
  const [params] = useSearchParams();
  // Without the cases (still loading, or failed) every plan is on offer, as before cases existed.
  const cryptoCase = cases.data?.find((c) => c.id === caseId) ?? null;
  const offered = plans.data && cryptoCase ? casePlans(cryptoCase, plans.data) : plans.data;
  return (
    <Page screen="deposits" title={t("title")}>
      <List>
        <DepositList openId={params.get("deposit")} />
        <QuerySection
          query={plans}
          loading={<FormSkeleton header={t("form.header")} />}
          isEmpty={() => !offered || offered.length === 0}
          empty={t("form.noPlans")}
        >
          {(all) => (
            <>
              {cases.data ? (
                <CryptoCaseList cases={cases.data} plans={all} selectedId={caseId} onSelect={setCaseId} />
              ) : null}
              <DepositForm plans={offered ?? all} balances={balance.data?.currencies} cryptoCase={cryptoCase} />
            </>
          )}
        </QuerySection>
      </List>
    </Page>
  );
}
