import { lazy, Suspense } from "react";

// Loaded only when a screen fails; the first screen does not pay for it.
const RouteError = lazy(() => import("./route-error").then((m) => ({ default: m.RouteError })));

/** The route-level error boundary (`errorElement`). */
export function RouteErrorBoundary() {
  return (
    <Suspense fallback={null}>
      <RouteError />
    </Suspense>
  );
}
