import type { ReactElement } from "react";
import { BrowserRouter } from "react-router";
import { createQueryClient } from "@/lib/query-client";
import { appStore } from "@/lib/store";
import { AppShell } from "./shell";

/**
 * Builds the app once the page's address is final (after the Telegram start), since the router reads
 * the location when it mounts.
 */
export function createApp(): ReactElement {
  const queryClient = createQueryClient();
  return (
    <BrowserRouter>
      <AppShell store={appStore} queryClient={queryClient} />
    </BrowserRouter>
  );
}
