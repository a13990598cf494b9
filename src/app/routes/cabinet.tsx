import { type UseQueryOptions, useQuery } from "@tanstack/react-query";
import { List } from "@telegram-apps/telegram-ui";
import { useAtomValue } from "jotai";
import { Component, type CSSProperties, type ReactNode, Suspense, startTransition, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { lazyScreen } from "@/components/lazy-screen";
import { LinkCell } from "@/components/link-cell";
import { Page } from "@/components/page";
import { RefreshControl } from "@/components/refresh-control";
import { paths } from "@/config/paths";
import { balanceQueries } from "@/features/balance/api/balance-queries";
import { BalanceCard, StatsBar } from "@/features/balance/components/balance-card";
import { incomeQueries } from "@/features/income/api-income";
import { RecentOperations } from "@/features/operations/components/recent-operations";
import { overviewQueries } from "@/features/overview/api/overview-queries";
import { SubscriptionCard } from "@/features/subscription/components/subscription-card";
import { userAtom } from "@/lib/session";
import { warmUp } from "@/lib/warm-up";
import { useLiveRefreshControl } from "../live-refresh";
import { CabinetFirstSteps } from "./cabinet-first-steps";
import { type Held, heldOf, roomStyle } from "./held";

// The exchange dialog (its form, the contract's exchange arithmetic, telegram-ui's sheet library) is not
// needed for the balance: its code comes once the balance is on screen.
const loadExchangeDialog = () => import("@/features/balance/components/exchange-dialog");
const ExchangeDialog = lazyScreen(() => loadExchangeDialog().then((m) => ({ default: m.ExchangeDialog })));
// The whole picture in USDT, the income chart and the deposits' progress come after the balance, in one chunk
// of their own (the cabinet's launch chunk has a budget: docs/decisions.md#bundle-budget).
const loadExtras = () => import("./cabinet-extras");
const CabinetExtras = lazyScreen(loadExtras);
const OverviewCard = lazyScreen(() => loadExtras().then((m) => ({ default: m.OverviewCard })));

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

const NOTHING_HELD: Held = { lines: 0, deposits: 0 };

/**
 * Room kept for a part that comes after the balance (its code is a chunk of its own, its data a call of its
 * own), so that its arrival pushes nothing already on screen (a layout shift): kept until its data has come
 * (or failed), whichever of code and data is last. The whole picture above the balance, a line per
 * currency held and a row more for each with deposits; the income chart below the figures. Sizes in
 * styles/cabinet.css, measured on the parts themselves.
 */
function Reserved({ part, held = NOTHING_HELD }: { part: "overview" | "income"; held?: Held }) {
  return (
    <div
      aria-hidden="true"
      className={`cabinet-reserved cabinet-reserved-${part}`}
      data-testid={`reserved-${part}`}
      style={roomStyle(held) as CSSProperties}
    />
  );
}

/**
 * The part in its room, kept while its data has not come and while its code has not (the fallback). Its data is
 * asked for once the balance is on screen (`wanted`), beside its code rather than after it, and read here rather
 * than by the screen, so a reply coming in renders the slot, not the screen.
 */
function Slot<T, K extends readonly unknown[]>({
  part,
  held = NOTHING_HELD,
  query,
  wanted,
  children,
}: {
  part: "overview" | "income";
  held?: Held;
  query: UseQueryOptions<T, Error, T, K>;
  wanted: boolean;
  children: ReactNode;
}) {
  const { data, isError } = useQuery({ ...query, enabled: wanted });
  const settled = data !== undefined || isError;
  return (
    <div
      className={settled ? undefined : `cabinet-reserved cabinet-reserved-${part}`}
      style={settled ? undefined : (roomStyle(held) as CSSProperties)}
    >
      {children}
    </div>
  );
}

/**
 * Cabinet: welcome, the balance with its currency and the amount on deposit, the balances bar, recent
 * operations; for a user without a subscription, its compact prompt (here only, not on every screen). Once the
 * balance shows, in a chunk of its own: the whole picture in USDT above it (each currency beneath), the income
 * chart and the active deposits' progress below the figures.
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
  const onDeposit = useQuery({ ...balanceQueries.statistics(), select: (statistics) => statistics.amountOnDeposit });
  const held = heldOf(balance.data?.currencies, onDeposit.data);
  // Set after the balance's render is committed: the chart's chunk is asked for once the balance is on screen.
  const [extrasWanted, setExtrasWanted] = useState(false);
  // What is below the fold on a phone (the subscription prompt, the last operations) mounts in a second commit:
  // the first, which shows the balance, is then about half the DOM, its effects and its layout.
  const [belowWanted, setBelowWanted] = useState(false);
  useEffect(() => startTransition(() => setBelowWanted(true)), []);
  useEffect(() => {
    if (!balanceShown) return;
    warmUp(loadExchangeDialog, "exchange");
    // A transition: the parts below the balance render in slices, not in the task that showed the balance.
    startTransition(() => setExtrasWanted(true));
  }, [balanceShown]);
  return (
    <Page
      screen="cabinet"
      title={t("title")}
      heading={
        user ? <span data-testid="welcome">{t("welcome", { login: user.fullName || user.login })}</span> : undefined
      }
      actions={live ? <RefreshControl onRefresh={() => void live.refresh()} refreshing={live.refreshing} /> : null}
    >
      <List>
        <Slot part="overview" held={held} query={overviewQueries.overview()} wanted={balanceShown}>
          {extrasWanted ? (
            <Optional>
              <Suspense fallback={<Reserved part="overview" held={held} />}>
                <OverviewCard />
              </Suspense>
            </Optional>
          ) : (
            <Reserved part="overview" held={held} />
          )}
        </Slot>
        <BalanceCard onExchange={() => setExchanging(true)} onRefill={() => void navigate(paths.refill)} />
        <CabinetFirstSteps />
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
        {belowWanted ? (
          <>
            <SubscriptionCard balances={balance.data?.currencies} onRefill={() => void navigate(paths.refill)} />
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
