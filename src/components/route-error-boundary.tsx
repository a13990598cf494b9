import {
  Component,
  createContext,
  type ErrorInfo,
  type ReactNode,
  useContext,
  useEffect,
  useReducer,
  useSyncExternalStore,
} from "react";
import { subscribeTranslationFailures, translationFailures } from "@/config/i18n";
import { recoveries } from "@/lib/load-faults";
import { useLocation } from "@/lib/router";
// In the entry chunk on purpose: the error screen must show when downloads fail (docs/decisions.md#a-bad-connection).
import { isDownloadFailure, RouteError, TranslationsUnavailableError } from "./route-error";

interface BoundaryProps {
  /** A new value (the next navigation) clears a caught error. */
  resetKey: string;
  /** A new value (a failed download has come) clears a caught download failure. */
  recoveries: number;
  children: ReactNode;
}

interface BoundaryState {
  error: unknown;
  caughtAt: string | null;
  recoveries: number;
}

class ErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: null, caughtAt: null, recoveries: 0 };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error: error ?? new Error("A screen failed without an error value") };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    if (state.error === null) return null;
    // Remember where it broke; leaving that place (a navigation) gives the screen another chance, and so
    // does the download that failed coming in the background.
    if (state.caughtAt === null) return { caughtAt: props.resetKey, recoveries: props.recoveries };
    if (state.caughtAt !== props.resetKey) return { error: null, caughtAt: null };
    if (state.recoveries !== props.recoveries && isDownloadFailure(state.error)) return { error: null, caughtAt: null };
    return null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error("[kassa] a screen failed", error, info.componentStack);
  }

  private readonly retry = () => this.setState({ error: null, caughtAt: null });

  override render() {
    if (this.state.error === null) return this.props.children;
    return <RouteError error={this.state.error} onRetry={this.retry} />;
  }
}

/** How deep a boundary sits: only the innermost mounted one reports missing translations. */
const DepthContext = createContext(0);
const mountedDepths = new Map<number, number>();
const depthListeners = new Set<() => void>();
const deepest = () => Math.max(0, ...[...mountedDepths.entries()].filter(([, n]) => n > 0).map(([d]) => d));
function subscribeDepths(listener: () => void): () => void {
  depthListeners.add(listener);
  return () => depthListeners.delete(listener);
}
function countDepth(depth: number, delta: number): void {
  mountedDepths.set(depth, (mountedDepths.get(depth) ?? 0) + delta);
  for (const listener of depthListeners) listener();
}

/**
 * Throws (to its boundary) while a translation file of the language could not be downloaded and a screen waits:
 * its spinner is up, or a tap's navigation has not shown its screen yet (the router renders it in a transition,
 * the last screen staying meanwhile). A part of a shown screen that waits for its texts (the cabinet's deposits)
 * does not take the screen with it; it shows once the file comes.
 */
function TranslationGuard({ depth, pathname }: { depth: number; pathname: string }) {
  const failed = useSyncExternalStore(subscribeTranslationFailures, translationFailures, translationFailures);
  const innermost = useSyncExternalStore(subscribeDepths, deepest, deepest);
  const [, recheck] = useReducer((n: number) => n + 1, 0);
  // The screen spinners (`SpinnerScreen`, `ContentSpinner`) share the class; the address changes at the tap, the
  // router's location once the screen shows.
  const failing = failed.length > 0 && innermost === depth;
  const waiting = () => document.querySelector(".spinner-screen") !== null || window.location.pathname !== pathname;
  // A render may come before the spinner is on screen (the navigation's own render): look again once committed.
  useEffect(() => {
    if (failing && waiting()) recheck();
  });
  if (failing && waiting()) {
    throw new TranslationsUnavailableError(failed.join(", "));
  }
  return null;
}

/**
 * The error boundary of a route area (the whole app, and the cabinet's content inside its frame): a
 * screen that throws (a 5xx with nothing to show, a chunk or a translation file that failed to
 * download) is replaced by a friendly message with a way to try again; navigating elsewhere clears it.
 */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  const location = useLocation();
  const depth = useContext(DepthContext) + 1;
  const recovered = useSyncExternalStore(recoveries.subscribe, recoveries.get, recoveries.get);
  // Counted outside the boundary, so a boundary showing its error still counts as the innermost.
  useEffect(() => {
    countDepth(depth, 1);
    return () => countDepth(depth, -1);
  }, [depth]);
  return (
    <DepthContext.Provider value={depth}>
      <ErrorBoundary resetKey={location.key} recoveries={recovered}>
        <TranslationGuard depth={depth} pathname={location.pathname} />
        {children}
      </ErrorBoundary>
    </DepthContext.Provider>
  );
}
