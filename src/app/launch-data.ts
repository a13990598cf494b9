/**
 * A launch's first calls for the cabinet (see `launch.ts`), kept out of the entry chunk: this module loads with
 * the cabinet's code (the `cabinet-launch` chunk), which the launch announces at once.
 *
 * Their replies show as they come: the contract's code (zod, about 37 KB gzip) is not on a launch's way. Once
 * the screen has painted them, `checkLaunchData` has each checked against its route's schema (off the main thread);
 * one that does not fit is dropped and asked again the usual way (whose check then fails it as any call's).
 */
import type { RouteName } from "@contract";
import type { QueryClient, QueryKey } from "@tanstack/react-query";
import { balanceQueries } from "@/features/balance/api/balance-queries";
import { notificationQueries } from "@/features/notifications/api/notification-queries";
import { operationQueries } from "@/features/operations/api/operation-queries";
import { subscriptionQueries } from "@/features/subscription/api/subscription-queries";
import { withLaunchToken } from "@/lib/api-client";
import { keepLaunchReplyFresh } from "@/lib/early-replies";
import type { Launch } from "./launch";

interface LaunchQuery {
  query: { queryKey: QueryKey };
  /** The contract's route the reply comes from (its schema checks it). */
  route: RouteName;
}

/** The queries the launch's screen reads first (the cabinet's balance, figures, last operations…). */
export function launchQueries(launch: Launch): LaunchQuery[] {
  if (!launch.cabinet) return [];
  const frame: LaunchQuery[] = [{ query: notificationQueries.pulse(), route: "pulse" }];
  if (launch.screen !== "cabinet") return frame;
  return [
    { query: balanceQueries.balance(), route: "balance" },
    { query: balanceQueries.statistics(), route: "statistics" },
    { query: operationQueries.recent(), route: "operations" },
    { query: subscriptionQueries.options(), route: "subscriptionOptions" },
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
  return Promise.all(fetched).then(() => undefined);
}

/** The restore did not sign in: what was fetched with the kept token is not for anyone to see. */
export function dropLaunchData(queryClient: QueryClient, launch: Launch): void {
  for (const { query } of launchQueries(launch)) queryClient.removeQueries({ queryKey: query.queryKey, exact: true });
}

/**
 * How long the check waits for the screen to show the launch's data before it checks anyway (the user
 * went elsewhere). Long enough for a slow phone's cabinet code: checking earlier would load the contract
 * beside the code the balance still waits for.
 */
export const LAUNCH_CHECK_WAIT_MS = 15_000;

/** Once the screen shows the first of `queries` (a component reads it) and the browser has painted since. */
function painted(queryClient: QueryClient, queries: LaunchQuery[]): Promise<void> {
  const first = queries[0]?.query.queryKey;
  const cache = queryClient.getQueryCache();
  const shown = () =>
    first === undefined || (cache.find({ queryKey: first, exact: true })?.getObserversCount() ?? 0) > 0;
  return new Promise<void>((resolve) => {
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      unsubscribe();
      clearTimeout(timer);
      const next = typeof requestAnimationFrame === "function" ? requestAnimationFrame : (f: () => void) => f();
      // The frame after the one that shows it: its paint is done by then.
      next(() => setTimeout(resolve, 0));
    };
    const unsubscribe = cache.subscribe((event) => {
      if (event.type === "observerAdded" && shown()) finish();
    });
    const timer = setTimeout(finish, LAUNCH_CHECK_WAIT_MS);
    if (shown()) finish();
  });
}

/**
 * After the launch's first paint, checks its replies against the contract (off the main thread: `reply-check.ts`).
 * `fetched` is what `prefetchLaunchData` returned.
 */
export async function checkLaunchData(queryClient: QueryClient, launch: Launch, fetched: Promise<void>): Promise<void> {
  const queries = launchQueries(launch);
  await fetched;
  await painted(queryClient, queries);
  const { checkReply } = await import("@/lib/reply-check");
  for (const { query, route } of queries) {
    const data = queryClient.getQueryData(query.queryKey);
    if (data === undefined || (await checkReply(route, data)).ok) continue;
    console.error(`[kassa] the launch's ${route} reply does not match the contract; asking again`);
    await queryClient.resetQueries({ queryKey: query.queryKey, exact: true });
  }
}
