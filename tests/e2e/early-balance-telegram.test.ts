/**
 * The balance before the app's code, inside Telegram: the launcher written into index.html
 * (src/app/launcher/) reads the kept token over the bridge, asks the server for the cabinet's first screen with it
 * (the call that checks the token) beside the cabinet's calls and paints what the server rendered from the app's
 * components, as the app's first render there shows it: the theme's colours from the launch
 * parameters, light or dark as the app takes them, telegram-ui's iOS look on an iPhone, the safe areas the client
 * reports in fullscreen. Held back here: the entry chunk and the stylesheets (until the painted figure is seen),
 * and the data of the parts after the balance. Clients: the iPhone's webview in fullscreen (the session in its
 * SecureStorage) and Telegram Web A's cross-site frame (the session in the frame's partitioned storage); and
 * Telegram Desktop (DeviceStorage), where the first screen's call goes out before the app's code is asked for.
 */
import type { Browser, Frame, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { type ApiSession, base, phonePendingSession, screen, telegramSessionThroughApi } from "./support/app";
import { phoneContext } from "./support/browser";
import { creditedRefill } from "./support/cli";
import {
  CODE_AND_STYLES,
  earlyRepliesRead,
  expectTakeover,
  hold,
  LATER_PARTS,
  recordFigures,
  recordThrows,
  seen,
} from "./support/early-paint";
import {
  DARK_THEME,
  IPHONE_FULLSCREEN,
  installTelegramClient,
  LIGHT_THEME,
  launchHash,
  newTelegramUser,
  postedEvents,
  signedInitData,
} from "./support/telegram-client";
import { telegramFile } from "./support/telegram-file";
import { openTelegramWeb, TELEGRAM_WEB_ARGS } from "./support/telegram-web";

let browser: Browser;
telegramFile((shared) => {
  browser = shared;
}, TELEGRAM_WEB_ARGS);

/** "#efeff3" as getComputedStyle gives it. */
const rgb = (hex: string) => `rgb(${[1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16)).join(", ")})`;

/**
 * The launcher's takeover (`expectTakeover`) inside Telegram: the painted block also wore the theme's background and
 * `platform`'s look.
 */
async function expectTakeoverInTelegram(
  page: Page,
  target: Page | Frame,
  release: () => void,
  {
    theme,
    platform,
    offset,
  }: { theme: Record<string, string>; platform: "ios" | "base"; offset: { x: number; y: number } },
) {
  const { painted } = await expectTakeover(page, target, release, `[early-balance-telegram] ${platform}`, offset);
  expect(painted?.background).toBe(rgb(theme.secondary_bg_color ?? ""));
  expect(painted?.platform).toBe(platform);
}

const telegramUser = (language: string) =>
  newTelegramUser(870_000_000, (id) => ({ first_name: "Early", username: `early${id}`, language_code: language }));

/** A Telegram user's init data and session, with a balance whose figure is grouped (1,234.50 USDT). */
async function investor(language: string) {
  const initData = signedInitData(telegramUser(language));
  const session = await telegramSessionThroughApi(initData);
  await creditedRefill(session.token, "1234.5");
  return { initData, session };
}

/** An iPhone in fullscreen whose SecureStorage keeps a signed-in Telegram user's token, the user saved. */
async function iphone(width: number, theme: Record<string, string>, language: string, kept?: ApiSession) {
  // With a kept session of another account given, the launch's init data need not have an account of its own.
  const { initData, session } = kept
    ? { initData: signedInitData(telegramUser(language)), session: kept }
    : await investor(language);
  const context = await phoneContext(browser, { viewport: { width, height: 844 } });
  await installTelegramClient(context, theme, { keychain: new Map(), ...IPHONE_FULLSCREEN });
  await context.addInitScript(
    ({ token, user }) => {
      sessionStorage.setItem("tg-secure:kassa_refresh_token", token);
      localStorage.setItem("kassa.user", JSON.stringify(user));
    },
    { token: session.token, user: session.user },
  );
  await recordFigures(context);
  const url = `${base()}/${launchHash({ initData, theme, platform: "ios", version: "9.0", fullscreen: true })}`;
  return { context, url, session };
}

/** The paths of `page`'s requests, in the order they start (CDP), filled as they go. */
async function requestsOf(page: Page): Promise<string[]> {
  const sent: string[] = [];
  const cdp = await page.context().newCDPSession(page);
  cdp.on("Network.requestWillBeSent", (event) => sent.push(new URL(event.request.url).pathname));
  await cdp.send("Network.enable");
  return sent;
}

describe("the balance painted inside Telegram before the app's code", { timeout: 90_000 }, () => {
  for (const [language, width, theme] of [
    ["en", 390, LIGHT_THEME],
    ["ru", 320, DARK_THEME],
  ] as const)
    it(`iPhone in fullscreen (${language}, ${width} px, ${theme === DARK_THEME ? "dark" : "light"} theme): the figure in the app's box, clear of the insets`, async () => {
      const { context, url } = await iphone(width, theme, language);
      const release = await hold(context, CODE_AND_STYLES);
      await hold(context, LATER_PARTS);
      const page = await context.newPage();
      // The priority each request starts at (CDP): inside Telegram the app's code keeps its default one.
      const priorities = new Map<string, string>();
      const cdp = await context.newCDPSession(page);
      cdp.on("Network.requestWillBeSent", (event) =>
        priorities.set(new URL(event.request.url).pathname, event.request.initialPriority),
      );
      await cdp.send("Network.enable");
      try {
        await page.goto(url, { waitUntil: "commit" });
        // Telegram keeps its loading placeholder over the page until `web_app_ready`: the launcher tells it once
        // the figure is painted, before the app's code (held here) has run.
        await page.locator("#root [data-testid='overview-total-painted']").waitFor({ timeout: 15_000 });
        await expect
          .poll(async () => (await postedEvents(page)).some((e) => e.eventType === "web_app_ready"), {
            timeout: 10_000,
          })
          .toBe(true);
        expect((await seen(page)).painted?.appStarted).toBe(false);
        await expectTakeoverInTelegram(page, page, release, { theme, platform: "ios", offset: { x: 0, y: 0 } });
        const entry = [...priorities].filter(([path]) => /^\/assets\/index-[^/]+\.js$/.test(path));
        expect(entry).toEqual([[expect.any(String), "High"]]);
        expect(priorities.get("/api/app/first-screen")).toBe("High");
        // The first screen's call answers the balance: it is not sent.
        expect(priorities.has("/api/user/balance")).toBe(false);
        // Below the notch and Telegram's controls (59 + 46 px).
        const { painted } = await seen(page);
        expect(painted?.y).toBeGreaterThan(59 + 46);
      } finally {
        await context.close();
      }
    });

  for (const [language, theme, chatButton] of [
    ["en", DARK_THEME, true],
    ["ru", LIGHT_THEME, false],
  ] as const)
    it(`Telegram Web A's frame (${language}, ${theme === DARK_THEME ? "dark" : "light"} theme): the figure in the app's box${chatButton ? "; a chat button's launch paints nothing" : ""}`, async () => {
      const { initData } = await investor(language);
      const web = await openTelegramWeb(browser, base(), "a", theme);
      await recordFigures(web.context);
      try {
        // The first launch signs in with the init data and keeps the session in the frame's storage.
        const first = await web.mount({ initData, platform: "weba", version: "9.1" });
        await screen(first, "cabinet");
        await first.locator("[data-testid='balance']").first().waitFor({ timeout: 20_000 });
        await web.unmount();
        const release = await hold(web.context, CODE_AND_STYLES, (route) => route.fallback());
        await hold(web.context, LATER_PARTS, (route) => route.fallback());
        const frame = await web.mount({ initData, platform: "weba", version: "9.1" });
        const host = await web.page.locator("#host iframe").boundingBox();
        await expectTakeoverInTelegram(web.page, frame, release, {
          theme,
          platform: "base",
          offset: { x: host?.x ?? 0, y: host?.y ?? 0 },
        });
        if (!chatButton) return;
        // A chat button's launch, the start parameter in the frame's query as Telegram Web gives it: the screen it
        // names opens, and no cabinet was painted on the way (the code held until the launcher has had its chance).
        await web.unmount();
        const releaseCode = await hold(web.context, CODE_AND_STYLES, (route) => route.fallback());
        const opened = await web.mount({ initData, platform: "weba", version: "9.1", startParam: "settings" });
        // The app's code is held: whatever its renders throw in the frame is seen from its start.
        const thrown = await recordThrows(web.context, opened);
        await earlyRepliesRead(opened);
        releaseCode();
        await opened.locator("#root [data-screen='settings']").waitFor({ timeout: 20_000 });
        expect((await seen(opened)).painted, "painted on a start parameter's launch").toBeUndefined();
        // Its texts came with its first calls: its first render did not suspend (none thrown away).
        await opened.locator("#root [data-screen='settings'] a[href^='/settings/']").first().waitFor();
        expect(thrown).toEqual([]);
      } finally {
        await web.context.close();
      }
    });

  // The kept token comes over the bridge a task after the launcher asked for it (here from DeviceStorage): the first
  // screen's call, which answers the balance, still goes out before the app's code is asked for, as on the web, and
  // not behind it (a browser opens six connections to a host; on a slow link the code's files would hold it for a
  // second). The code's answers are held until the figure is painted: the launcher inserts the entry after at most a
  // second whatever happened, and on a machine busy enough the reply took longer than that (the app then started
  // first, as it should).
  it("Telegram Desktop (DeviceStorage): the painted screen's call goes out before the app's code, the painted figure first", async () => {
    const { initData, session } = await investor("en");
    const context = await phoneContext(browser);
    await installTelegramClient(context, LIGHT_THEME, { deviceStorage: new Map() });
    await context.addInitScript(
      ({ token, user }) => {
        sessionStorage.setItem("tg-device:kassa_refresh_token", token);
        localStorage.setItem("kassa.user", JSON.stringify(user));
      },
      { token: session.token, user: session.user },
    );
    await recordFigures(context);
    const release = await hold(context, CODE_AND_STYLES);
    await hold(context, LATER_PARTS);
    const page = await context.newPage();
    const sent = await requestsOf(page);
    try {
      await page.goto(`${base()}/${launchHash({ initData, platform: "tdesktop", version: "9.1" })}`, {
        waitUntil: "commit",
      });
      await expectTakeoverInTelegram(page, page, release, {
        theme: LIGHT_THEME,
        platform: "base",
        offset: { x: 0, y: 0 },
      });
      const code = sent.findIndex((path) => /^\/assets\/.+\.js$/.test(path));
      expect(sent, "the balance comes with the first screen").not.toContain("/api/user/balance");
      const screen = sent.indexOf("/api/app/first-screen");
      expect(screen, sent.join(" ")).toBeGreaterThanOrEqual(0);
      expect(screen, `the painted screen's call before the first code file: ${sent.join(" ")}`).toBeLessThan(code);
    } finally {
      await context.close();
    }
  });

  // A busy phone answers late. The launcher asks for the kept token before anything else; while it waits no code but
  // the entry's own script is asked for, so the first screen's call still finds a free connection when the answer
  // comes. (The code's files, all asked for once the client had been waited for 0.1 s, held the calls until they had
  // downloaded: the balance a second later.)
  it("an iPhone slow to answer (every answer 0.3 s late): the token asked for first, the first screen's call before the screen's code", async () => {
    const { context, url } = await iphone(390, LIGHT_THEME, "en");
    await context.addInitScript(() => sessionStorage.setItem("tg-answer-delay", "300"));
    const page = await context.newPage();
    const sent = await requestsOf(page);
    try {
      await page.goto(url, { waitUntil: "commit" });
      await page.locator("[data-testid='overview-total']").waitFor({ timeout: 20_000 });
      const asked = await postedEvents(page);
      expect(asked[0]?.eventType, asked.map((event) => event.eventType).join(" ")).toBe(
        "web_app_secure_storage_get_key",
      );
      const order = sent.join(" ");
      // The first screen's call checks the token and answers the launch's calls (the maintenance flag, the balance…).
      const screen = sent.indexOf("/api/app/first-screen");
      expect(screen, order).toBeGreaterThanOrEqual(0);
      expect(sent.filter((path) => path === "/api/settings/technical_work" || path === "/api/user/balance")).toEqual(
        [],
      );
      // The entry's own script may be asked for before or after it (a busy browser parses the page late); no other.
      const codeBefore = sent.slice(0, screen).filter((path) => /^\/assets\/.+\.js$/.test(path));
      expect(
        codeBefore.filter((path) => !/^\/assets\/index-[^/]+\.js$/.test(path)),
        `only the entry's script before the first screen's call: ${order}`,
      ).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("paints nothing on a refused token, a phone waiting for its code, another path, a start parameter's screen or the wide layout", async () => {
    for (const [name, width, path, token] of [
      ["refused token", 390, "/", "refused"],
      // An investor registered on the web who signed in inside Telegram before entering the phone's code: the app
      // shows the confirmation, not the cabinet.
      ["phone waiting for its code", 390, "/", "phone pending"],
      ["another path", 390, "/operations", "kept"],
      // A chat button's launch (`tgWebAppStartParam`): the app opens the settings, not the cabinet.
      ["start parameter", 390, "/#tgWebAppStartParam=settings&", "kept"],
      ["wide layout", 1280, "/", "kept"],
    ] as const) {
      const pending = token === "phone pending" ? await phonePendingSession() : undefined;
      const { context, url, session } = await iphone(width, LIGHT_THEME, "en", pending);
      if (token === "refused")
        await context.addInitScript(() => sessionStorage.setItem("tg-secure:kassa_refresh_token", "not-a-kept-token"));
      const release = await hold(context, CODE_AND_STYLES);
      const page = await context.newPage();
      try {
        await page.goto(url.replace(`${base()}/#`, `${base()}${path.includes("#") ? path : `${path}#`}`), {
          waitUntil: "commit",
        });
        // Time enough for the bridge, the replies and the paint (the painted figure comes well within it).
        await page.waitForTimeout(2_000);
        release();
        await page.locator(`#root [data-screen]`).first().waitFor({ timeout: 20_000 });
        const opens = { "start parameter": "settings", "phone waiting for its code": "phone-verification" }[
          name as string
        ];
        if (opens) await page.locator(`#root [data-screen='${opens}']`).waitFor({ timeout: 20_000 });
        expect((await seen(page)).painted, `${name} (${session.login})`).toBeUndefined();
        expect(await page.locator("[data-testid='painted-cabinet']").count()).toBe(0);
      } finally {
        await context.close();
      }
    }
  });
});
