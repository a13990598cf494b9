import { type UseQueryOptions, useQuery } from "@tanstack/react-query";
import { List } from "@telegram-apps/telegram-ui";
import { useAtomValue } from "jotai";
import { Component, type ReactNode, Suspense, startTransition, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { lazyScreen } from "@/components/lazy-screen";
import { LinkCell } from "@/components/link-cell";
import { Page } from "@/components/page";
import { RefreshControl } from "@/components/refresh-control";
import type { Namespace } from "@/config/i18n";
import { paths } from "@/config/paths";
import { balanceQueries } from "@/features/balance/api/balance-queries";
import { BalanceCard, CurrencyList, StatsBar } from "@/features/balance/components/balance-card";
import { incomeQueries } from "@/features/income/api-income";
import { RecentOperations } from "@/features/operations/components/recent-operations";
import { SubscriptionCard } from "@/features/subscription/components/subscription-card";
import { useNavigate } from "@/lib/router";
import { userAtom } from "@/lib/session";
import { shownName } from "@/lib/shown-name";
import { warmUp } from "@/lib/warm-up";
import { useLiveRefreshControl } from "../live-refresh";
import { CabinetFirstSteps } from "./cabinet-first-steps";

// The exchange dialog (its form, the contract's exchange arithmetic, telegram-ui's sheet library) is not
// needed for the balance: its code comes once the balance is on screen.
const loadExchangeDialog = () => import("@/features/balance/components/exchange-dialog");
const ExchangeDialog = lazyScreen(() => loadExchangeDialog().then((m) => ({ default: m.ExchangeDialog })));
// The income chart and the deposits' progress come after the balance, in one chunk of their own (the cabinet's
// launch chunk has a budget: docs/decisions.md#bundle-budget).
const loadExtras = () => import("./cabinet-extras");
const CabinetExtras = lazyScreen(loadExtras);
/** The texts the extras' components use beyond the cabinet's own (the active deposits' progress). */
const EXTRAS_NAMESPACES: Namespace[] = ["deposits"];

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
 * Room kept for a part that comes after the balance (its code is a chunk of its own, its data a call of its
 * own), so that its arrival pushes nothing already on screen (a layout shift): kept until its data has come
 * (or failed), whichever of code and data is last: the income chart below the figures. Its size in
 * styles/cabinet.css, measured on the part itself.
 */
function Reserved({ part }: { part: "income" }) {
  return (
    <div aria-hidden="true" className={`cabinet-reserved cabinet-reserved-${part}`} data-testid={`reserved-${part}`} />
  );
}

/**
 * The part in its room, kept while its data has not come and while its code has not (the fallback). Its data is
 * asked for once the balance is on screen (`wanted`), beside its code rather than after it, and read here rather
 * than by the screen, so a reply coming in renders the slot, not the screen.
 */
function Slot<T, K extends readonly unknown[]>({
  part,
  query,
  wanted,
  children,
}: {
  part: "income";
  query: UseQueryOptions<T, Error, T, K>;
  wanted: boolean;
  children: ReactNode;
}) {
  const { data, isError } = useQuery({ ...query, enabled: wanted });
  const settled = data !== undefined || isError;
  return <div className={settled ? undefined : `cabinet-reserved cabinet-reserved-${part}`}>{children}</div>;
}

/**
 * Cabinet: welcome, one headline (the total in the current currency, available and on deposit beneath it, Refill
 * and Exchange), the currencies held as a list (a tap makes one the current currency), the balances bar, recent
 * operations; for a user without a subscription, its compact prompt (here only, not on every screen). Once the
 * balance shows, in a chunk of its own: the income chart and the active deposits' progress below the figures.
 */
export function CabinetRoute() {
  // The dialogs' texts load with the screen: opened later (offline, say), they must not suspend the
  // cabinet behind a spinner while their namespace downloads.
  const { t, i18n } = useTranslation(["cabinet", "exchange", "subscription", "money"]);
  const user = useAtomValue(userAtom);
  const navigate = useNavigate();
  const [exchanging, setExchanging] = useState(false);
  const live = useLiveRefreshControl();
  const balance = useQuery(balanceQueries.balance());
  // The headline (and the currencies' list under it) comes with the overview: what is below it waits for that reply
  // (or its failure), so the list's arrival pushes nothing already on screen; what is warmed up or asked for once
  // the balance is on screen waits for the headline's figures (or their failure).
  const overview = useQuery({ ...balanceQueries.overview(), select: () => true });
  const balanceShown = overview.data !== undefined || overview.isError;
  // Set after the balance's render is committed: the chart's chunk is asked for once the balance is on screen.
  const [extrasWanted, setExtrasWanted] = useState(false);
  // What is below the fold on a phone (the subscription prompt, the last operations) mounts in a second commit:
  // the first, which shows the balance, is then about half the DOM, its effects and its layout.
  const [belowWanted, setBelowWanted] = useState(false);
  useEffect(() => startTransition(() => setBelowWanted(true)), []);
  useEffect(() => {
    if (!balanceShown) return;
    warmUp(loadExchangeDialog, "exchange");
    // Rendered once their code and texts have come (or failed): rendered before, they suspended, and a suspended
    // render is thrown away. A transition: the parts below the balance render in slices, not in the task that
    // showed the balance.
    void Promise.allSettled([CabinetExtras.preload(), i18n.loadNamespaces(EXTRAS_NAMESPACES)]).then(() =>
      startTransition(() => setExtrasWanted(true)),
    );
  }, [balanceShown, i18n]);
  return (
    <Page
      screen="cabinet"
      title={t("title")}
      heading={
        user ? (
          <span className="page-welcome" data-testid="welcome">
            {t("welcome", { login: shownName(user) })}
          </span>
        ) : undefined
      }
      actions={live ? <RefreshControl onRefresh={() => void live.refresh()} refreshing={live.refreshing} /> : null}
    >
      <List>
        <BalanceCard onExchange={() => setExchanging(true)} onRefill={() => navigate(paths.refill)} />
        <CabinetFirstSteps />
        <CurrencyList />
        {balanceShown ? (
          <>
            <StatsBar />
            <Slot part="income" query={incomeQueries.income("7d")} wanted={balanceShown}>
              {extrasWanted ? (
                <Optional>
                  <Suspense fallback={<Reserved part="income" />}>
                    <CabinetExtras />
                  </Suspense>
                </Optional>
              ) : (
                <Reserved part="income" />
              )}
            </Slot>
          </>
        ) : null}
        {belowWanted && balanceShown ? (
          <>
            <SubscriptionCard balances={balance.data?.currencies} onRefill={() => navigate(paths.refill)} />
            <RecentOperations
              header={t("recentOperations")}
              empty={t("noOperations")}
              more={<LinkCell to={paths.operations}>{t("allOperations")}</LinkCell>}
            />
          </>
        ) : null}
      </List>
      {exchanging ? (
        <Suspense fallback={null}>
          <ExchangeDialog open onClose={() => setExchanging(false)} />
        </Suspense>
      ) : null}
    </Page>
  );
}
