import { useQuery } from "@tanstack/react-query";
import { Button, List, Placeholder, Section, Skeleton } from "@telegram-apps/telegram-ui";
import { useTranslation } from "react-i18next";
import { Page } from "@/components/page";
import { balanceQueries } from "@/features/balance/api/balance-queries";
import { depositQueries } from "@/features/deposits/api/deposit-queries";
import { DepositForm } from "@/features/deposits/components/deposit-form";
import { DepositList } from "@/features/deposits/components/deposit-list";
import { useApiErrorText } from "@/lib/money";

/** Deposits: open one on a plan (with the computed result), and the user's own deposits. */
export function DepositsRoute() {
  const { t } = useTranslation(["deposits", "common"]);
  const errorText = useApiErrorText();
  const plans = useQuery(depositQueries.plans());
  const balance = useQuery(balanceQueries.balance());
  return (
    <Page screen="deposits" title={t("title")}>
      <List>
        {plans.isPending ? (
          <Section header={t("form.header")}>
            <div className="money-skeleton">
              <Skeleton visible>
                <div className="skeleton-block skeleton-tall" />
              </Skeleton>
            </div>
          </Section>
        ) : plans.isError ? (
          <Placeholder description={errorText(plans.error)}>
            <Button size="s" onClick={() => void plans.refetch()}>
              {t("retry", { ns: "common" })}
            </Button>
          </Placeholder>
        ) : plans.data.length === 0 ? (
          <Placeholder description={t("form.noPlans")} />
        ) : (
          <DepositForm plans={plans.data} balances={balance.data?.currencies} />
        )}
        <DepositList />
      </List>
    </Page>
  );
}
