/**
 * Faults said fast (docs/decisions.md#a-bad-connection): a download that fails is said at once, one that does not
 * answer after a bounded wait; what failed is downloaded again in the background (at once on the browser's
 * `online` event) and the route's error screen gives way to the screen without a tap.
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { AppRoot } from "@telegram-apps/telegram-ui";
import { act, render, screen, waitFor } from "@testing-library/react";
import { Suspense } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ChunkLoadError, importOrFail, lazyScreen } from "@/components/lazy-screen";
import { RouteErrorBoundary } from "@/components/route-error-boundary";
import {
  BACKGROUND_RETRY_WAITS_MS,
  LOAD_DEADLINE_MS,
  loadDeadline,
  retryInBackground,
  withDeadline,
} from "@/lib/load-faults";
import { MemoryRouter } from "@/lib/router";
import common from "../../locales/en/common.json";
import { ensureI18n } from "./test-utils";

afterEach(() => {
  vi.useRealTimers();
});

const never = () => new Promise<never>(() => undefined);

// The app's own deadline here (the unit setup lengthens it for the other tests).
let kept = loadDeadline.ms;
beforeEach(() => {
  kept = loadDeadline.ms;
  loadDeadline.ms = LOAD_DEADLINE_MS;
});
afterEach(() => {
  loadDeadline.ms = kept;
});

describe("a download's deadline", () => {
  it("answers as the download does when it comes in time, and fails when it does not", async () => {
    vi.useFakeTimers();
    await expect(withDeadline(Promise.resolve("code"))).resolves.toBe("code");
    // A download that came leaves no timer behind (a launch starts about ten).
    expect(vi.getTimerCount()).toBe(0);
    const stalled = withDeadline(never());
    const outcome = stalled.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(LOAD_DEADLINE_MS - 1);
    let settled = false;
    void outcome.then(() => {
      settled = true;
    });
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(String(await outcome)).toContain("stalled");
    expect(LOAD_DEADLINE_MS).toBeLessThan(3_000);
  });

  it("a screen's code that fails is tried once more, then said at once; a stalled one at the deadline", async () => {
    vi.useFakeTimers();
    const failing = vi.fn(() => Promise.reject(new TypeError("Failed to fetch dynamically imported module")));
    const failed = importOrFail(failing, 300).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(300);
    expect(await failed).toBeInstanceOf(ChunkLoadError);
    expect(failing).toHaveBeenCalledTimes(2);

    const stalled = importOrFail(never).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(LOAD_DEADLINE_MS);
    expect(await stalled).toBeInstanceOf(ChunkLoadError);
  });
});

describe("retrying in the background", () => {
  it("tries after growing pauses, at once on the online event, and stops once it succeeds", async () => {
    vi.useFakeTimers();
    let up = false;
    const attempt = vi.fn(() => (up ? Promise.resolve() : Promise.reject(new Error("offline"))));
    const loaded = vi.fn();
    const key = {};
    retryInBackground(key, attempt, loaded);
    retryInBackground(key, attempt, loaded); // one loop per key
    expect(attempt).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(BACKGROUND_RETRY_WAITS_MS[0]);
    expect(attempt).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(BACKGROUND_RETRY_WAITS_MS[0]);
    expect(attempt).toHaveBeenCalledTimes(1); // the second pause is longer
    up = true;
    window.dispatchEvent(new Event("online"));
    await vi.advanceTimersByTimeAsync(0);
    expect(attempt).toHaveBeenCalledTimes(2);
    expect(loaded).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(60_000);
    window.dispatchEvent(new Event("online"));
    expect(attempt).toHaveBeenCalledTimes(2);
  });
});

describe("the route's error screen for a screen whose code failed", () => {
  it("says so with the entry's texts, and gives way to the screen by itself once the code comes", async () => {
    await ensureI18n();
    let up = false;
    const load = vi.fn(() =>
      up
        ? Promise.resolve({ default: () => <p data-testid="the-screen">screen</p> })
        : Promise.reject(new TypeError("Failed to fetch dynamically imported module")),
    );
    const Screen = lazyScreen(load);
    render(
      <QueryClientProvider client={new QueryClient()}>
        <AppRoot>
          <MemoryRouter>
            <RouteErrorBoundary>
              <Suspense fallback={<p data-testid="spinner" />}>
                <Screen />
              </Suspense>
            </RouteErrorBoundary>
          </MemoryRouter>
        </AppRoot>
      </QueryClientProvider>,
    );
    const error = await screen.findByRole("alert", {}, { timeout: LOAD_DEADLINE_MS + 1_000 });
    expect(error.textContent).toContain(common.loadFailed);
    expect(screen.queryByTestId("the-screen")).toBeNull();

    // Back online: no tap, the background retry brings the screen.
    up = true;
    act(() => {
      window.dispatchEvent(new Event("online"));
    });
    await screen.findByTestId("the-screen");
    expect(screen.queryByRole("alert")).toBeNull();
  });
});

describe("a screen whose code came before its first render", () => {
  /** Renders `Screen` in a suspense whose fallback counts its renders; the count after the first commit. */
  function renderCountingFallbacks(Screen: ReturnType<typeof lazyScreen>) {
    let fallbacks = 0;
    function Fallback() {
      fallbacks += 1;
      return <p data-testid="spinner" />;
    }
    render(
      <Suspense fallback={<Fallback />}>
        <Screen />
      </Suspense>,
    );
    return () => fallbacks;
  }

  it("renders at once when preloaded: no fallback (React would hold the screen back 300 ms after one)", async () => {
    const load = vi.fn(() => Promise.resolve({ default: () => <p data-testid="the-screen">screen</p> }));
    const Screen = lazyScreen(load);
    await Screen.preload();
    const fallbacks = renderCountingFallbacks(Screen);
    expect(screen.getByTestId("the-screen")).toBeTruthy();
    expect(fallbacks()).toBe(0);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("suspends as React.lazy does when its code has not come, then shows the screen", async () => {
    const Screen = lazyScreen(() => Promise.resolve({ default: () => <p data-testid="the-screen">screen</p> }));
    const fallbacks = renderCountingFallbacks(Screen);
    expect(screen.getByTestId("spinner")).toBeTruthy();
    await screen.findByTestId("the-screen");
    expect(fallbacks()).toBeGreaterThan(0);
  });
});

describe("a screen's place while its code loads (ContentSpinner)", () => {
  // Both from the module graph as it is now (the tests below start it afresh, so that nothing is kept from before).
  const place = async () => {
    const { ContentSpinner } = await import("@/components/content-spinner");
    const { AppRoot } = await import("@telegram-apps/telegram-ui");
    return render(
      <AppRoot platform="base" appearance="light">
        <ContentSpinner />
      </AppRoot>,
    );
  };
  afterEach(() => {
    vi.doUnmock("@/components/telegram-ui-spinner");
  });

  it("is a status region at once, and telegram-ui's spinner in it once the spinner's own code has come", async () => {
    vi.resetModules();
    await place();
    const region = screen.getByRole("status", { name: "Loading…" });
    expect(region.classList.contains("spinner-screen")).toBe(true);
    // telegram-ui draws its spinner as an SVG; its module is not the cabinet's launch's, so it comes a moment later.
    await waitFor(() => expect(region.querySelector("svg")).not.toBeNull(), { timeout: 10_000 });
    // telegram-ui's spinner is a status too: hidden, so that a screen reader hears one region, with its name.
    expect(screen.getAllByRole("status")).toEqual([region]);
  });

  it("stays a quiet status region when the spinner's code fails to come (offline), and asks again next time", async () => {
    vi.resetModules();
    vi.doMock("@/components/telegram-ui-spinner", () => {
      throw new TypeError("Failed to fetch dynamically imported module");
    });
    const offline = await place();
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.getByRole("status").querySelector("svg")).toBeNull();
    offline.unmount();
    // Back online: the next showing asks again (the failure was not kept) and draws it.
    vi.doUnmock("@/components/telegram-ui-spinner");
    const online = await place();
    await waitFor(() => expect(online.container.querySelector(".spinner-screen svg")).not.toBeNull(), {
      timeout: 10_000,
    });
  });
});
