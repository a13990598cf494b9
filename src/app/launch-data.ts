/**
 * A launch's first calls for the cabinet (see `launch.ts`), kept out of the entry chunk: this module loads with
 * the cabinet's code (the `cabinet-launch` chunk), which the launch announces at once.
 */
import type { QueryClient, QueryKey } from "@tanstack/react-query";
import { balanceQueries } from "@/features/balance/api/balance-queries";
import { notificationQueries } from "@/features/notifications/api/notification-queries";
import { operationQueries } from "@/features/operations/api/operation-queries";
import { subscriptionQueries } from "@/features/subscription/api/subscription-queries";
import { withLaunchToken } from "@/lib/api-client";
import type { Launch } from "./launch";

/** The queries the launch's screen reads first (the cabinet's balance, figures, last operations…). */
function launchQueries(launch: Launch): { queryKey: QueryKey }[] {
  if (!launch.cabinet) return [];
  const frame = [notificationQueries.pulse()];
  if (launch.screen !== "cabinet") return frame;
  return [
    balanceQueries.balance(),
    balanceQueries.statistics(),
    operationQueries.recent(),
    subscriptionQueries.options(),
    ...frame,
  ];
}

/** Sends the launch screen's first calls with the kept token, beside the session's restore. */
export function prefetchLaunchData(queryClient: QueryClient, launch: Launch, token: string): void {
  withLaunchToken(token, () => {
    for (const query of launchQueries(launch)) void queryClient.prefetchQuery(query);
  });
}

/** The restore did not sign in: what was fetched with the kept token is not for anyone to see. */
export function dropLaunchData(queryClient: QueryClient, launch: Launch): void {
  for (const { queryKey } of launchQueries(launch)) queryClient.removeQueries({ queryKey, exact: true });
}
