import type { CodeSentReply, Withdrawal } from "@contract";
import { useQuery } from "@tanstack/react-query";
import { List } from "@telegram-apps/telegram-ui";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Page } from "@/components/page";
import { FormSkeleton, QuerySection } from "@/components/query-section";
import { balanceQueries } from "@/features/balance/api/balance-queries";
import { WithdrawalWallet } from "@/features/wallets/components/withdrawal-wallet";
import { withdrawalQueries } from "@/features/withdrawal/api/withdrawal-queries";
import { WithdrawalCodeStep } from "@/features/withdrawal/components/withdrawal-code-step";
import { WithdrawalForm } from "@/features/withdrawal/components/withdrawal-form";
import { WithdrawalHistory } from "@/features/withdrawal/components/withdrawal-history";
import { startCodeCooldown } from "@/lib/code-cooldown";
import { useSearchParams } from "@/lib/router";
import "@/features/withdrawal/withdrawal.css";

/** A withdrawal awaiting its code, and the reply that sent the code (absent when resumed from the history). */
interface PendingCode {
  withdrawal: Withdrawal;
  sent?: CodeSentReply;
}

/** Withdrawal: the form (with the wallet), then the code step; the history resumes an application awaiting its code. */
export function WithdrawalRoute() {
  const { t } = useTranslation(["withdrawal", "common"]);
  const systems = useQuery(withdrawalQueries.paymentSystems());
  const balance = useQuery(balanceQueries.balance());
  const [step, setStep] = useState<PendingCode | null>(null);
  const [params] = useSearchParams();

  return (
    <Page screen="withdrawal" title={t("title")}>
      <List>
        {step ? (
          <WithdrawalCodeStep
            key={step.withdrawal.id}
            withdrawal={step.withdrawal}
            sent={step.sent}
            onFinished={() => setStep(null)}
          />
        ) : (
          <QuerySection
            query={systems}
            loading={<FormSkeleton header={t("form.header")} action={t("form.submit")} />}
            empty={t("form.noSystems")}
          >
            {(data) => (
              <WithdrawalForm
                systems={data}
                balances={balance.data?.currencies}
                wallet={(system) => <WithdrawalWallet key={system.id} system={system} />}
                onRequested={({ withdrawal, code }) => {
                  // The code step reads the wait for a new code from here.
                  startCodeCooldown("withdrawal", withdrawal.id, code.resendAfterSeconds);
                  setStep({ withdrawal, sent: code });
                }}
              />
            )}
          </QuerySection>
        )}
        <WithdrawalHistory
          openId={params.get("application")}
          onResume={(withdrawal) => {
            setStep({ withdrawal });
            window.scrollTo({ top: 0, behavior: "smooth" });
          }}
        />
      </List>
    </Page>
  );
}
