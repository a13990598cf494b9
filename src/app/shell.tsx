import type { QueryClient } from "@tanstack/react-query";
import { RouterProvider } from "react-router";
import type { AppStore } from "@/lib/store";
import { MaintenanceGate, SessionGate } from "./gates";
import { AppProvider } from "./provider";
import type { AppRouter } from "./router";

/** The whole app around a router: providers, the maintenance gate, the session gate, the routes. */
export function AppShell({
  store,
  queryClient,
  router,
}: {
  store: AppStore;
  queryClient: QueryClient;
  router: AppRouter;
}) {
  return (
    <AppProvider store={store} queryClient={queryClient}>
      <MaintenanceGate>
        <SessionGate>
          <RouterProvider router={router} />
        </SessionGate>
      </MaintenanceGate>
    </AppProvider>
  );
}
