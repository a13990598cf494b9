import { useIsFetching, useQuery } from "@tanstack/react-query";
import { type ReactNode, Suspense, useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLanguageSync } from "@/app/language-sync";
import { BrandHeader } from "@/components/brand-header";
import { ContentSpinner } from "@/components/content-spinner";
import { LanguageSwitcher } from "@/components/language-switcher";
import { lazyScreen } from "@/components/lazy-screen";
import { PageHeaderContext } from "@/components/page";
import { PullToRefresh } from "@/components/pull-to-refresh";
import { RouteErrorBoundary } from "@/components/route-error-boundary";
import { WIDE_LAYOUT_QUERY } from "@/config/media";
import { notificationQueries } from "@/features/notifications/api/notification-queries";
import { onSessionExpiring } from "@/lib/api-client";
import { restoreDraft, saveDraft, takeDraft } from "@/lib/drafts";
import { useLocation } from "@/lib/router";
import { useMediaQuery } from "@/lib/use-media-query";
import { launchSettled } from "@/lib/warm-up";
import { useMainButtonShown, useTelegram } from "@/tma/hooks";
import { useManualCopyText } from "@/tma/manual-copy";
import { LiveRefreshContext, useLiveRefresh } from "../live-refresh";
import { CabinetHeader } from "./cabinet-header";
import { BottomTabBar, SideBar } from "./navigation";

// Loaded only when a notification arrives while the cabinet is open.
const NotificationDialog = lazyScreen(() =>
  import("@/features/notifications/components/notification-dialog").then((m) => ({ default: m.NotificationDialog })),
);

// Loaded only when a copy inside Telegram was refused both ways (src/tma/clipboard.ts).
const ManualCopySheet = lazyScreen(() =>
  import("@/components/manual-copy-sheet").then((m) => ({ default: m.ManualCopySheet })),
);

/** The copy-by-hand sheet, once there is text to copy by hand; its code (a sheet) comes only then. */
function ManualCopyHost() {
  if (useManualCopyText() === null) return null;
  return (
    <Suspense fallback={null}>
      <ManualCopySheet />
    </Suspense>
  );
}

/**
 * The signed-in frame: a side bar on wide screens, a tab bar on phones. Inside Telegram, while a form
 * shows Telegram's Main button, the tab bar steps aside: one bottom bar at a time.
 */
export function CabinetLayout({ children }: { children: ReactNode }) {
  const wide = useMediaQuery(WIDE_LAYOUT_QUERY);
  const mainButtonShown = useMainButtonShown();
  const telegram = useTelegram();
  // Every screen's failures and form checks speak through these: loaded with the frame, so an action
  // that fails later (offline) never waits for, or misses, their texts.
  const { t } = useTranslation(["common", "errors", "validation", "money"]);
  const live = useLiveRefresh();
  useDraftsAcrossSignIn();
  useLanguageSync();
  const [screenShown, setScreenShown] = useState(false);
  // The alert's code comes once the first screen is shown (not in the launch's way), so an action failing
  // offline later can still say so.
  useEffect(() => {
    if (screenShown) void import("@/components/alert-snackbar").catch(() => undefined);
  }, [screenShown]);
  const content = (
    <main className="cabinet-content">
      {/* Inside Telegram a pull down from the top belongs to Telegram (vertical swipes fold the app, on
          from launch); the header's Refresh refreshes there. */}
      {telegram ? null : <PullToRefresh onRefresh={() => void live.refresh()} refreshing={live.refreshing} />}
      {telegram ? <ManualCopyHost /> : null}
      {/* A failing cabinet screen (or dialog) keeps the side bar or tab bar around its error. */}
      <RouteErrorBoundary>
        {/* A notification that arrives while the cabinet is open is shown in a sheet, over a screen whose figures
            are in; what was unread at launch waits in the inbox behind the header's bell. */}
        <Suspense fallback={null}>
          <Arrivals screenShown={screenShown} />
        </Suspense>
        <Suspense fallback={<ContentSpinner />}>
          <Shown onShown={setScreenShown} />
          {children}
        </Suspense>
      </RouteErrorBoundary>
    </main>
  );
  if (wide) {
    return wrap(
      <div className="cabinet cabinet-wide">
        <aside className="cabinet-aside">
          <BrandHeader tagline={false} heading={false} />
          <SideBar />
          <section className="aside-language" aria-label={t("language")}>
            <LanguageSwitcher />
          </section>
        </aside>
        {content}
      </div>,
    );
  }
  return wrap(
    <div className={mainButtonShown ? "cabinet cabinet-narrow cabinet-main-button" : "cabinet cabinet-narrow"}>
      {content}
      {mainButtonShown ? null : <BottomTabBar />}
    </div>,
  );

  function wrap(frame: ReactNode) {
    return (
      <LiveRefreshContext.Provider value={live}>
        <PageHeaderContext.Provider value={CabinetHeader}>{frame}</PageHeaderContext.Provider>
      </LiveRefreshContext.Provider>
    );
  }
}

/**
 * The notification sheet for what arrived since the cabinet opened, once the first screen has settled. A
 * component of its own: what it watches (every call in flight, the pulse) changes often during a launch, and
 * each change renders this, not the frame and the screen in it.
 */
function Arrivals({ screenShown }: { screenShown: boolean }) {
  const [arrived, seenArrivals] = useArrivals();
  const settled = useSettled(screenShown);
  return settled && arrived > 0 ? <NotificationDialog count={arrived} onClose={seenArrivals} /> : null;
}

/**
 * How many notifications arrived since the cabinet opened, by the unread count of the live refresh's pulse (read
 * from its cache, not polled again): a count that rises between two pulses is news. The first pulse only sets
 * the mark, so what was unread at launch is not announced; reading in the inbox lowers the mark with the count.
 */
function useArrivals(): [number, () => void] {
  const { data } = useQuery({ ...notificationQueries.pulse(), enabled: false });
  const mark = useRef<number | undefined>(undefined);
  const [arrived, setArrived] = useState(0);
  useEffect(() => {
    if (!data) return;
    const before = mark.current;
    mark.current = data.unread;
    if (before !== undefined && data.unread > before) setArrived((n) => n + data.unread - before);
  }, [data]);
  return [arrived, useCallback(() => setArrived(0), [])];
}

/** Commits with the screen beside it (same Suspense boundary): its code and texts are in. */
function Shown({ onShown }: { onShown(shown: true): void }) {
  useEffect(() => onShown(true), [onShown]);
  return null;
}

/** How long nothing is in flight before the screen counts as settled (its own calls start at its first render). */
const SETTLE_MS = 200;

/**
 * True for good once the first screen is shown and none of its calls is in flight: what is not needed for the
 * figures on screen (the notification sheet, the code warmed up for later: `lib/warm-up.ts`) waits for this.
 */
function useSettled(screenShown: boolean): boolean {
  const fetching = useIsFetching();
  const [settled, setSettled] = useState(false);
  useEffect(() => {
    if (settled || !screenShown || fetching > 0) return;
    const timer = setTimeout(() => {
      setSettled(true);
      launchSettled();
    }, SETTLE_MS);
    return () => clearTimeout(timer);
  }, [settled, screenShown, fetching]);
  return settled;
}

/**
 * A session timeout keeps what the user typed (docs/decisions.md#session-timeout-keeps-what-was-typed): the
 * forms' fields are saved as the 401 ends the session, and filled in again when the user, signed in again, is
 * back on that screen.
 */
function useDraftsAcrossSignIn(): void {
  const { pathname, search } = useLocation();
  useEffect(() => onSessionExpiring((where) => saveDraft(where)), []);
  useEffect(() => {
    const draft = takeDraft(`${pathname}${search}`);
    if (draft) void restoreDraft(draft);
  }, [pathname, search]);
}
