/**
 * A launch's first calls for the cabinet (see `launch.ts`), kept out of the entry chunk: this module loads with
 * the cabinet's code (the `cabinet-launch` chunk), which the launch announces at once. They are ordinary calls
 * (`callApi`, each reply checked against its route's schema) made with the kept token.
 */
import type { QueryClient, QueryKey } from "@tanstack/react-query";
import { i18next, type Namespace } from "@/config/i18n";
import { balanceQueries } from "@/features/balance/api/balance-queries";
import { notificationQueries } from "@/features/notifications/api/notification-queries";
import { operationQueries } from "@/features/operations/api/operation-queries";
import { subscriptionQueries } from "@/features/subscription/api/subscription-queries";
import { withLaunchToken } from "@/lib/api-client";
import { keepLaunchReplyFresh } from "@/lib/early-replies";
import type { Launch } from "./launch";

/**
 * The texts a screen a chat button opens (`startapp=refill_<id>`, `deposit_<id>` …) reads beyond `common` and the
 * cabinet's (`CABINET_TEXTS`, which the entry asks for), asked for beside the launch's calls: the screen's first render
 * waits for these (`main.tsx`), where before it suspended on its texts (a render thrown away and done again) and they
 * came one round trip after its code. `early-balance.test.ts` fails on such a launch that suspends.
 */
const SCREEN_TEXTS: Partial<Record<Launch["screen"], readonly Namespace[]>> = {
  refill: ["refill"],
  withdrawal: ["withdrawal"],
  deposits: ["deposits"],
  settings: ["settings"],
  newsItem: ["news", "auth"],
};

interface LaunchQuery {
  query: { queryKey: QueryKey };
}

/** The queries the launch's screen reads first (the cabinet's balance, figures, last operations…). */
export function launchQueries(launch: Launch): LaunchQuery[] {
  if (!launch.cabinet) return [];
  const frame: LaunchQuery[] = [{ query: notificationQueries.pulse() }];
  if (launch.screen !== "cabinet") return frame;
  return [
    { query: balanceQueries.overview() },
    { query: balanceQueries.balance() },
    { query: balanceQueries.statistics() },
    { query: operationQueries.recent() },
    { query: subscriptionQueries.options() },
    ...frame,
  ];
}

/**
 * Sends the launch screen's first calls with the kept token, beside the session's restore; resolves once all
 * have answered (or failed). The screen that mounts with their replies does not ask again (`keepLaunchReplyFresh`).
 */
export function prefetchLaunchData(queryClient: QueryClient, launch: Launch, token: string): Promise<void> {
  const queries = launchQueries(launch);
  for (const { query } of queries) keepLaunchReplyFresh(queryClient, query.queryKey);
  const fetched = withLaunchToken(token, () => queries.map(({ query }) => queryClient.prefetchQuery(query)));
  const texts = i18next.loadNamespaces([...(SCREEN_TEXTS[launch.screen] ?? [])]);
  return Promise.all([...fetched, texts]).then(() => undefined);
}

/** The restore did not sign in: what was fetched with the kept token is not for anyone to see. */
export function dropLaunchData(queryClient: QueryClient, launch: Launch): void {
  for (const { query } of launchQueries(launch)) queryClient.removeQueries({ queryKey: query.queryKey, exact: true });
}
