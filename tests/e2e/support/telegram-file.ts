/** A test file whose tests launch the app in the simulated Telegram client: its browser, its sign-in switch, its phones. */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { chromiumForFile, phoneContext } from "./browser";
import { kassaCli } from "./cli";
import { type ClientOptions, installTelegramClient, LIGHT_THEME } from "./telegram-client";

/** The operator's switch for Telegram sign-in (`kassa settings set telegramAuthAvailable`). */
export function setTelegramSignIn(available: boolean): Promise<string> {
  return kassaCli("settings", "set", "telegramAuthAvailable", String(available));
}

/**
 * The file's share of the worker's Chromium (`chromiumForFile`, with `extraArgs`, say Telegram Web's), and Telegram
 * sign-in on before its tests and again after them (a test that turns it off leaves it as the next file expects).
 */
export function telegramFile(take: (browser: Browser) => void, extraArgs: string[] = []): void {
  chromiumForFile(take, extraArgs);
  beforeAll(() => setTelegramSignIn(true));
  afterAll(() => setTelegramSignIn(true).catch(() => undefined));
}

/** A phone (390×844 unless `viewport` says otherwise) with the simulated client installed, and a page in it. */
export async function telegramPhone(
  browser: Browser,
  {
    theme = LIGHT_THEME,
    viewport,
    ...client
  }: ClientOptions & { theme?: Record<string, string>; viewport?: { width: number; height: number } } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await phoneContext(browser, viewport ? { viewport } : {});
  await installTelegramClient(context, theme, client);
  return { context, page: await context.newPage() };
}
