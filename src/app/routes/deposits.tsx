import { useQuery } from "@tanstack/react-query";
import { Button, List } from "@telegram-apps/telegram-ui";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { FormErrorBanner } from "@/components/form/form-footer";
import { Page } from "@/components/page";
import { FormSkeleton, QuerySection } from "@/components/query-section";
import { Sheet } from "@/components/sheet";
import { OPEN_DEPOSIT_PARAM } from "@/config/paths";
import { balanceQueries } from "@/features/balance/api/balance-queries";
import { depositQueries } from "@/features/deposits/api/deposit-queries";
import { CryptoCaseList, casePlans } from "@/features/deposits/components/crypto-case-list";
import { DepositForm } from "@/features/deposits/components/deposit-form";
import { DepositList } from "@/features/deposits/components/deposit-list";
import { HomeScreenOffer } from "@/features/deposits/components/home-screen-offer";
import { useSearchParams } from "@/lib/router";
import { useMainButton } from "@/tma/hooks";

/**
 * Deposits: the user's own deposits first (active ones before the ended), and one primary action, "Open a deposit"
 * (Telegram's Main button inside Telegram; on the web a button kept above the tab bar), that opens a sheet: the
 * plan and the amount with the computed result first, then the crypto case as a choice ("Every plan" by default,
 * narrowing the plans to the case's), then a confirmation stating what is debited and earned; nothing is sent
 * before it. Reached by `openDepositPath` (the cabinet's first steps), the sheet is open at once; its mark leaves
 * the address, so Back and a reload do not open it again.
 */
export function DepositsRoute() {
  const { t } = useTranslation(["deposits", "common"]);
  const [params, setParams] = useSearchParams();
  const asked = params.get(OPEN_DEPOSIT_PARAM.name) === OPEN_DEPOSIT_PARAM.value;
  const [opening, setOpening] = useState(asked);
  useEffect(() => {
    if (!asked) return;
    setOpening(true);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(OPEN_DEPOSIT_PARAM.name);
        return next;
      },
      { replace: true },
    );
  }, [asked, setParams]);
  const [opened, setOpened] = useState(false);
  const open = () => {
    setOpened(false);
    setOpening(true);
  };
  const inTelegram = useMainButton({ text: t("open"), onClick: open });
  return (
    <Page screen="deposits" title={t("title")}>
      <List>
        <FormErrorBanner error={null} success={opened ? t("form.created") : null} />
        <HomeScreenOffer after={opened} />
        <DepositList openId={params.get("deposit")} />
        {inTelegram ? null : (
          <div className="form-actions primary-action-dock">
            <Button size="l" stretched onClick={open} data-testid="open-deposit">
              {t("open")}
            </Button>
          </div>
        )}
      </List>
      {opening ? (
        <OpenDepositSheet
          onClose={() => setOpening(false)}
          onOpened={() => {
            setOpening(false);
            setOpened(true);
          }}
        />
      ) : null}
    </Page>
  );
}

function OpenDepositSheet({ onClose, onOpened }: { onClose(): void; onOpened(): void }) {
  const { t } = useTranslation(["deposits", "common"]);
  const plans = useQuery(depositQueries.plans());
  const cases = useQuery(depositQueries.cryptoCases());
  const balance = useQuery(balanceQueries.balance());
  const [caseId, setCaseId] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  // Without the cases (still loading, or failed) every plan is on offer, as before cases existed.
  const cryptoCase = cases.data?.find((c) => c.id === caseId) ?? null;
  const offered = plans.data && cryptoCase ? casePlans(cryptoCase, plans.data) : plans.data;
  return (
    <Sheet onClose={onClose} data-testid="deposit-sheet" aria-label={t("sheetTitle")}>
      <div className="money-dialog">
        <h2 className="money-dialog-title">{t("sheetTitle")}</h2>
        <List>
          <QuerySection
            query={plans}
            loading={<FormSkeleton header={t("form.header")} action={t("form.next")} />}
            isEmpty={() => !offered || offered.length === 0}
            empty={t("form.noPlans")}
          >
            {(all) => (
              <DepositForm
                plans={offered ?? all}
                balances={balance.data?.currencies}
                cryptoCase={cryptoCase}
                onOpened={onOpened}
                onConfirmingChange={setConfirming}
                caseChoice={
                  cases.data && !confirming ? (
                    <CryptoCaseList cases={cases.data} plans={all} selectedId={caseId} onSelect={setCaseId} />
                  ) : null
                }
              />
            )}
          </QuerySection>
        </List>
      </div>
    </Sheet>
  );
}
