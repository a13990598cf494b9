import type { QueryClient } from "@tanstack/react-query";
import type { ReactElement } from "react";
import { createQueryClient } from "@/lib/query-client";
import { BrowserRouter } from "@/lib/router";
import { appStore } from "@/lib/store";
import { AppShell } from "./shell";

/**
 * Builds the app once the page's address is final (after the Telegram start), since the router reads
 * the location when it mounts. The launch may have started queries in `queryClient` already.
 */
export function createApp(queryClient: QueryClient = createQueryClient()): ReactElement {
  return (
    <BrowserRouter>
      <AppShell store={appStore} queryClient={queryClient} />
    </BrowserRouter>
  );
}
