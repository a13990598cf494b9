import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useAtomValue } from "jotai";
import { type ReactNode, useEffect } from "react";
import { lazyScreen } from "@/components/lazy-screen";
import { SpinnerScreen } from "@/components/spinner-screen";
import { settingsQueries } from "@/features/settings/api/settings-queries";
import { onMaintenanceReply } from "@/lib/api-client";
import { sessionStatusAtom } from "@/lib/session";

// Loaded only when technical work is on.
const MaintenancePage = lazyScreen(() =>
  import("@/features/maintenance/components/maintenance-page").then((m) => ({ default: m.MaintenancePage })),
);

/**
 * While technical work is on, the maintenance page replaces the whole app; when the flag goes off the
 * app returns by itself (the router keeps its place). Any reply with code MAINTENANCE checks again.
 */
export function MaintenanceGate({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const { data } = useQuery(settingsQueries.technicalWork());
  useEffect(
    () =>
      onMaintenanceReply(() => {
        void queryClient.invalidateQueries({ queryKey: settingsQueries.technicalWork().queryKey });
      }),
    [queryClient],
  );
  if (data?.enabled) return <MaintenancePage message={data.message} until={data.until} />;
  return <>{children}</>;
}

/** Content waits until the saved session is restored (or the wait gave up). */
export function SessionGate({ children }: { children: ReactNode }) {
  const status = useAtomValue(sessionStatusAtom);
  if (status === "restoring") return <SpinnerScreen />;
  return <>{children}</>;
}
