import { RouterProvider } from "react-router";
import { setNavigator } from "@/lib/navigation";
import { createQueryClient } from "@/lib/query-client";
import { appStore } from "@/lib/store";
import { MaintenanceGate, SessionGate } from "./gates";
import { AppProvider } from "./provider";
import { createAppRouter } from "./router";

const queryClient = createQueryClient();
const router = createAppRouter();
// Code outside React (the API client's 401 rule) navigates through the router, without a page load.
setNavigator((to, options) => {
  void router.navigate(to, options);
});

export function App() {
  return (
    <AppProvider store={appStore} queryClient={queryClient}>
      <MaintenanceGate>
        <SessionGate>
          <RouterProvider router={router} />
        </SessionGate>
      </MaintenanceGate>
    </AppProvider>
  );
}
