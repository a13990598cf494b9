import { useQuery } from "@tanstack/react-query";
import { List, Title } from "@telegram-apps/telegram-ui";
import { useAtomValue } from "jotai";
import { Component, type ReactNode, Suspense, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";
import { LinkCell } from "@/components/link-cell";
import { Page } from "@/components/page";
import { RefreshControl } from "@/components/refresh-control";
import { paths } from "@/config/paths";
import { balanceQueries } from "@/features/balance/api/balance-queries";
import { BalanceCard, StatsBar } from "@/features/balance/components/balance-card";
import { RecentOperations } from "@/features/operations/components/operations-list";
import { OverviewCard } from "@/features/overview/components/overview-card";
import { SubscriptionCard } from "@/features/subscription/components/subscription-card";
import { userAtom } from "@/lib/session";
import { useLiveRefreshControl } from "../live-refresh";

// The exchange dialog (its form, the contract's exchange arithmetic, telegram-ui's sheet library) is not
// needed for the balance: its code comes once the balance is on screen.
const loadExchangeDialog = () => import("@/features/balance/components/exchange-dialog");
const ExchangeDialog = lazyScreen(() => loadExchangeDialog().then((m) => ({ default: m.ExchangeDialog })));
// The income chart and the deposits' progress come after the balance, in their own chunk.
const CabinetExtras = lazyScreen(() => import("@/features/income/cabinet-extras"));

/** A part of the screen that may go missing (its code failed to load) without taking the screen with it. */
class Optional extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

/**
 * Cabinet: welcome, the whole picture in USDT with each currency beneath, the balance with its currency,
 * the figures, then (once the balance shows, in a chunk of its own) the income chart and the active deposits, the amount on deposit, the balances bar, recent
 * operations; for a user without a subscription, its compact prompt (here only, not on every screen).
 */
export function CabinetRoute() {
  // The dialogs' texts load with the screen: opened later (offline, say), they must not suspend the
  // cabinet behind a spinner while their namespace downloads.
  const { t } = useTranslation(["cabinet", "exchange", "subscription", "money"]);
  const user = useAtomValue(userAtom);
  const navigate = useNavigate();
  const [exchanging, setExchanging] = useState(false);
  const live = useLiveRefreshControl();
  const balance = useQuery(balanceQueries.balance());
  const balanceShown = balance.data !== undefined;
  useEffect(() => {
    if (balanceShown) void loadExchangeDialog().catch(() => undefined);
  }, [balanceShown]);
  return (
    <Page screen="cabinet" title={t("title")}>
      <div className="screen-title-row">
        {user ? (
          <Title level="2" weight="2" Component="h1" className="screen-greeting" data-testid="welcome">
            {t("welcome", { login: user.fullName || user.login })}
          </Title>
        ) : null}
        {live ? <RefreshControl onRefresh={() => void live.refresh()} refreshing={live.refreshing} /> : null}
      </div>
      <List>
        <OverviewCard />
        <BalanceCard onExchange={() => setExchanging(true)} onRefill={() => void navigate(paths.refill)} />
        <StatsBar />
        {balanceShown ? (
          <Optional>
            <Suspense fallback={null}>
              <CabinetExtras />
            </Suspense>
          </Optional>
        ) : null}
        <SubscriptionCard balances={balance.data?.currencies} onRefill={() => void navigate(paths.refill)} />
        <RecentOperations
          header={t("recentOperations")}
          empty={t("noOperations")}
          more={<LinkCell to={paths.operations}>{t("allOperations")}</LinkCell>}
        />
      </List>
      {exchanging ? (
        <Suspense fallback={null}>
          <ExchangeDialog open onClose={() => setExchanging(false)} />
        </Suspense>
      ) : null}
    </Page>
  );
}
