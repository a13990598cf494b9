import type { QueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { setNavigator } from "@/lib/navigation";
import { useNavigate } from "@/lib/router";
import type { AppStore } from "@/lib/store";
import { BiometricLockGate, MaintenanceGate, SessionGate } from "./gates";
import { AppProvider } from "./provider";
import { AppRoutes } from "./router";

/** Code outside React (the API client's 401 rule) navigates through the router, without a page load. */
function NavigatorBridge() {
  const navigate = useNavigate();
  useEffect(() => {
    setNavigator((to, options) => {
      navigate(to, options);
    });
    return () => setNavigator(null);
  }, [navigate]);
  return null;
}

/**
 * The whole app inside a router (`BrowserRouter` in the browser, `MemoryRouter` in tests): providers,
 * the maintenance gate, the session gate, the biometric lock's gate, the routes.
 */
export function AppShell({ store, queryClient }: { store: AppStore; queryClient: QueryClient }) {
  return (
    <AppProvider store={store} queryClient={queryClient}>
      <NavigatorBridge />
      <MaintenanceGate>
        <SessionGate>
          <BiometricLockGate>
            <AppRoutes />
          </BiometricLockGate>
        </SessionGate>
      </MaintenanceGate>
    </AppProvider>
  );
}
