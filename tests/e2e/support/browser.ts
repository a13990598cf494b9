import { type Browser, type BrowserContext, type BrowserContextOptions, chromium } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../../../scripts/lib/system.mjs";

/** Debian's Chromium, headless, with the background networking a closed machine refuses turned off. */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS, ...extraArgs],
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
