/**
 * Unit test setup (jsdom): unmount what a test rendered, and give jsdom the browser bits it lacks.
 * No jest-dom: assertions use plain DOM queries.
 *
 * The test files of a worker share one module graph and one document (no per-file isolation: that
 * setup cost more than the tests). So everything a test may leave behind is put back here, after
 * each test: the rendered tree, timers, stubs and mocks, the app's i18next instance in English (a
 * test may switch the language, or start an instance of its own, which react-i18next then follows),
 * storage and cookies, the Telegram client and the token store it chose, the one-per-page automatic
 * sign-in.
 */
import { cleanup, configure } from "@testing-library/react";
import { setI18n } from "react-i18next";
import { afterEach, beforeAll, vi } from "vitest";
import { i18next, setLanguage } from "@/config/i18n";
import { resetAutoSignInAttempt } from "@/features/auth/model/telegram-auto-sign-in";
import { loadDeadline } from "@/lib/load-faults";
import { cookieTokenStore, setTokenStore } from "@/lib/session";
import { setTelegramBridge } from "@/tma/bridge";

// Queries that wait (findBy…, waitFor) get 60 s: the unit tests share two cores with the rest of the
// run (types, integration, the browser), and a worker's first visit to a lazy screen transforms its
// modules then (18 s alone for the withdrawal screen inside Telegram, more than 15 s at a load of 11).
// A ceiling, not a speed: a test waits for what it asserts and ends as soon as it is there.
configure({ asyncUtilTimeout: 60_000 });
// A screen's first import compiles its modules here, which a loaded machine stretches past the app's download
// deadline (1.5 s, meant for a network): the screen would say "not downloaded" and come only with a background retry.
// tests/unit/load-faults.test.tsx puts the app's own deadline back for the tests of the deadline itself.
loadDeadline.ms = 60_000;

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

afterEach(async () => {
  cleanup();
  // Real timers before anything below loads: a translation file loaded on a test's fake clock would wait on a
  // deadline, and i18next's retry of it on a timer, that no clock moves once the test is over.
  vi.useRealTimers();
  setTelegramBridge(null);
  setTokenStore(cookieTokenStore);
  resetAutoSignInAttempt();
  if (i18next.isInitialized) {
    setI18n(i18next);
    await setLanguage("en");
  }
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
