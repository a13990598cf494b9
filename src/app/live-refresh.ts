/**
 * Live money (docs/decisions.md#live-money). While the cabinet is open and in front, the app polls `GET /user/pulse`
 * every 3 s (one indexed statement, ~30 bytes); when its version moves (a credited refill, an accrual,
 * a withdrawal the operator moved) every balance, operation and list refreshes, and a new unread
 * notification opens the notification dialog. Coming back to the front (`visibilitychange`, Telegram's
 * `visibility_changed`), pulling down and the refresh control refresh at once.
 *
 * Why a short poll rather than server-sent events: an EventSource cannot send the bearer token, and other
 * writers (the operator's CLI, other server instances) change the database too. Measured in
 * `tests/integration/pulse.test.ts`.
 */
import { type QueryClient, useQuery, useQueryClient } from "@tanstack/react-query";
import { useAtomValue, useSetAtom } from "jotai";
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from "react";
import { notificationKeys, notificationQueries } from "@/features/notifications/api/notification-queries";
import { partnerKeys } from "@/features/partners/api/partner-queries";
import { withdrawalKeys } from "@/features/withdrawal/api/withdrawal-queries";
import { moneyKeys } from "@/lib/query-keys";
import { updateUserAtom, userAtom } from "@/lib/session";
import { useBackToFront } from "@/tma/lifecycle";

/** Everything a moved ledger may have changed. */
const LIVE_KEYS = [
  moneyKeys.balance,
  moneyKeys.statistics,
  moneyKeys.operations,
  moneyKeys.deposits,
  moneyKeys.refills,
  withdrawalKeys.all,
  partnerKeys.all,
] as const;

async function refreshMoney(client: QueryClient): Promise<void> {
  await Promise.all([
    ...LIVE_KEYS.map((queryKey) => client.invalidateQueries({ queryKey })),
    // Also when no screen shows it, so the notification dialog opens on the new list, not a cached one.
    client.invalidateQueries({ queryKey: notificationKeys.all, refetchType: "all" }),
  ]);
}

export function useLiveRefresh(): LiveRefresh {
  const client = useQueryClient();
  const user = useAtomValue(userAtom);
  const updateUser = useSetAtom(updateUserAtom);
  const pulse = useQuery({ ...notificationQueries.pulse(), enabled: user !== null });
  const seen = useRef<string | undefined>(undefined);
  const [refreshing, setRefreshing] = useState(false);
  const unread = user?.notifications.unread ?? 0;

  useEffect(() => {
    const data = pulse.data;
    if (!data) return;
    const moved = seen.current !== undefined && seen.current !== data.version;
    seen.current = data.version;
    const raise = data.unread > unread;
    if (!moved && !raise) return;
    let cancelled = false;
    void (moved ? refreshMoney(client) : Promise.resolve()).then(() => {
      // Only raised here: the dialog itself lowers it when the user closes it.
      if (!cancelled && raise) updateUser({ notifications: { unread: data.unread } });
    });
    return () => {
      cancelled = true;
    };
  }, [pulse.data, unread, client, updateUser]);

  const refresh = useCallback(async () => {
    setRefreshing(true);
    try {
      await Promise.all([
        refreshMoney(client),
        client.refetchQueries({ queryKey: notificationQueries.pulse().queryKey }),
      ]);
    } finally {
      setRefreshing(false);
    }
  }, [client]);

  useBackToFront(() => {
    void refresh();
  });
  // The same object while nothing in it changes: every screen reads it from the frame's context, and a new one
  // at each of the frame's renders rendered the whole screen again.
  return useMemo(() => ({ refresh, refreshing }), [refresh, refreshing]);
}

export interface LiveRefresh {
  refresh(): Promise<void>;
  refreshing: boolean;
}

/** The cabinet frame's live refresh, for the screens' refresh controls. */
export const LiveRefreshContext = createContext<LiveRefresh | null>(null);

export function useLiveRefreshControl(): LiveRefresh | null {
  return useContext(LiveRefreshContext);
}
