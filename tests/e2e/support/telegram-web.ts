/**
 * Telegram Web (K and A) as it hosts a Mini App: a page on https://web.telegram.org that embeds the
 * app in a cross-site <iframe> (the sandbox and allow attributes both clients use), passes the launch
 * parameters in the URL (start parameter in the query, the rest in the fragment) and talks to it by
 * postMessage with JSON strings `{eventType, eventData}`. Each client answers as its own code does:
 * Web K answers neither the safe-area requests nor the storage and biometry calls (Bot API 9.0, 7.2);
 * Web A answers the safe areas, refuses both storages (`*_storage_failed`, UNSUPPORTED) and says
 * biometrics are not available. Both frames are created with `allow="camera; microphone; geolocation;"`:
 * no `clipboard-write`, so the Clipboard API is refused inside them.
 *
 * Both sites are served through the browser context's routing: the parent page from here, the app
 * (`https://kassa.example`) proxied to the real e2e server. So the app is a different *site* on https,
 * as in production, and Chromium applies its third-party rules to it: this browser blocks third-party
 * cookies and partitions third-party storage (Playwright turns partitioning off by default; see
 * `launchChromiumAsTelegramWeb`).
 */
import type { Browser, BrowserContext, Frame, Page } from "playwright-core";
import { disabledFeaturesSwitch } from "../../../scripts/lib/system.mjs";
import { launchChromium } from "./browser";
import { fetchAsBrowser, unlessGone } from "./route-fetch";
import { LIGHT_THEME, type PostedEvent, waitForEvent } from "./telegram-client";

export const TELEGRAM_WEB = "https://web.telegram.org";
/** The app's public address in these tests; requests to it go to the e2e server. */
export const APP_ORIGIN = "https://kassa.example";

/**
 * Chromium with storage partitioning on, as in a user's Chromium: our `--disable-features` (Playwright's list and
 * ours, which replaces Playwright's since Chromium reads the last one) without `ThirdPartyStoragePartitioning`.
 * `--test-third-party-cookie-phaseout` blocks third-party cookies as Chromium does when they are off.
 */
export const TELEGRAM_WEB_ARGS = [
  disabledFeaturesSwitch(["ThirdPartyStoragePartitioning"]),
  "--test-third-party-cookie-phaseout",
];

/** A Chromium of its own with `TELEGRAM_WEB_ARGS` (the tests share one per worker: `sharedChromium(TELEGRAM_WEB_ARGS)`). */
export function launchChromiumAsTelegramWeb(extraArgs: string[] = []): Promise<Browser> {
  return launchChromium([...TELEGRAM_WEB_ARGS, ...extraArgs]);
}

/** The parent page: Telegram Web's Mini App frame and its side of the protocol. */
const PARENT_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Telegram Web</title>
<style>body{margin:0;background:#ddd} iframe{display:block;width:390px;height:720px;border:0}</style></head>
<body><div id="host"></div>
<script>
  // Web K and Web A create the frame with these attributes.
  const SANDBOX = "allow-scripts allow-same-origin allow-popups allow-forms allow-modals allow-storage-access-by-user-activation";
  // Web A (/a/) answers the safe areas and refuses the storages and biometrics; Web K (/k/) is silent.
  const webA = location.pathname.startsWith("/a");
  const tg = (window.tg = { events: [], theme: {}, frame: null, answerSafeArea: webA });
  tg.send = (eventType, eventData) => {
    if (tg.frame && tg.frame.contentWindow) tg.frame.contentWindow.postMessage(JSON.stringify({ eventType, eventData }), "*");
  };
  tg.mount = (src) => {
    tg.unmount();
    const frame = document.createElement("iframe");
    frame.src = src;
    frame.setAttribute("sandbox", SANDBOX);
    frame.setAttribute("allow", "camera; microphone; geolocation;");
    frame.allowFullscreen = true;
    tg.frame = frame;
    document.getElementById("host").append(frame);
  };
  tg.unmount = () => {
    if (tg.frame) tg.frame.remove();
    tg.frame = null;
  };
  window.addEventListener("message", (event) => {
    if (!tg.frame || event.source !== tg.frame.contentWindow) return;
    let message;
    try { message = JSON.parse(event.data); } catch { return; }
    const { eventType, eventData } = message;
    tg.events.push({ eventType, eventData: eventData ?? null, t: performance.now() });
    const rect = tg.frame.getBoundingClientRect();
    switch (eventType) {
      case "web_app_request_theme":
        tg.send("theme_changed", { theme_params: tg.theme });
        break;
      case "web_app_request_viewport":
        tg.send("viewport_changed", { height: rect.height, width: rect.width, is_expanded: true, is_state_stable: true });
        break;
      case "web_app_request_safe_area":
        if (tg.answerSafeArea) tg.send("safe_area_changed", { top: 0, bottom: 0, left: 0, right: 0 });
        break;
      case "web_app_request_content_safe_area":
        if (tg.answerSafeArea) tg.send("content_safe_area_changed", { top: 0, bottom: 0, left: 0, right: 0 });
        break;
      case "web_app_biometry_get_info":
        if (webA) tg.send("biometry_info_received", { available: false });
        break;
      default:
        if (webA && /^web_app_(secure|device)_storage_/.test(eventType)) {
          const kind = eventType.includes("secure") ? "secure" : "device";
          tg.send(kind + "_storage_failed", { req_id: eventData && eventData.req_id, error: "UNSUPPORTED" });
        }
    }
  });
</script></body></html>`;

export interface TelegramWeb {
  context: BrowserContext;
  page: Page;
  /** Requests the app made, by path (`/api/auth/telegram`, ...), counted through the proxy. */
  requests: string[];
  /** Holds every API call (not the app's files) until the returned function is called: a network that stalls. */
  holdApi(): () => void;
  /**
   * Answers the app's requests late from now on (0: at once again), its API calls `api` ms late and its files `files`
   * ms late: a slow network. Files later than the app's load deadline (1.5 s) are said as a fault, as they should be.
   */
  slowDown(delays: { api: number; files: number }): void;
  /** Inserts the Mini App frame (replacing one that is there) and returns it once it has loaded. */
  mount(launch: {
    initData: string;
    platform: "weba" | "webk";
    version?: string;
    startParam?: string;
    path?: string;
    /**
     * Where the frame loads the app from: APP_ORIGIN (through the proxy) unless given. The launch benchmark gives
     * the server's own address, so that the browser's cache and network throttling apply to the app's files.
     */
    origin?: string;
  }): Promise<Frame>;
  unmount(): Promise<void>;
  send(eventType: string, eventData?: unknown): Promise<void>;
  events(): Promise<PostedEvent[]>;
  /** What the system clipboard holds now, read by the Telegram Web page. */
  clipboard(): Promise<string>;
  setTheme(theme: Record<string, string>): Promise<void>;
}

/** A context with Telegram Web open at /k/ (or /a/) and the app reachable at APP_ORIGIN. */
export async function openTelegramWeb(
  browser: Browser,
  appBaseURL: string,
  client: "k" | "a" = "k",
  theme: Record<string, string> = LIGHT_THEME,
): Promise<TelegramWeb> {
  const context = await browser.newContext({ viewport: { width: 900, height: 760 }, locale: "en-US" });
  const requests: string[] = [];
  let apiGate: Promise<void> | undefined;
  let delays = { api: 0, files: 0 };
  await context.route(`${TELEGRAM_WEB}/**`, (route) =>
    route.fulfill({ contentType: "text/html; charset=utf-8", body: PARENT_PAGE }),
  );
  await context.route(`${APP_ORIGIN}/**`, async (route) => {
    const url = new URL(route.request().url());
    requests.push(`${route.request().method()} ${url.pathname}`);
    const delay = url.pathname.startsWith("/api/") ? delays.api : delays.files;
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    if (apiGate && url.pathname.startsWith("/api/")) await apiGate;
    // A frame removed mid-request (the re-insert tests do that) disposes its pending requests: that is the
    // page going away, not a failure of the app, so such a route is let go (route-fetch.ts).
    const response = await fetchAsBrowser(route, { url: `${appBaseURL}${url.pathname}${url.search}` });
    if (response) await route.fulfill({ response }).catch(unlessGone);
  });
  // The tests read what the app copied from Telegram Web's own page, which may read the clipboard.
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: TELEGRAM_WEB });
  const page = await context.newPage();
  await page.goto(`${TELEGRAM_WEB}/${client}/`);
  await page.evaluate((t) => {
    (window as unknown as { tg: { theme: unknown } }).tg.theme = t;
  }, theme);

  // The frame inside the iframe element now in the page (a removed one may linger in page.frames()).
  const frame = async (origin: string) => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const handle = await page.$("#host iframe");
      const found = await handle?.contentFrame();
      if (found?.url().startsWith(origin)) return found;
      if (Date.now() > deadline) throw new Error("The Mini App frame did not load");
      await page.waitForTimeout(50);
    }
  };

  return {
    context,
    page,
    requests,
    holdApi() {
      let release = () => {};
      apiGate = new Promise<void>((resolve) => {
        release = () => {
          apiGate = undefined;
          resolve();
        };
      });
      return release;
    },
    slowDown(given) {
      delays = given;
    },
    async mount({ initData, platform, version = "8.0", startParam, path = "/", origin = APP_ORIGIN }) {
      const fragment = new URLSearchParams();
      fragment.set("tgWebAppData", initData);
      fragment.set("tgWebAppVersion", version);
      fragment.set("tgWebAppPlatform", platform);
      const theme = await page.evaluate(() => (window as unknown as { tg: { theme: unknown } }).tg.theme);
      fragment.set("tgWebAppThemeParams", JSON.stringify(theme));
      const query = startParam ? `?tgWebAppStartParam=${encodeURIComponent(startParam)}` : "";
      await page.evaluate(
        (src) => (window as unknown as { tg: { events: unknown[]; mount(s: string): void } }).tg.mount(src),
        `${origin}${path}${query}#${fragment.toString()}`,
      );
      const f = await frame(origin);
      await f.waitForLoadState("domcontentloaded");
      return f;
    },
    async unmount() {
      await page.evaluate(() => (window as unknown as { tg: { unmount(): void } }).tg.unmount());
    },
    async send(eventType, eventData) {
      await page.evaluate(
        ([t, d]) => (window as unknown as { tg: { send(t: unknown, d: unknown): void } }).tg.send(t, d),
        [eventType, eventData] as const,
      );
    },
    events: () => page.evaluate(() => (window as unknown as { tg: { events: PostedEvent[] } }).tg.events),
    clipboard: () => page.evaluate(() => navigator.clipboard.readText()),
    async setTheme(next) {
      await page.evaluate((t) => {
        (window as unknown as { tg: { theme: unknown } }).tg.theme = t;
      }, next);
    },
  };
}

/** Waits until the frame has posted an event matching `predicate`, and returns it. */
export function waitForFramePosted(
  web: TelegramWeb,
  eventType: string,
  predicate: (data: unknown) => boolean = () => true,
  timeoutMs = 10_000,
): Promise<PostedEvent> {
  return waitForEvent(() => web.events(), eventType, predicate, timeoutMs);
}

/** The data of the last event of `eventType` the frame posted (undefined before any): the client's current state. */
export async function lastFramePosted<T = Record<string, unknown>>(web: TelegramWeb, eventType: string) {
  return (await web.events()).filter((e) => e.eventType === eventType).at(-1)?.eventData as T | undefined;
}
