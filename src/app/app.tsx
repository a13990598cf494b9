import type { ReactElement } from "react";
import { setNavigator } from "@/lib/navigation";
import { createQueryClient } from "@/lib/query-client";
import { appStore } from "@/lib/store";
import { createAppRouter } from "./router";
import { AppShell } from "./shell";

/**
 * Builds the app once the page's address is final (after the Telegram start), since the router reads
 * the location when it is created.
 */
export function createApp(): ReactElement {
  const queryClient = createQueryClient();
  const router = createAppRouter();
  // Code outside React (the API client's 401 rule) navigates through the router, without a page load.
  setNavigator((to, options) => {
    void router.navigate(to, options);
  });
  return <AppShell store={appStore} queryClient={queryClient} router={router} />;
}
