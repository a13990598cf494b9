import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../../../scripts/lib/system.mjs";

/**
 * V8 keeps each function's source positions as it compiles it. Under the DevTools protocol, as Playwright drives the
 * browser, every new `Error` captures a detailed stack, and with positions made lazily V8 parsed the app's entry a
 * second time for the six `Error`s React creates as its module loads, on every page (docs/testing.md).
 */
const EAGER_SOURCE_POSITIONS = "--js-flags=--no-enable-lazy-source-positions";

/** Debian's Chromium, headless, with the background networking a closed machine refuses turned off. */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS, EAGER_SOURCE_POSITIONS, ...extraArgs],
  });
}

/**
 * The worker's Chromium with these switches, launched by the first file that asks and kept for the worker's next
 * files (they run one after another): a browser per file cost a launch and a shutdown each time. Every test opens
 * contexts of its own, so nothing but the process is shared; `releaseChromium` closes what a file left open.
 * Playwright ends the browser when the worker exits.
 */
const shared = new Map<string, Promise<Browser>>();

export async function sharedChromium(extraArgs: string[] = []): Promise<Browser> {
  const key = extraArgs.join(" ");
  const running = shared.get(key);
  if (running) {
    const browser = await running.catch(() => undefined);
    if (browser?.isConnected()) return browser;
  }
  const launched = launchChromium(extraArgs);
  shared.set(key, launched);
  return launched;
}

/** A file's end with the worker's Chromium (`sharedChromium`): the contexts it left open are closed, the browser stays. */
export async function releaseChromium(browser: Browser | undefined): Promise<void> {
  if (browser?.isConnected()) await Promise.all(browser.contexts().map((context) => context.close()));
}

/**
 * A file's share of the worker's Chromium (`sharedChromium`, with `extraArgs`): taken before its tests and handed to
 * `take`, released after them (`releaseChromium`). Called at a file's top, as a describe's fixtures are
 * (docs/testing.md).
 */
export function chromiumForFile(take: (browser: Browser) => void, extraArgs: string[] = []): void {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await sharedChromium(extraArgs);
    take(browser);
  });
  afterAll(async () => {
    await releaseChromium(browser);
  });
}

/** A phone-sized context (390×844, the issues' screenshot size). */
export function phoneContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  return browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: "en-US",
    ...options,
  });
}

/** A layout shift the browser reported (without recent input, as Lighthouse counts them) and what moved. */
export interface LayoutShift {
  value: number;
  nodes: string[];
}

/** Records every page of `context`'s layout shifts from its start; read them with `layoutShifts(page)`. */
export async function recordLayoutShifts(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const shifts: { value: number; nodes: string[] }[] = [];
    (window as unknown as { __shifts: typeof shifts }).__shifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as {
        value: number;
        hadRecentInput: boolean;
        sources?: { node?: Node | null }[];
      }[]) {
        if (entry.hadRecentInput) continue;
        const nodes = (entry.sources ?? []).map((s) => {
          const el = s.node instanceof Element ? s.node : s.node?.parentElement;
          return el ? `${el.tagName.toLowerCase()}.${el.className}`.slice(0, 60) : "?";
        });
        shifts.push({ value: entry.value, nodes });
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
}

/** The layout shifts `page` has had so far (`recordLayoutShifts`) and their sum. */
export async function layoutShifts(page: Page): Promise<{ total: number; shifts: LayoutShift[] }> {
  const shifts = (await page.evaluate("window.__shifts")) as LayoutShift[];
  return { total: shifts.reduce((sum, s) => sum + s.value, 0), shifts };
}
