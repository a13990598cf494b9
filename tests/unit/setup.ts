/**
 * Unit test setup (jsdom): unmount what a test rendered, and give jsdom the browser bits it lacks.
 * No jest-dom: assertions use plain DOM queries.
 */
import { cleanup, configure } from "@testing-library/react";
import { afterEach, beforeAll, vi } from "vitest";

// Queries that wait (findBy…, waitFor) get 5 s: the unit tests share two cores with the rest of the run.
configure({ asyncUtilTimeout: 5000 });

// React 19 wants this flag to run act() without warnings in a test environment.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

beforeAll(() => {
  if (typeof window.matchMedia !== "function") {
    Object.defineProperty(window, "matchMedia", {
      configurable: true,
      value: (query: string): MediaQueryList =>
        ({
          media: query,
          matches: false,
          onchange: null,
          addEventListener: () => {},
          removeEventListener: () => {},
          addListener: () => {},
          removeListener: () => {},
          dispatchEvent: () => false,
        }) as MediaQueryList,
    });
  }
  if (typeof window.scrollTo !== "function" || !("mock" in window.scrollTo)) {
    window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
  }
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
  sessionStorage.clear();
  for (const part of document.cookie.split(";")) {
    const name = part.split("=")[0]?.trim();
    // biome-ignore lint/suspicious/noDocumentCookie: tests reset the cookie jar between cases.
    if (name) document.cookie = `${name}=; Max-Age=0; Path=/`;
  }
});
