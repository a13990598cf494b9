import { Suspense, useCallback } from "react";
import { Outlet, ScrollRestoration, useLocation, useNavigate } from "react-router";
import { SpinnerScreen } from "@/components/spinner-screen";
import { isTopLevelPath, paths } from "@/config/paths";
import { useBackButton } from "@/tma/hooks";

const PUBLIC_PATHS = [paths.login, "/register", paths.forgotPassword, paths.phoneVerification];

/** Where Back leads when the screen was opened directly (no in-app history to go back through). */
function parentOf(pathname: string): string {
  if (pathname.startsWith("/news/")) return paths.news;
  if (PUBLIC_PATHS.some((p) => pathname === p || pathname.startsWith(`${p}/`))) return paths.login;
  if ([paths.partners, paths.operations, paths.settings, paths.news].includes(pathname as never)) return paths.more;
  return paths.cabinet;
}

/** Telegram's Back button mirrors in-app navigation: shown below the top level, and it goes back. */
function useRouterBackButton(): void {
  const location = useLocation();
  const navigate = useNavigate();
  const onBack = useCallback(() => {
    if (location.key !== "default") navigate(-1);
    else navigate(parentOf(location.pathname), { replace: true });
  }, [location.key, location.pathname, navigate]);
  useBackButton(!isTopLevelPath(location.pathname), onBack);
}

export function RootLayout() {
  useRouterBackButton();
  return (
    <>
      <Suspense fallback={<SpinnerScreen />}>
        <Outlet />
      </Suspense>
      <ScrollRestoration />
    </>
  );
}

/** Login, registration and the other entry screens: one narrow column. */
export function PublicLayout() {
  return (
    <div className="public-layout">
      <Outlet />
    </div>
  );
}
