import { useAtomValue } from "jotai";
import { lazy, Suspense } from "react";
import { alertsAtom } from "@/lib/alerts";

// Loaded with the first alert: most visits never show one.
const AlertSnackbar = lazy(() => import("./alert-snackbar").then((m) => ({ default: m.AlertSnackbar })));

/** Shows queued alerts one at a time, each for its duration (3000 ms by default, docs/cabinet-rules.md#limits). */
export function AlertsHost() {
  const queue = useAtomValue(alertsAtom);
  const alert = queue[0];
  if (!alert) return null;
  return (
    // The Snackbar and the text's namespace may still be loading; the alert waits, not the app.
    <Suspense fallback={null}>
      <AlertSnackbar key={alert.id} alert={alert} />
    </Suspense>
  );
}
