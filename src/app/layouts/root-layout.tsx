import { type ReactNode, Suspense, useCallback, useLayoutEffect } from "react";
import { RouteErrorBoundary } from "@/components/route-error-boundary";
import { SpinnerScreen } from "@/components/spinner-screen";
import { isTopLevelPath, paths } from "@/config/paths";
import { hasInAppHistory } from "@/lib/navigation";
import { useLocation, useNavigate, useNavigationType } from "@/lib/router";
import { closeTopSheet, useBackButton, useMainButtonShown, useOpenSheetCount } from "@/tma/hooks";

const PUBLIC_PATHS = [paths.login, "/register", paths.forgotPassword, paths.phoneVerification];

/** Where Back leads when the screen was opened directly (no in-app history to go back through). */
export function parentOf(pathname: string): string {
  if (pathname.startsWith("/news/")) return paths.news;
  if (pathname.startsWith(`${paths.settings}/`)) return paths.settings;
  if (pathname.startsWith("/terms/")) return "/register";
  if (isPublicPath(pathname)) return paths.login;
  if ([paths.partners, paths.operations, paths.settings, paths.news].includes(pathname as never)) return paths.more;
  return paths.cabinet;
}

function isPublicPath(pathname: string): boolean {
  return PUBLIC_PATHS.some((p) => pathname === p || pathname.startsWith(`${p}/`));
}

/**
 * Telegram's Back button mirrors in-app navigation: shown below the top level, and it goes back. A
 * cabinet screen whose form shows the Main button has no tab bar meanwhile (one bottom bar at a time),
 * so Back is the way out of it there too. An open sheet comes first: Back shows (never Telegram's
 * Close, which would close the whole app) and closes the top sheet, the screen staying where it is.
 */
function useRouterBackButton(): void {
  const location = useLocation();
  const navigate = useNavigate();
  const mainButtonShown = useMainButtonShown();
  const sheetOpen = useOpenSheetCount() > 0;
  const onBack = useCallback(() => {
    if (closeTopSheet()) return;
    if (hasInAppHistory(location)) navigate(-1);
    else navigate(parentOf(location.pathname), { replace: true });
  }, [location, navigate]);
  const formWithoutTabBar = mainButtonShown && location.pathname !== paths.cabinet && !isPublicPath(location.pathname);
  useBackButton(sheetOpen || !isTopLevelPath(location.pathname) || formWithoutTabBar, onBack);
}

/**
 * A new screen starts at the top. Back and forward (POP) are left to the browser, which restores the
 * position it kept for that entry.
 */
function useScrollToTopOnNavigation(): void {
  const { key } = useLocation();
  const type = useNavigationType();
  const fromBrowserHistory = type === "POP";
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` is the trigger: every navigation is a new entry.
  useLayoutEffect(() => {
    if (!fromBrowserHistory) window.scrollTo(0, 0);
  }, [key, fromBrowserHistory]);
}

export function RootLayout({ children }: { children: ReactNode }) {
  useRouterBackButton();
  useScrollToTopOnNavigation();
  return (
    <RouteErrorBoundary>
      <Suspense fallback={<SpinnerScreen />}>{children}</Suspense>
    </RouteErrorBoundary>
  );
}

/** Login, registration and the other entry screens: one narrow column. */
export function PublicLayout({ children }: { children: ReactNode }) {
  return <div className="public-layout">{children}</div>;
}
