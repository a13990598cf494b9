import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useAtomValue } from "jotai";
import { type ReactNode, Suspense, useEffect, useState } from "react";
import { lazyScreen } from "@/components/lazy-screen";
import { SpinnerScreen } from "@/components/spinner-screen";
import { checkKeptToken } from "@/features/auth/api/session";
import { settingsQueries } from "@/features/settings/api/settings-queries";
import { onMaintenanceReply } from "@/lib/api-client";
import { readSavedSession, restoreSession, sessionStatusAtom } from "@/lib/session";
import { getTelegramBridge } from "@/tma/bridge";
import { LOCKED_STATES, useBiometricLockState } from "@/tma/hooks";

// Loaded only when a launch inside Telegram finds its biometric lock closed.
const LockScreen = lazyScreen(() =>
  import("@/features/security/components/lock-screen").then((m) => ({ default: m.LockScreen })),
);

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

/**
 * With the biometric lock on (docs/telegram.md, "The biometric lock"), a launch whose check did not pass shows
 * the locked screen instead of the app, whatever the address. A check passed from there ("Try again") restores
 * the kept session as a launch does; "Sign in another way" leads to the login, where Telegram sign-in is off.
 */
export function BiometricLockGate({ children }: { children: ReactNode }) {
  const state = useBiometricLockState();
  const [retrying, setRetrying] = useState(false);
  const lock = getTelegramBridge()?.biometricLock;
  if (!lock || !(LOCKED_STATES.includes(state) || (retrying && state === "checking"))) return <>{children}</>;
  const tryAgain = async () => {
    setRetrying(true);
    try {
      if ((await lock.unlock()) === "unlocked")
        await restoreSession({ read: () => readSavedSession({ checkToken: checkKeptToken }) });
    } finally {
      setRetrying(false);
    }
  };
  return (
    <Suspense fallback={<SpinnerScreen />}>
      <LockScreen
        state={state === "checking" ? "checking" : (state as "refused" | "denied" | "unavailable")}
        onTryAgain={tryAgain}
        onAnotherWay={() => lock.signInAnotherWay()}
        onOpenSettings={() => lock.openSettings()}
      />
    </Suspense>
  );
}
