/**
 * What a launch's first seconds do on the main thread besides rendering: the frame's live refresh keeps its
 * identity (every screen reads it from a context), and code wanted later loads one piece per idle moment.
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook } from "@testing-library/react";
import { createStore, Provider } from "jotai";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useLiveRefresh } from "@/app/live-refresh";

describe("the frame's live refresh", () => {
  it("is the same object across the frame's renders while nothing in it changes", async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>
        <Provider store={createStore()}>{children}</Provider>
      </QueryClientProvider>
    );
    const { result, rerender } = renderHook(() => useLiveRefresh(), { wrapper });
    const first = result.current;
    rerender();
    rerender();
    expect(result.current).toBe(first);
    // A refresh does change it (the screens' refresh controls show it), and back.
    let done: Promise<void> | undefined;
    act(() => {
      done = result.current.refresh();
    });
    expect(result.current.refreshing).toBe(true);
    expect(result.current).not.toBe(first);
    await act(async () => done);
    expect(result.current.refreshing).toBe(false);
    client.clear();
  });
});

describe("warmUp", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("loads one piece of code per idle moment once the launch has settled, each once however often it is asked for", async () => {
    // A fresh copy of the queue: other files of this run (one module graph) may have settled a launch already.
    vi.resetModules();
    const { AFTER_SETTLE_MS, launchSettled, warmUp } = await import("@/lib/warm-up-queue");
    const idle: Array<() => void> = [];
    vi.stubGlobal("requestIdleCallback", (callback: () => void) => idle.push(callback));
    const sheet = vi.fn(() => Promise.resolve("sheet"));
    const dialog = vi.fn(() => Promise.reject(new Error("offline")));
    // Five rows of one list each ask for the same sheet; a dialog asks for its own.
    for (let row = 0; row < 5; row++) warmUp(sheet);
    warmUp(dialog);
    // Nothing while the launch's first screen is still busy, nor in the moments after it settled.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    expect(idle).toHaveLength(0);
    launchSettled();
    vi.advanceTimersByTime(AFTER_SETTLE_MS - 1);
    expect(idle).toHaveLength(0);
    vi.advanceTimersByTime(1);
    vi.useRealTimers();
    expect(sheet).not.toHaveBeenCalled();
    expect(idle).toHaveLength(1);
    idle.shift()?.();
    expect(sheet).toHaveBeenCalledTimes(1);
    expect(dialog).not.toHaveBeenCalled();
    expect(idle).toHaveLength(1);
    idle.shift()?.();
    expect(dialog).toHaveBeenCalledTimes(1);
    expect(idle).toHaveLength(0);
    // Asked for again later: already loaded (or failed: the component asks itself when it needs it).
    warmUp(sheet);
    warmUp(dialog);
    expect(idle).toHaveLength(0);
    expect(sheet).toHaveBeenCalledTimes(1);
  });
  it("downloads a listed dialog's files ahead in a task of its own, not in the task that asked", async () => {
    const { warmUp } = await import("@/lib/warm-up");
    const list = document.createElement("script");
    list.type = "application/json";
    list.id = "kassa-later-code";
    list.textContent = JSON.stringify({
      exchange: { code: ["assets/exchange-dialog-test.js"], css: ["assets/exchange-dialog-test.css"] },
    });
    document.body.append(list);
    const load = vi.fn(() => Promise.resolve());
    const links = () =>
      [...document.querySelectorAll("link")].filter((link) => link.href.includes("exchange-dialog-test"));
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    try {
      warmUp(load, "exchange");
      expect(links()).toHaveLength(0);
      vi.advanceTimersByTime(0);
      // jsdom does not preload modules: the code's is a script's preload, as in Safari before 17 (a module's in
      // Chromium, early-balance.test.ts).
      expect(links().map((link) => `${link.rel} ${link.fetchPriority}`)).toEqual(["stylesheet low", "preload low"]);
      expect(links()[1]?.as).toBe("script");
      // The code is only downloaded: it runs on the tap.
      expect(load).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
      list.remove();
      for (const link of links()) link.remove();
    }
  });
});
