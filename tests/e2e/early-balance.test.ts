/**
 * The balance before the app's code: the launcher written into index.html (src/app/launcher/) paints the
 * cabinet's first screen as the server rendered it from the app's components with the investor's data
 * (`GET /app/first-screen`) while the entry chunk is still on its way, at the place and in the words the app's
 * first render then shows it (the same box, the same text), and the app takes over without a layout shift. Held back here: the entry chunk (until the painted figure is seen), and the data of the parts
 * that come after the balance (their arrival is cabinet-shift.test.ts's subject, not the takeover's). And the
 * launch's first renders: none suspends, so none is thrown away (docs/launch-performance.md).
 */
import type { FirstScreenReply } from "@contract";
import { LAUNCH_CALL_URLS } from "@contract/launch-calls";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "./support/api";
import { type ApiSession, base, demoSession, phonePendingSession, signUpThroughApi, useSession } from "./support/app";
import { chromiumForFile, phoneContext } from "./support/browser";
import { kassaCli } from "./support/cli";
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

const ENTRY_CHUNK = /\/assets\/index-[^/]+\.js$/;
const CABINET_CHUNK = /\/assets\/cabinet-launch-[^/]+\.js$/;

let browser: Browser;
let demo: ApiSession;
chromiumForFile((shared) => {
  browser = shared;
});
beforeAll(async () => {
  demo = await demoSession();
});

/**
 * A signed-in phone context whose page records, as they happen, the painted figure's box (and whether the
 * entry had started), the app's first figure's box, the layout shifts and any CSP violation.
 */
async function launchContext(options: { width: number; language: string; scheme: "light" | "dark" }) {
  const context = await phoneContext(browser, {
    viewport: { width: options.width, height: 844 },
    colorScheme: options.scheme,
  });
  // biome-ignore lint/correctness/useHookAtTopLevel: the e2e helper, not a React hook.
  await useSession(context, demo);
  await context.addInitScript((language) => localStorage.setItem("kassa.language", language), options.language);
  await recordFigures(context);
  return context;
}

/**
 * A refused inline script (zod's probe for `new Function`, refused as `eval` once the contract loads, is not one:
 * it is expected and zod falls back).
 */
const inlineScript = (violation: string) => violation.startsWith("script-src") && violation.includes(" inline ");

describe("the balance painted before the app's code", () => {
  for (const [language, width, scheme] of [
    ["en", 390, "light"],
    ["en", 320, "dark"],
    ["ru", 390, "dark"],
    ["ru", 320, "light"],
    ["de", 320, "dark"],
    ["kk", 390, "light"],
  ] as const)
    it(`shows the server's figure before the code runs, where and as the app then shows it (${language}, ${width} px, ${scheme})`, async () => {
      const context = await launchContext({ width, language, scheme });
      const releaseEntry = await hold(context, CODE_AND_STYLES);
      await hold(context, LATER_PARTS);
      const page = await context.newPage();
      try {
        await page.goto(`${base()}/`, { waitUntil: "commit" });
        const after = await expectTakeover(
          page,
          page,
          releaseEntry,
          `[early-balance] ${language} ${width} px ${scheme}`,
        );
        expect(after.violations.filter(inlineScript)).toEqual([]);
        // The app's first render of the cabinet has its figure: not its frame with a skeleton in the figure's place.
        expect(after.frame).toEqual({ figure: true });
      } finally {
        await context.close();
      }
    });

  // No first screen from the server (a failed call, a refused token), maintenance: the app's own screen, as before.
  for (const [name, status, screen] of [
    ["the first screen's call fails", 503, "cabinet"],
    ["the first screen's call is refused (401)", 401, "cabinet"],
    ["maintenance is on", null, "maintenance"],
  ] as const)
    it(`paints nothing when ${name}`, async () => {
      const context = await launchContext({ width: 390, language: "en", scheme: "light" });
      if (status !== null)
        await context.route(/\/api\/app\/first-screen/, (route) => route.fulfill({ status, json: { code: "X" } }), {
          times: 1,
        });
      else await kassaCli("maintenance", "on");
      const releaseEntry = await hold(context, ENTRY_CHUNK);
      const page = await context.newPage();
      try {
        await page.goto(`${base()}/`, { waitUntil: "commit" });
        // Time enough for the replies and the stylesheet (the painted figure comes well within it).
        await page.waitForTimeout(2_000);
        releaseEntry();
        await page.locator(`#root [data-screen='${screen}']`).waitFor({ timeout: 20_000 });
        expect((await seen(page)).painted).toBeUndefined();
      } finally {
        if (status === null) await kassaCli("maintenance", "off");
        await context.close();
      }
    });

  it("writes the investor's name as the server has it, whatever characters it holds", async () => {
    // `$&` and `$1` are replacement patterns to String.replace, the tags are markup to innerHTML: neither may act.
    const name = "Bob $& $1 <i>x</i>";
    const investor = await signUpThroughApi("demo", "en");
    await apiCall("updateUserData", { body: { fullName: name }, token: investor.token });
    const context = await phoneContext(browser, { viewport: { width: 390, height: 844 }, colorScheme: "light" });
    await useSession(context, investor);
    await context.addInitScript(() => localStorage.setItem("kassa.language", "en"));
    await hold(context, CODE_AND_STYLES);
    const page = await context.newPage();
    try {
      await page.goto(`${base()}/`, { waitUntil: "commit" });
      const welcome = page.locator("#root [data-testid='welcome-painted']");
      await welcome.waitFor({ timeout: 15_000 });
      expect(await welcome.textContent()).toBe(`Welcome, ${name}`);
      expect(await welcome.locator("i").count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it("paints nothing on a deep link (another screen than the cabinet's start)", async () => {
    const context = await launchContext({ width: 390, language: "en", scheme: "light" });
    const releaseEntry = await hold(context, ENTRY_CHUNK);
    const page = await context.newPage();
    try {
      await page.goto(`${base()}/operations`, { waitUntil: "commit" });
      await page.waitForTimeout(2_000);
      releaseEntry();
      await page.locator("#root [data-screen='operations']").waitFor({ timeout: 20_000 });
      expect(await page.locator("[data-testid='painted-cabinet']").count()).toBe(0);
      expect((await seen(page)).painted).toBeUndefined();
    } finally {
      await context.close();
    }
  });

  it("paints nothing for an investor whose phone waits for its code (the app shows its confirmation)", async () => {
    const session = await phonePendingSession();
    expect(session.user.phoneConfirmed).toBe(false);
    const context = await phoneContext(browser, { viewport: { width: 390, height: 844 }, colorScheme: "light" });
    await useSession(context, session);
    await context.addInitScript(() => localStorage.setItem("kassa.language", "en"));
    await recordFigures(context);
    const releaseEntry = await hold(context, ENTRY_CHUNK);
    const page = await context.newPage();
    try {
      const firstScreen = page.waitForResponse((response) => response.url().includes("/api/app/first-screen"));
      await page.goto(`${base()}/`, { waitUntil: "domcontentloaded" });
      // The server has no cabinet to give for this investor, and every early reply read through and three frames
      // after: where the launcher paints, it has by then.
      const reply = await firstScreen;
      expect(reply.status()).toBe(200);
      const body = (await reply.json()) as FirstScreenReply;
      expect(body.markup).toBeNull();
      expect(body.replies.find(({ url }) => url === "/user/me")?.body).toMatchObject({ phoneConfirmed: false });
      const statuses = await earlyRepliesRead(page);
      expect(statuses.length).toBeGreaterThan(0);
      expect(statuses.every((status) => status === 200)).toBe(true);
      releaseEntry();
      await page.locator("#root [data-screen='phone-verification']").waitFor({ timeout: 20_000 });
      expect((await seen(page)).painted).toBeUndefined();
      expect(await page.locator("[data-testid='painted-cabinet']").count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it("runs under the Content-Security-Policy, which still refuses any other inline script", async () => {
    const context = await launchContext({ width: 390, language: "en", scheme: "light" });
    const page = await context.newPage();
    const console: string[] = [];
    page.on("console", (message) => console.push(message.text()));
    try {
      const response = await page.goto(`${base()}/`);
      expect(response?.headers()["content-security-policy"]).toMatch(/script-src 'self' 'sha256-[^']+'/);
      await page.locator("[data-testid='balance']").waitFor({ timeout: 20_000 });
      // The launcher ran (it sent the first screen's call) and nothing was refused.
      expect(await page.evaluate(() => typeof window.__kassaFirstScreen?.token)).toBe("string");
      expect((await seen(page)).violations.filter(inlineScript)).toEqual([]);
      expect(console.filter((text) => /Content Security Policy/i.test(text))).toEqual([]);
      const ran = await page.evaluate(() => {
        const script = document.createElement("script");
        script.textContent = "window.__injected = true";
        document.head.append(script);
        return (window as unknown as { __injected?: boolean }).__injected === true;
      });
      expect(ran).toBe(false);
      expect((await seen(page)).violations.filter(inlineScript)).toHaveLength(1);
    } finally {
      await context.close();
    }
  });
});

interface Sent {
  url: string;
  priority: string;
}

/** Every request `page` sends, in the order the browser sends them, with the priority it starts at (CDP). */
async function recordRequests(context: BrowserContext, page: Page): Promise<Sent[]> {
  const sent: Sent[] = [];
  const cdp = await context.newCDPSession(page);
  cdp.on("Network.requestWillBeSent", (event) =>
    sent.push({ url: event.request.url, priority: event.request.initialPriority }),
  );
  await cdp.send("Network.enable");
  return sent;
}

/**
 * The files the launch asks for (the launcher's preloads, the entry among them) are those the page's tags name
 * once it has been read, before the entry runs and the app asks for more: recorded then (an init script's
 * listener comes before the launcher's), read with `launchFiles`.
 */
async function recordLaunchFiles(context: BrowserContext) {
  await context.addInitScript(() =>
    document.addEventListener("DOMContentLoaded", () => {
      (window as unknown as { __launchFiles: string[] }).__launchFiles = [
        ...document.querySelectorAll<HTMLScriptElement | HTMLLinkElement>("script[src], link[rel$='preload']"),
      ].map((tag) => (tag instanceof HTMLScriptElement ? tag.src : tag.href));
    }),
  );
}

const launchFiles = (page: Page) =>
  page.evaluate(() => (window as unknown as { __launchFiles: string[] }).__launchFiles);

describe("the launch's calls and code, at their true priority", () => {
  it("sends the first screen's call first and none of the calls it answers, and asks for the app's code at once, before the painted balance shows", async () => {
    const context = await launchContext({ width: 390, language: "en", scheme: "light" });
    const page = await context.newPage();
    try {
      const sent = await recordRequests(context, page);
      await page.goto(`${base()}/`, { waitUntil: "commit" });
      await page.locator("[data-testid='balance']").waitFor({ timeout: 20_000 });
      const order = sent.map(({ url, priority }) => `${new URL(url).pathname} ${priority}`).join("\n");
      const entry = sent.findIndex(({ url }) => ENTRY_CHUNK.test(url));
      const firstCode = sent.findIndex(({ url }) => /\/assets\/[^/]+\.js$/.test(url));
      expect(entry, order).toBeGreaterThan(0);
      // The first screen's call before any of the app's code; its reply answers the launch's calls (the maintenance
      // flag, the balance, the overview…), which the app then does not send.
      const firstScreen = sent.findIndex(({ url }) => /\/api\/app\/first-screen\?/.test(url));
      expect(firstScreen, order).toBeGreaterThanOrEqual(0);
      expect(firstScreen, order).toBeLessThan(firstCode);
      const answered = LAUNCH_CALL_URLS.map((url) => `/api${url.split("?")[0]}`);
      expect(
        sent.filter(({ url }) => answered.includes(new URL(url).pathname)),
        order,
      ).toEqual([]);
      // The app's code was asked for at once, not after the painted figure (which waits for the first screen's
      // reply): the entry chunk had been asked for before the figure showed, at its default priority.
      const { painted } = await seen(page);
      expect(painted, "the balance was painted early").toBeDefined();
      const files = await page.evaluate(() =>
        performance
          .getEntriesByType("resource")
          .filter((entry) => /\/assets\/[^/]+\.(js|css)$/.test(entry.name))
          .map((entry) => ({
            url: entry.name,
            start: entry.startTime,
            end: (entry as PerformanceResourceTiming).responseEnd,
          })),
      );
      expect(files.length, order).toBeGreaterThanOrEqual(5);
      const entryFile = files.find(({ url }) => ENTRY_CHUNK.test(url));
      expect(entryFile, order).toBeDefined();
      expect(entryFile?.start, `painted at ${painted?.at}`).toBeLessThan(painted?.at ?? 0);
      // The screen's own chunk once the entry has come, not beside it (on a slow link it took its share, and the
      // entry, which the app starts with, came later).
      const screenCode = files.find(({ url }) => CABINET_CHUNK.test(url));
      expect(screenCode, order).toBeDefined();
      expect(screenCode?.start, order).toBeGreaterThanOrEqual(entryFile?.end ?? Number.POSITIVE_INFINITY);
      expect(sent[entry]?.priority, order).not.toBe("Low");
    } finally {
      await context.close();
    }
  });

  it("asks for the code as script preloads where the browser does not preload modules, and the app starts", async () => {
    const context = await launchContext({ width: 390, language: "en", scheme: "light" });
    // As WebKit before Safari 17.2: `modulepreload` is not a link type it knows.
    await context.addInitScript(() => {
      const supports = DOMTokenList.prototype.supports;
      DOMTokenList.prototype.supports = function (token) {
        return token === "modulepreload" ? false : supports.call(this, token);
      };
    });
    const page = await context.newPage();
    try {
      await page.goto(`${base()}/`, { waitUntil: "commit" });
      await page.locator("#root [data-testid='overview-total']").waitFor({ timeout: 20_000 });
      expect((await seen(page)).painted, "the balance was painted early").toBeDefined();
      const preloads = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLLinkElement>("link[href$='.js']")].map((link) => ({
          file: link.getAttribute("href"),
          kind: `${link.rel} ${link.as}`,
        })),
      );
      // The entry, its imports, the cabinet's code and texts, the launch chunk, the code warmed up for later: none
      // left for the imports to find one after another.
      expect(preloads.length).toBeGreaterThanOrEqual(5);
      expect(preloads.filter(({ kind }) => kind !== "preload script")).toEqual([]);
    } finally {
      await context.close();
    }
  });

  for (const [name, path, width, signedIn] of [
    ["the login", "/login", 390, false],
    ["the wide layout", "/", 1280, true],
  ] as const)
    it(`asks for the entry chunk at its default priority at ${name}`, async () => {
      const context = signedIn
        ? await launchContext({ width, language: "en", scheme: "light" })
        : await phoneContext(browser, { viewport: { width, height: 844 } });
      await recordLaunchFiles(context);
      const page = await context.newPage();
      try {
        const sent = await recordRequests(context, page);
        await page.goto(`${base()}${path}`, { waitUntil: "commit" });
        await page
          .locator(signedIn ? "[data-testid='balance']" : "[data-screen='login']")
          .first()
          .waitFor({
            timeout: 20_000,
          });
        const entry = sent.find(({ url }) => ENTRY_CHUNK.test(url));
        expect(entry, sent.map(({ url }) => url).join("\n")).toBeDefined();
        expect(entry?.priority).not.toBe("Low");
        const announced = await launchFiles(page);
        expect(sent.filter(({ url, priority }) => announced.includes(url) && priority === "Low")).toEqual([]);
      } finally {
        await context.close();
      }
    });
});

describe("the launch's first renders", () => {
  it("throws none away: the login's, the cabinet's (with its later parts) and a chat button's screen do not suspend", async () => {
    // The screens a chat button of the bot opens (`startapp=refill_<id>`, `deposit_<id>`, `news_<id>`, `settings`).
    const [refills, deposits, news] = await Promise.all([
      apiCall("refills", { token: demo.token }),
      apiCall("deposits", { token: demo.token }),
      apiCall("news", { token: demo.token }),
    ]);
    const launches: [name: string, path: string, shown: string][] = [
      ["the login", "/login", "[data-screen='login'] input"],
      // A partner's referral link (`startapp=ref_<login>`).
      ["a registration", "/register/demo", "[data-screen='register'] input"],
      // The cabinet's income chart comes last (its code and texts after the balance).
      ["the cabinet", "/", "[data-testid='income']"],
      ["a refill", `/refill?refill=${refills.items[0]?.id}`, "[data-screen='refill']"],
      ["a deposit", `/deposits?deposit=${deposits.items[0]?.id}`, "[data-screen='deposits']"],
      ["a news item", `/news/${news[0]?.id}`, "[data-screen='news-item']"],
      ["the settings", "/settings", "[data-screen='settings']"],
    ];
    for (const [name, path, shown] of launches) {
      const signedIn = !path.startsWith("/login") && !path.startsWith("/register");
      const context = signedIn
        ? await launchContext({ width: 390, language: "de", scheme: "light" })
        : await phoneContext(browser, { viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      try {
        const thrown = await recordThrows(context, page);
        await page.goto(`${base()}${path}`);
        await page.locator(shown).first().waitFor({ state: "visible", timeout: 20_000 });
        // What renders once the screen's replies are in (a sheet, a list's rows) has rendered by then.
        await page.waitForLoadState("networkidle");
        expect(thrown, name).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });
});
