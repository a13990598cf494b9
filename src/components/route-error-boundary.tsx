import { Component, type ErrorInfo, lazy, type ReactNode, Suspense } from "react";
import { useLocation } from "react-router";

// Loaded only when a screen fails; the first screen does not pay for it.
const RouteError = lazy(() => import("./route-error").then((m) => ({ default: m.RouteError })));

interface BoundaryProps {
  /** A new value (the next navigation) clears a caught error. */
  resetKey: string;
  children: ReactNode;
}

interface BoundaryState {
  error: unknown;
  caughtAt: string | null;
}

class ErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: null, caughtAt: null };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error: error ?? new Error("A screen failed without an error value") };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    if (state.error === null) return null;
    // Remember where it broke; leaving that place (a navigation) gives the screen another chance.
    if (state.caughtAt === null) return { caughtAt: props.resetKey };
    if (state.caughtAt !== props.resetKey) return { error: null, caughtAt: null };
    return null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error("[kassa] a screen failed", error, info.componentStack);
  }

  private readonly retry = () => this.setState({ error: null, caughtAt: null });

  override render() {
    if (this.state.error === null) return this.props.children;
    return (
      <Suspense fallback={null}>
        <RouteError error={this.state.error} onRetry={this.retry} />
      </Suspense>
    );
  }
}

/**
 * The error boundary of a route area (the whole app, and the cabinet's content inside its frame): a
 * screen that throws (a 5xx with nothing to show, a chunk that failed to load) is replaced by a
 * friendly message with a way to try again; navigating elsewhere clears it.
 */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  const location = useLocation();
  return <ErrorBoundary resetKey={location.key}>{children}</ErrorBoundary>;
}
